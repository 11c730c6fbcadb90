"""Rich rendering of a Palais Royal view: the palace grid, the garden, the players and the hand, every
room, card and privilege by its name; and the log and the actions in the web's English sentences.

Draws only what ``state.view(seat)`` holds, so a player never sees more in the terminal than the
engine lets him know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.terminal.common import SeatNames, headed_table, name_or_code, phrase, phrase_or_none, plain

#: Set-up records the web's log leaves out too (the palace and garden are drawn anyway).
HIDDEN_EVENTS = ("garden", "shuffle", "layout")
#: Rooms whose majority earns nothing, so it is not shown.
NO_MAJORITY = ("CAR", "GAT", "OFF", "BAC")


def room_name(code: str) -> str:
    return name_or_code("palais_royal.room.", code)


def card_name(code: str) -> str:
    return name_or_code("palais_royal.card.", code)


def privilege_text(code: str, amount: int) -> str:
    """"−1 gold per noble", "Servants 3": a privilege's name, with its number when it is more than 1."""
    name = name_or_code("palais_royal.privilege.", code)
    return f"{name} {amount}" if amount > 1 else name


def _source(value: str) -> str:
    return phrase("palais_royal.ui.the_pool") if value == "pool" else room_name(value)


def action_label(notation: str, view: Mapping[str, Any], names: SeatNames | None = None) -> str:
    """A notation in words, e.g. "move:STA-KIN" -> "Move a servant: Stairway → King's chamber"."""
    kind, _, argument = notation.partition(":")
    if kind in ("place", "gate", "king", "pomp"):
        if argument:
            return phrase(f"palais_royal.action.{kind}_room", {"room": room_name(argument)})
        return phrase(f"palais_royal.action.{kind}")
    if kind == "move":
        start, _, end = argument.partition("-")
        return phrase("palais_royal.action.move", {"from": room_name(start), "to": room_name(end)})
    if kind == "recruit":
        square: Mapping[str, Any] = next((g for g in view.get("garden") or [] if g.get("square") == argument), {})
        return phrase("palais_royal.action.recruit", {"square": argument, "noble": square.get("noble") or "?",
                                                      "cost": square.get("cost", "?")})
    if kind == "edge":
        return phrase("palais_royal.action.edge", {"from": _source(argument)})
    if kind in ("play", "keep"):
        return phrase(f"palais_royal.action.{kind}", {"card": card_name(argument)})
    return phrase_or_none(f"palais_royal.action.{kind}") or notation


def event_text(event: Mapping[str, Any], names: SeatNames) -> str:
    """One log event as the web's sentence ("Bot 2 moves a servant from Gate to Mint.")."""
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key == "event":
            continue
        if key in ("seat", "start_seat"):
            params[key] = names(value)
        elif key == "from":
            params[key] = _source(value)
        elif key in ("to", "room"):
            params[key] = room_name(value)
        elif key == "card":
            params[key] = card_name(value)
        elif key == "cards" and isinstance(value, list):
            params[key] = ", ".join(card_name(code) for code in value) or "—"
        elif key == "rooms":
            params[key] = ", ".join(room_name(code) for code in value)
        else:
            params[key] = value
    if event["event"] == "game_over":
        params["winners"] = ", ".join(names(s) for s in event.get("winners") or [])
        params["scores"] = " / ".join(plain(score) for score in event.get("scores") or [])
    return phrase_or_none(f"palais_royal.event.{event['event']}", params) or f"{event['event']} {plain(params)}"


