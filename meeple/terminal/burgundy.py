"""Rich rendering of a Castles of Burgundy view: hex estates, storages, depots and the pending decision,
every tile by its name; and the log and the actions in the web's English sentences.

It draws only what ``state.view(seat)`` holds, so the terminal shows exactly what that seat may know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from meeple.terminal.common import (
    SeatNames,
    facts,
    headed_table,
    name_or_code,
    phrase,
    phrase_or_none,
    plain,
    yes_no,
)

ROW_LENGTHS = (4, 5, 6, 7, 6, 5, 4)
DIE = "6543216545431236126541254312612563413"
CELL = 7
TYPES = "ACKMBS"
TYPE_STYLE = {
    "A": "black on pale_green3",
    "B": "black on wheat1",
    "C": "white on dark_green",
    "K": "black on yellow",
    "M": "white on grey42",
    "S": "white on blue",
}
GOODS_STYLE = {1: "white on red", 2: "black on cyan", 3: "black on bright_white", 4: "white on purple",
               5: "black on gold1", 6: "white on dark_orange3"}
_ANIMAL = re.compile(r"^A\.([a-z]+)(\d)$")


def _type_of(code: str) -> str:
    return "B" if code.startswith("B.") else "A" if code.startswith("A.") else code[0]


def tile_name(code: str) -> str:
    """A tile's name: "Ship", "Bank", "Cows ×3"; a knowledge tile by what it does."""
    direct = phrase_or_none(f"burgundy.tile.{code.replace('.', '_')}")
    if direct:
        return direct
    animal = _ANIMAL.match(code)
    if animal:
        return phrase("burgundy.tile.animal", {"animal": name_or_code("burgundy.animal.", animal[1]),
                                               "n": animal[2]})
    effect = phrase_or_none(f"burgundy.tilehelp.{code}")
    return f"Knowledge ({effect})" if effect else code


def _tile_short(code: str) -> str:
    """A label that fits one hex: "Ship", "Cow3", "Know"."""
    animal = _ANIMAL.match(code)
    if animal:
        return name_or_code("burgundy.animal_short.", animal[1]) + animal[2]
    if _type_of(code) == "K":
        return "Know"
    return phrase_or_none(f"burgundy.short.{code.replace('.', '_')}") or code


def _goods_name(goods: Any) -> str:
    return phrase("burgundy.ui.goods_n", {"n": goods})


def action_label(notation: str, view: Mapping[str, Any], names: SeatNames | None = None) -> str:
    """A notation in words, e.g. "take:4:S" -> "Take Ship from depot 4" (the web's labels)."""
    verb, _, rest = notation.partition(":")
    main, _, paid = rest.partition("~w")
    workers = phrase("burgundy.action.paying_workers", {"n": paid}) if paid else ""
    if verb == "die":
        return phrase("burgundy.action.die", {"n": main})
    if verb in ("take", "buy"):
        depot, _, tile = main.partition(":")
        key = f"burgundy.action.{verb}{'_black' if depot == '0' else ''}"
        return phrase(key, {"depot": depot, "tile": tile_name(tile)}) + workers
    if verb == "place":
        tile, _, space = main.partition("@")
        return phrase("burgundy.action.place", {"tile": tile_name(tile), "space": space})
    if verb == "sell":
        return phrase("burgundy.action.sell", {"goods": _goods_name(main)})
    if verb == "discard":
        return phrase("burgundy.action.discard", {"tile": tile_name(main)})
    if verb == "ship":
        if "+" in main:
            a, _, b = main.partition("+")
            return phrase("burgundy.action.ship_pair", {"a": a, "b": b})
        return phrase("burgundy.action.ship", {"depot": main})
    if verb == "keep":
        return phrase("burgundy.action.keep", {"goods": ", ".join(_goods_name(g) for g in main.split(","))})
    if verb == "board":
        return phrase("burgundy.action.board", {"n": main})
    if verb == "start":
        return phrase("burgundy.action.start", {"space": main})
    return phrase_or_none(f"burgundy.action.{verb}") or notation


