"""Rich drawing of a Caylus view: the road, special buildings, castle, favour table and players.

It reads only the view dict (``state.view(seat)``), so it shows exactly what that seat may know.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SEAT_COLOURS = ("blue", "red", "green", "dark_orange", "magenta")
CUBE_STYLE = {"f": "bright_magenta", "w": "yellow4", "s": "grey62", "c": "purple", "g": "gold1"}
KIND_STYLE = {"neutral": "pink1", "fixed": "white", "wood": "yellow4", "stone": "grey62",
              "residential": "green", "prestige": "bright_blue", "lot": "grey30"}
PHASES = {1: "income", 2: "placing workers", 3: "special buildings", 4: "provost", 5: "road activation",
          6: "castle", 7: "end of turn"}


def _seat(seat: int | None, me: int | None) -> Text:
    if seat is None:
        return Text("·", style="grey42")
    label = f"P{seat}" + ("*" if seat == me else "")
    return Text(label, style=f"bold {SEAT_COLOURS[seat % len(SEAT_COLOURS)]}")


def _cubes(counts: dict[str, int]) -> Text:
    text = Text()
    for letter in "fwscg":
        text.append(f"{counts[letter]}{letter} ", style=CUBE_STYLE[letter])
    return text


def _header(view: dict[str, Any], seat: int | None) -> RenderableType:
    text = Text()
    text.append(f"Turn {view['turn']}", style="bold")
    if view["over"]:
        text.append("  — game over", style="bold red")
    else:
        text.append(f"  phase {view['phase']} ({PHASES.get(view['phase'], '?')})")
    text.append(f"   bailiff {view['bailiff']}  provost {view['provost']}   favour cap {view['favour_cap']}")
    text.append("\nturn order ")
    for s in view["turn_order"]:
        text.append_text(_seat(s, seat))
        text.append(" ")
    if view["passing_order"]:
        text.append("  bridge ")
        for s in view["passing_order"]:
            text.append_text(_seat(s, seat))
            text.append(" ")
    pending = view["pending"]
    if pending:
        text.append("\nwaiting for ")
        text.append_text(_seat(pending["seat"], seat))
        text.append(f": {pending['kind']}")
        extra = {k: v for k, v in pending.items() if k not in ("kind", "seat")}
        if extra:
            text.append(" " + ", ".join(f"{k}={v}" for k, v in extra.items()), style="grey62")
    return text


def _road(view: dict[str, Any], seat: int | None) -> RenderableType:
    table = Table(title="Road", show_edge=False, pad_edge=False, expand=False)
    for column in ("#", "building", "own", "wkr", ""):
        table.add_column(column, no_wrap=True)
    provost, bailiff = view["provost"], view["bailiff"]
    last = max([s["space"] for s in view["road"] if s["building"] is not None] + [provost, bailiff, 9])
    for space in view["road"]:
        number = space["space"]
        if number > last + 1:
            break
        name = space["building"] or "(empty lot)"
        marks = []
        if number == provost:
            marks.append("◆provost")
        if number == bailiff:
            marks.append("▲bailiff")
        if space["mark"]:
            marks.append(f"[{space['mark']}]")
        if space["becomes_residence_of"] is not None:
            marks.append(f"→residence of P{space['becomes_residence_of']}")
        style = KIND_STYLE[space["kind"]]
        if number > provost:
            style += " dim"
        table.add_row(str(number), Text(name, style=style), _seat(space["owner"], seat),
                      _seat(space["worker"], seat), " ".join(marks))
    return table


def _specials(view: dict[str, Any], seat: int | None) -> RenderableType:
    table = Table(title="Special buildings", show_edge=False, show_header=False)
    table.add_column("place")
    table.add_column("workers")
    specials = view["specials"]
    for name in ("gate", "trading_post", "guild", "joust"):
        table.add_row(name, _seat(specials[name], seat))
    stables = Text()
    for s in specials["stables"]:
        stables.append_text(_seat(s, seat))
        stables.append(" ")
    table.add_row("stables", stables if specials["stables"] else Text("·", style="grey42"))
    inn = Text()
    inn.append("left ")
    inn.append_text(_seat(specials["inn_left"], seat))
    inn.append("  right ")
    inn.append_text(_seat(specials["inn_right"], seat))
    table.add_row("inn", inn)
    return table


def _castle(view: dict[str, Any], seat: int | None) -> RenderableType:
    castle = view["castle"]
    table = Table(title="Castle", show_edge=False)
    table.add_column("section")
    table.add_column("filled")
    for p in range(view["players"]):
        table.add_column(_seat(p, seat))
    for section in castle["sections"]:
        label = section["name"] + (" ✓" if section["scored"] else f" @{section['mark']}")
        table.add_row(label, f"{section['filled']}/{section['size']}", *[str(h) for h in section["houses"]])
    arrivals = Text("arrivals ")
    for s in castle["workers"]:
        arrivals.append_text(_seat(s, seat))
        arrivals.append(" ")
    return Group(table, arrivals)


def _players(view: dict[str, Any], seat: int | None) -> RenderableType:
    table = Table(title="Players", show_edge=False)
    for column in ("seat", "PP", "score", "d", "cubes", "workers", "pp", "money", "res", "bld"):
        table.add_column(column, no_wrap=True)
    for player in view["players_state"]:
        used = set(player["favour_rows_used"])
        favours = [Text(str(player["favours"][row]), style="bold" if row in used else "")
                   for row in ("pp", "money", "res", "bld")]
        table.add_row(_seat(player["seat"], seat), str(player["prestige"]), str(player["score"]),
                      str(player["deniers"]), _cubes(player["cubes"]),
                      f"{player['workers_available']}/{player['workers_available'] + player['workers_placed']}",
                      *favours)
    return table


def _favour_table(view: dict[str, Any]) -> RenderableType:
    table = Table(title=f"Royal favours (columns open: 1–{view['favour_cap']})", show_edge=False)
    table.add_column("row")
    for column in range(1, 6):
        table.add_column(str(column), style="" if column <= view["favour_cap"] else "dim")
    for row, cells in view["favour_table"].items():
        table.add_row(row, *cells)
    return table


def _log(view: dict[str, Any]) -> RenderableType:
    lines = []
    for event in view["log"][-8:]:
        who = f"P{event['seat']} " if "seat" in event else ""
        if event["event"] == "action":
            lines.append(f"{who}{event['action']}" + (" (auto)" if event["auto"] else ""))
            continue
        details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "seat"))
        lines.append(f"{who}{event['event']} {details}".rstrip())
    return Panel("\n".join(lines) or "—", title="Recent events", expand=False)


def render_view(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The whole board for ``seat`` (None = spectator); ``*`` marks the viewer's seat."""
    parts: list[RenderableType] = [_header(view, seat), _road(view, seat), _specials(view, seat),
                                   _castle(view, seat), _players(view, seat), _favour_table(view)]
    if view.get("winners") is not None:
        parts.append(Text(f"final scores {view['final_scores']}, winners {view['winners']}", style="bold"))
    parts.append(_log(view))
    return Panel(Group(*parts), title="Caylus", expand=False)
