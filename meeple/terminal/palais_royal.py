"""Rich rendering of a Palais Royal view: the palace grid, the garden, the players and the hand.

Draws only what ``state.view(seat)`` holds, so a player never sees more in the terminal than the
engine lets him know.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow")
SEAT_LETTERS = "RBGY"
ROOM_NAMES = {
    "PAR": "Parade ground", "STA": "Stairway", "MIN": "Mint", "KIN": "King", "POM": "Pompadour",
    "OFF": "Office", "BAC": "Back door", "CAR": "Cardinal", "GAT": "Gate",
}


def _seat(p: int) -> Text:
    return Text(f"{SEAT_LETTERS[p]}{p}", style=SEAT_STYLES[p % 4])


def _header(view: dict[str, Any], seat: int | None) -> Text:
    text = Text()
    text.append("Palais Royal", style="bold magenta")
    text.append(f"  round {view['round']}")
    if view["final_round"]:
        text.append("  FINAL ROUND", style="bold red")
    text.append(f"  garden {view['garden_nobles_left']} nobles (last round at ≤ {view['end_trigger_nobles']})")
    text.append("  you are ")
    text.append_text(_seat(seat) if seat is not None else Text("a spectator", style="dim"))
    pending = view["pending"]
    if pending is not None:
        text.append("\nnow: ")
        text.append_text(_seat(pending["seat"]))
        kind = pending["kind"]
        if kind == "place":
            text.append(f" places {pending['left']} more servant(s) (place:<ROOM>)")
        elif kind == "edge":
            text.append(f" puts a garden servant on {pending['square']} (edge:pool / edge:<ROOM>)")
        elif kind == "keep":
            cards = ", ".join(pending.get("cards", [])) or f"{pending['drawn_count']} hidden card(s)"
            text.append(f" keeps drawn cards: {cards} (keep:<CARD>, end)")
        else:
            text.append(f" step {pending['step']}: {pending['step_name']}")
            turn = view["turn"] or {}
            if turn.get("gate_allowance") is not None:
                text.append(f"  allowance {turn['gate_allowance']}")
            if turn.get("movement_points") is not None:
                text.append(f"  movement {turn['movement_points']}")
            if pending["step"] == 4:
                text.append(f"  virtual slots {turn['virtual_slots']} T {turn['virtual_turquoise']}"
                            f" V {turn['virtual_violet']} patron −{turn['patron_discount']}")
            if turn.get("tie_card"):
                text.append("  TIE card played", style="bold")
    elif view["winners"] is not None:
        text.append("\ngame over, winner(s): ")
        for p in view["winners"]:
            text.append_text(_seat(p))
            text.append(" ")
    return text


def _palace(view: dict[str, Any]) -> Table:
    table = Table(title="Palace (row 0 next to the garden)", show_lines=True, show_header=False, expand=False)
    for _ in range(3):
        table.add_column(min_width=18)
    for row in view["layout"]:
        cells = []
        for code in row:
            cell = Text(f"{code} {ROOM_NAMES[code]}\n", style="bold")
            for p, count in enumerate(view["rooms"][code]):
                if count:
                    cell.append(f"{SEAT_LETTERS[p]}{count} ", style=SEAT_STYLES[p % 4])
            holder = view["majority"][code]
            if holder is not None and code not in ("CAR", "GAT", "OFF", "BAC"):
                cell.append("\nmajority ", style="dim")
                cell.append(SEAT_LETTERS[holder], style=SEAT_STYLES[holder % 4])
            cells.append(cell)
        table.add_row(*cells)
    return table


def _garden(view: dict[str, Any]) -> Table:
    table = Table(title="Garden (rank 1 next to the palace; cost for the player on turn)", show_lines=True)
    table.add_column("")
    for file in "abcdef":
        table.add_column(file, justify="center", min_width=9)
    squares = {entry["square"]: entry for entry in view["garden"]}
    data = view["noble_data"]
    for rank in range(6, 0, -1):
        cells: list[RenderableType] = [Text(str(rank), style="dim")]
        for file in "abcdef":
            entry = squares[f"{file}{rank}"]
            noble = entry["noble"]
            if noble is not None:
                info = data[noble]
                cell = Text(f"{noble} {info['vp']}vp\n", style="bold" if entry["edge"] else "")
                cost = entry.get("cost", info["gold"])
                cell.append(f"{cost}g ", style="yellow")
                cell.append(f"T{info['turquoise']} ", style="cyan")
                cell.append(f"V{info['violet']}", style="magenta")
                if info["privilege"]:
                    cell.append(f"\n{info['privilege']} {info['param']}", style="green")
            elif entry["servant"] is not None:
                p = entry["servant"]
                cell = Text(f"servant {SEAT_LETTERS[p]}", style=SEAT_STYLES[p % 4])
            else:
                cell = Text("·", style="dim")
            cells.append(cell)
        table.add_row(*cells)
    return table


def _players(view: dict[str, Any], seat: int | None) -> Table:
    table = Table(title="Players")
    for column in ("seat", "pool", "supply", "gold", "nobles", "privileges", "cards", "played", "score"):
        table.add_column(column)
    hide = view["hide_face_down_nobles"]
    data = view["noble_data"]
    for p in range(view["players"]):
        nobles = []
        for noble in view["nobles"][p]:
            if hide and not noble["face_up"] and p != seat:
                nobles.append("▮")
            else:
                nobles.append(f"{noble['id']}({data[noble['id']]['vp']})")
        privileges = view["privileges"][p]
        shown = " ".join(f"{k}{v}" for k, v in privileges["active"].items())
        if privileges["next_turn"]:
            shown += " next:" + " ".join(f"{k}{v}" for k, v in privileges["next_turn"].items())
        score = view["scores"][p]
        name = _seat(p)
        if p == view["current_player"]:
            name.append(" ◀")
        table.add_row(
            name, str(view["pool"][p]), str(view["general_supply"][p]), str(view["gold"][p]),
            " ".join(nobles) or "-", shown or "-", str(view["hand_counts"][p]),
            " ".join(f"{k}×{v}" for k, v in view["played_cards"][p].items()) or "-",
            f"{score['total']} (n{score['nobles']} c{score['played_cards']} h{score['hand']} e{score['edges']})",
        )
    return table


def _cards(view: dict[str, Any]) -> Text:
    text = Text()
    hand = view["hand"]
    if hand is not None:
        text.append("Your hand: ", style="bold")
        text.append(", ".join(f"{code}×{n}" for code, n in hand.items()) or "empty")
        text.append("\n")
    text.append(f"Deck {view['deck_size']}  discard {view['discard_size']}")
    if view["discard"]:
        text.append(f" (top {view['discard'][-1]})")
    return text


def _log(view: dict[str, Any], lines: int = 8) -> Text:
    text = Text()
    for event in view["log"][-lines:]:
        parts = [f"{k}={v}" for k, v in event.items() if k not in ("event", "seat", "record")]
        if "seat" in event:
            text.append_text(_seat(event["seat"]))
            text.append(" ")
        text.append(event["event"], style="bold")
        text.append(" " + " ".join(parts) + "\n")
    for event in view["private_log"][-3:]:
        text.append("(private) ", style="italic dim")
        text.append(f"{event['event']} {event.get('cards', event.get('card', ''))}\n")
    return text


def render_view(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The whole table for ``seat`` (``None``: spectator) from its view."""
    return Group(
        Panel(_header(view, seat)),
        _garden(view),
        _palace(view),
        _players(view, seat),
        Panel(_cards(view), title="Cards"),
        Panel(_log(view), title="Log"),
    )