def _turn_details(view: dict[str, Any]) -> str:
    turn = view["turn"] or {}
    details = []
    if turn.get("gate_allowance") is not None:
        details.append(phrase("palais_royal.ui.gate_allowance", {"n": turn["gate_allowance"]}))
    if turn.get("movement_points") is not None:
        details.append(phrase("palais_royal.ui.movement_points", {"n": turn["movement_points"]}))
    if turn.get("step") == 4:
        if turn.get("virtual_slots"):
            details.append(phrase("palais_royal.ui.virtual_slots", {"n": turn["virtual_slots"]}))
        if turn.get("virtual_turquoise"):
            details.append(f"+{turn['virtual_turquoise']} turquoise seal(s)")
        if turn.get("virtual_violet"):
            details.append(f"+{turn['virtual_violet']} violet seal(s)")
        if turn.get("patron_discount"):
            details.append(phrase("palais_royal.ui.patron", {"n": turn["patron_discount"]}))
    if turn.get("tie_card"):
        details.append(f"{card_name('TIE')} played")
    return "; ".join(details)


def _pending_text(view: dict[str, Any], names: SeatNames) -> str:
    pending = view["pending"]
    who = names(pending["seat"])
    kind = pending["kind"]
    if kind == "place":
        return phrase("palais_royal.ui.setup_place", {"name": who, "n": pending["left"]})
    if kind == "edge":
        return phrase("palais_royal.ui.edge_pending", {"name": who, "square": pending["square"]})
    if kind == "keep":
        if pending.get("cards"):
            return phrase("palais_royal.ui.drawn", {"n": len(pending["cards"])}) + ": " + ", ".join(
                card_name(code) for code in pending["cards"])
        return phrase("palais_royal.ui.drawn_count", {"name": who, "n": pending["drawn_count"]})
    step = phrase("palais_royal.ui.step_now", {"n": pending["step"],
                                                "name": phrase(f"palais_royal.step.{pending['step']}")})
    details = _turn_details(view)
    return f"{who}, {step}" + (f" ({details})" if details else "")


def _header(view: dict[str, Any], seat: int | None, names: SeatNames) -> Text:
    text = Text()
    text.append("Palais Royal", style="bold magenta")
    text.append("  " + phrase("palais_royal.ui.round", {"n": view["round"]}))
    if view["final_round"]:
        text.append("  " + phrase("palais_royal.ui.final_round"), style="bold red")
    text.append("  " + phrase("palais_royal.ui.garden") + ": " + phrase(
        "palais_royal.ui.nobles_left", {"n": view["garden_nobles_left"], "trigger": view["end_trigger_nobles"]}))
    text.append("  you are ")
    text.append_text(names.styled(seat) if seat is not None else Text("a spectator", style="dim"))
    if view["pending"] is not None:
        text.append("\nnow: ")
        text.append(_pending_text(view, names), style=names.style(view["pending"]["seat"]))
    elif view["winners"] is not None:
        text.append("\ngame over, winner: ")
        text.append_text(names.joined(view["winners"]))
    return text


def _palace(view: dict[str, Any], names: SeatNames) -> Table:
    table = Table(title=f"{phrase('palais_royal.ui.palace')} (the top row is next to the garden)",
                  show_lines=True, show_header=False, expand=False)
    for _ in range(3):
        table.add_column(min_width=20)
    for row in view["layout"]:
        cells = []
        for code in row:
            cell = Text(room_name(code), style="bold")
            cell.append(f"\n{phrase_or_none(f'palais_royal.room_hint.{code}') or ''}", style="dim")
            for p, count in enumerate(view["rooms"][code]):
                if count:
                    cell.append("\n")
                    cell.append_text(names.styled(p, f" ×{count}"))
            holder = view["majority"][code]
            if holder is not None and code not in NO_MAJORITY:
                cell.append("\n" + phrase("palais_royal.ui.majority_of", {"name": names(holder)}), style="italic")
            cells.append(cell)
        table.add_row(*cells)
    return table


def _noble_cell(noble: str, info: dict[str, Any], cost: int, bold: bool) -> Text:
    cell = Text(f"{noble} · {info['vp']} {phrase('palais_royal.ui.vp')}\n", style="bold" if bold else "")
    cell.append(f"{cost} gold", style="yellow")
    for seal, style in (("turquoise", "cyan"), ("violet", "magenta")):
        if info[seal]:
            cell.append(f"\n{info[seal]} {seal}", style=style)
    if info["privilege"]:
        cell.append("\n" + privilege_text(info["privilege"], info["param"]), style="green")
    return cell