def event_text(event: Mapping[str, Any], names: SeatNames) -> str:
    """One log event as the web's sentence ("Bot 2 takes Ship from depot 4.")."""
    kind = event["event"]
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key == "event":
            continue
        if key == "seat":
            params[key] = names(value)
        elif key == "tile":
            params[key] = tile_name(value)
        elif key == "order":
            params[key] = " → ".join(names(s) for s in value)
        elif key == "taken":
            params[key] = ", ".join(_goods_name(g) for g in value) or "—"
        elif key == "goods" and kind == "sell":
            params[key] = _goods_name(value)
        elif key == "effect":
            params[key] = phrase(f"burgundy.pending.{value}")
        elif key in ("mines", "vp") and isinstance(value, list):
            params[key] = " / ".join(plain(v) for v in value)
        else:
            params[key] = "" if isinstance(value, dict) else value
    if kind == "place":
        extras = []
        if event.get("region_vp"):
            extras.append(phrase("burgundy.event.region_vp", {"n": event["region_vp"]}))
        if event.get("animal_vp"):
            extras.append(phrase("burgundy.event.animal_vp", {"n": event["animal_vp"]}))
        if event.get("bonus"):
            extras.append(phrase(f"burgundy.event.bonus_{event['bonus']}", {"n": event.get("bonus_vp", "")}))
        if event.get("building_vp"):
            extras.append(phrase("burgundy.event.building_vp", {"n": event["building_vp"]}))
        params["extra"] = f" ({', '.join(extras)})" if extras else ""
    if kind in ("workers", "sell", "take", "place"):
        spent = event.get("workers") and kind != "workers"
        params["cost"] = phrase("burgundy.event.cost", {"n": event["workers"]}) if spent else ""
    return phrase_or_none(f"burgundy.event.{kind}", params) or f"{kind} {plain(params)}"


def _goods(goods: list[int] | dict[str, int]) -> Text:
    text = Text()
    items = [(int(g), c) for g, c in goods.items()] if isinstance(goods, dict) else [(g, 1) for g in goods]
    for g, count in items:
        for _ in range(count):
            text.append(f" {g} ", style=GOODS_STYLE.get(g, ""))
            text.append(" ")
    return text if items else Text("–", style="dim")


def _tiles(codes: list[str]) -> Text:
    """Tiles by name, each on its type's colour."""
    text = Text()
    for code in codes:
        text.append(f" {tile_name(code)} ", style=TYPE_STYLE.get(_type_of(code), ""))
        text.append(" ")
    return text if codes else Text("–", style="dim")


def _type_legend() -> Text:
    legend = Text("empty spaces show their die number in their type's colour: ", style="dim")
    for kind in TYPES:
        legend.append(f" {phrase(f'burgundy.type.{kind}')} ", style=TYPE_STYLE[kind])
        legend.append(" ")
    return legend