def _garden(view: dict[str, Any], names: SeatNames) -> Table:
    title = f"{phrase('palais_royal.ui.garden')} (rank 1 is next to the palace; costs for the player on turn)"
    table = headed_table("rank", *"abcdef", title=title, show_lines=True)
    squares = {entry["square"]: entry for entry in view["garden"]}
    data = view["noble_data"]
    for rank in range(6, 0, -1):
        cells: list[RenderableType] = [Text(str(rank), style="dim")]
        for file in "abcdef":
            entry = squares[f"{file}{rank}"]
            noble = entry["noble"]
            if noble is not None:
                info = data[noble]
                cells.append(_noble_cell(noble, info, entry.get("cost", info["gold"]), entry["edge"]))
            elif entry["servant"] is not None:
                cells.append(names.styled(entry["servant"], "'s servant"))
            else:
                cells.append(Text("·", style="dim"))
        table.add_row(*cells)
    return table


def _privileges(privileges: dict[str, Any]) -> str:
    shown = [privilege_text(code, n) for code, n in privileges["active"].items()]
    shown += [f"{privilege_text(code, n)} ({phrase('palais_royal.ui.next_turn')})"
              for code, n in privileges["next_turn"].items()]
    return "; ".join(shown) or "—"


def _players(view: dict[str, Any], seat: int | None, names: SeatNames) -> Table:
    table = headed_table("player", "servants in pool", "servants in supply", "gold", "nobles", "privileges",
                         "cards in hand", "cards played", "points", title="Players")
    hide = view["hide_face_down_nobles"]
    data = view["noble_data"]
    for p in range(view["players"]):
        nobles = []
        for noble in view["nobles"][p]:
            if hide and not noble["face_up"] and p != seat:
                nobles.append("▮ face down")
            else:
                nobles.append(f"{noble['id']} ({data[noble['id']]['vp']})")
        score = view["scores"][p]
        parts = phrase("palais_royal.ui.score_parts", {
            "nobles": score["nobles"], "played": score["played_cards"], "hand": score["hand"], "edges": score["edges"]})
        name = names.styled(p)
        if p == view["current_player"]:
            name.append(" ◀")
        table.add_row(
            name, str(view["pool"][p]), str(view["general_supply"][p]), str(view["gold"][p]),
            ", ".join(nobles) or "—", _privileges(view["privileges"][p]), str(view["hand_counts"][p]),
            ", ".join(f"{card_name(code)} ×{n}" for code, n in view["played_cards"][p].items()) or "—",
            f"{score['total']}\n{parts}",
        )
    return table


def _cards(view: dict[str, Any]) -> Text:
    text = Text()
    hand = view["hand"]
    if hand is not None:
        text.append(phrase("palais_royal.ui.your_hand") + ": ", style="bold")
        text.append(", ".join(f"{card_name(code)} ×{n} ({phrase_or_none(f'palais_royal.card_hint.{code}')})"
                              for code, n in hand.items()) or phrase("palais_royal.ui.no_cards"))
        text.append("\n")
    text.append(phrase("palais_royal.ui.deck", {"n": view["deck_size"], "d": view["discard_size"]}))
    if view["discard"]:
        text.append(f" (on top: {card_name(view['discard'][-1])})")
    return text


def render_view(view: dict[str, Any], seat: int | None, names: SeatNames | None = None) -> RenderableType:
    """The whole table for ``seat`` (``None``: spectator) from its view."""
    names = names or SeatNames.numbered(view["players"], seat)
    return Group(
        Panel(_header(view, seat, names)),
        _garden(view, names),
        _palace(view, names),
        _players(view, seat, names),
        Panel(_cards(view), title="Cards"),
    )