def _estate(player: dict[str, Any]) -> Text:
    """The 37-space hex map: colour = space type, number = die value, label = the placed tile."""
    types = player.get("board_types")
    if not types:
        return Text(phrase("burgundy.ui.board_secret"), style="dim")
    estate = player.get("estate", {})
    text = Text()
    space = 1
    for length in ROW_LENGTHS:
        text.append(" " * ((7 - length) * CELL // 2))
        for _ in range(length):
            tile = estate.get(str(space))
            label = _tile_short(tile) if tile else DIE[space - 1]
            style = TYPE_STYLE[types[space - 1]] + (" bold" if tile else " dim")
            text.append(f"{label:^{CELL - 1}}", style=style)
            text.append(" ")
            space += 1
        text.append("\n")
    return text


def _player_panel(player: dict[str, Any], view: dict[str, Any], names: SeatNames) -> Panel:
    seat = player["seat"]
    knowledge = "\n".join(phrase_or_none(f"burgundy.tilehelp.{code}") or code for code in player["knowledge"])
    bonus = ", ".join(phrase(f"burgundy.type.{code.split(':')[0]}") + f" ({code.split(':')[1]})"
                      for code in player["bonus_tiles"]) or "–"
    empty = player["empty_spaces"]
    info = facts([
        (phrase("burgundy.ui.vp"), str(player["vp"])),
        (phrase("burgundy.ui.silverlings"), str(player["silverlings"])),
        (phrase("burgundy.ui.workers"), str(player["workers"])),
        ("Dice", " ".join(str(d) for d in player["dice"] if d) or "–"),
        (phrase("burgundy.ui.goods"), _goods(player["goods"])),
        (phrase("burgundy.ui.sold"), _goods(player["sold"])),
        (phrase("burgundy.ui.storage"), _tiles(player["storage"])),
        (phrase("burgundy.ui.knowledge"), knowledge or "–"),
        ("Bonus tiles", bonus),
        ("Track", phrase("burgundy.ui.track", {"n": player["track"]["position"]})),
        ("Estate", "?" if empty is None else phrase("burgundy.ui.empty_spaces", {"n": empty})),
    ])
    title = names.styled(seat, f" · board {player['board'] or '?'}")
    if view.get("current_player") == seat:
        title.append(" ◀ to play", style="bold")
    return Panel(Group(_estate(player), info), title=title, expand=False)


def _depots(view: dict[str, Any]) -> RenderableType:
    depots = headed_table("depot", "tiles", "goods", title="Depots", expand=False)
    for d in range(1, 7):
        depots.add_row(str(d), _tiles(view["depots"][str(d)]), _goods(view["depot_goods"][str(d)]))
    depots.add_row(phrase("burgundy.ui.black_depot") + f"\n({phrase('burgundy.ui.black_price')})",
                   _tiles(view["depots"]["0"]), "")
    return depots


def _bonus_tiles(view: dict[str, Any], names: SeatNames) -> RenderableType:
    table = headed_table("colour filled", "large bonus tile", "small bonus tile",
                         title=phrase("burgundy.ui.bonus_tiles"), expand=False)
    for kind, taken in view["bonus_tiles"].items():
        cells = [names.styled(taken[size]) if taken[size] is not None else Text("open", style="dim")
                 for size in ("large", "small")]
        table.add_row(Text(phrase(f"burgundy.type.{kind}"), style=TYPE_STYLE.get(kind, "")), *cells)
    return table


def _decision(view: dict[str, Any], names: SeatNames) -> str:
    pending = view.get("pending")
    if view.get("is_over"):
        return phrase("burgundy.ui.game_over")
    if pending:
        return phrase(f"burgundy.prompt.{pending['kind']}", {
            "name": names(pending["seat"]), "die": pending.get("die", ""),
            "tile": tile_name(pending["incoming"]) if pending.get("incoming") else "",
            "building": tile_name(f"B.{pending['building']}") if pending.get("building") else "",
            "n": pending.get("free_slots", ""), "depots": ", ".join(map(str, pending.get("depots") or []))})
    turn = view.get("turn") or {}
    who = names(turn.get("seat", view.get("current_player") or 0))
    if turn and not turn.get("dice_left"):
        return phrase("burgundy.prompt.turn_done", {"name": who})
    return phrase("burgundy.prompt.turn", {"name": who})


def _status(view: dict[str, Any], names: SeatNames) -> RenderableType:
    rows: list[tuple[str, RenderableType | str]] = [
        ("Phase", phrase("burgundy.ui.phase_round", {"phase": view["phase"], "round": view["round"]})),
        (phrase("burgundy.ui.round_goods"), _goods(view["round_goods"])),
        (phrase("burgundy.ui.white_die"), str(view["white_die"])),
        ("This round's order", names.joined(view["round_order"], " → ")),
        ("Turn-order track", names.joined(view["track_order"], " → ")),
        ("Victory points", ", ".join(f"{names(s)} {vp}" for s, vp in enumerate(view["scores"]))),
        ("Face-down tiles", ", ".join(f"{phrase(f'burgundy.type.{kind}')} {count}"
                                      for kind, count in view["white_piles"].items())
         + f"; black {view['black_pile']}"),
    ]
    turn = view.get("turn")
    if turn:
        dice = ", ".join(map(str, turn["dice_left"])) or "none"
        rows.append(("Turn", f"{names(turn['seat'])}: dice left {dice}; "
                             f"bought from the black depot: {yes_no(turn['bought'])}"))
    if view.get("pending") and len(view["pending"].get("stack", [])) > 1:
        rows.append((phrase("burgundy.ui.chain"),
                     " → ".join(phrase(f"burgundy.pending.{kind}") for kind in view["pending"]["stack"])))
    rows.append(("Now", Text(_decision(view, names), style="bold yellow")))
    if view.get("is_over") and view.get("winners") is not None:
        rows.append(("Winner", Text(", ".join(names(s) for s in view["winners"]), style="bold green")))
    return facts(rows)


def render_view(view: dict[str, Any], seat: int | None, names: SeatNames | None = None) -> RenderableType:
    names = names or SeatNames.numbered(len(view["players"]), seat)
    board = Panel(Group(Columns([_depots(view), _bonus_tiles(view, names)]), _status(view, names)),
                  title=phrase("burgundy.ui.main_board"), expand=False)
    players = [_player_panel(p, view, names) for p in view["players"]]
    return Group(board, Columns(players), _type_legend())
