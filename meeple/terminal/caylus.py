"""Rich drawing of a Caylus view: the road, special buildings, castle, favour table, stock and players,
every building and cube by its name; and the log and the actions in the web's English sentences.

It reads only the view dict (``state.view(seat)``), so it shows exactly what that seat may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from meeple.games.caylus.data import CUBES, KIND_NAMES, TILE_ID, TILES, cube_text
from meeple.terminal.common import SeatNames, headed_table, name_or_code, phrase, phrase_or_none

CUBE_STYLE = {"f": "bright_magenta", "w": "yellow4", "s": "grey62", "c": "purple", "g": "gold1"}
KIND_STYLE = {"neutral": "pink1", "fixed": "white", "wood": "yellow4", "stone": "grey62",
              "residential": "green", "prestige": "bright_blue", "lot": "grey30"}
SPECIALS = ("gate", "trading_post", "guild", "joust", "stables", "inn")
FAVOUR_ROWS = ("pp", "money", "res", "bld")


def building_name(slug: str) -> str:
    return name_or_code("caylus.b.", slug)


def cube_name(letter: str) -> str:
    return name_or_code("caylus.cube.", letter)


def cubes_text(letters: str) -> str:
    """"ffc" -> "2 food + 1 cloth"."""
    return " + ".join(f"{letters.count(c)} {cube_name(c)}" for c in CUBES if c in letters) or "nothing"


def _target(target: str, view: Mapping[str, Any]) -> str:
    """A placement target: "space 12 (Marketplace)" or a special building's name."""
    if not target.isdigit():
        return name_or_code("caylus.special.", target)
    text = phrase("caylus.ui.space_n", {"n": target})
    road = view.get("road") or []
    index = int(target) - 1
    if 0 <= index < len(road) and road[index].get("building"):
        text += f" ({building_name(road[index]['building'])})"
    return text


def action_label(notation: str, view: Mapping[str, Any], names: SeatNames | None = None) -> str:
    """A notation in words, e.g. "place:castle" -> "Place a worker on Castle" (the web's labels)."""
    parts = notation.split(":")
    kind = parts[0]
    a = parts[1] if len(parts) > 1 else ""
    b = parts[2] if len(parts) > 2 else None
    if kind == "place":
        return phrase("caylus.action.place", {"target": _target(a, view)})
    if kind == "gate":
        return phrase("caylus.action.gate_back") if a == "back" else phrase(
            "caylus.action.gate", {"target": _target(a, view)})
    if kind in ("guild", "provost"):
        return phrase(f"caylus.action.{kind}", {"k": a})
    if kind in ("joust", "inn", "church", "tailor", "bank", "jewel"):
        return phrase(f"caylus.action.{kind}_{a}")
    if kind in ("produce", "bonus", "sell", "buy"):
        return phrase(f"caylus.action.{kind}", {"cubes": cubes_text(a)})
    if kind == "alch":
        return phrase("caylus.action.alch", {"cubes": cubes_text(a), "n": len(a) // 2})
    if kind == "build":
        if b is None:
            return phrase("caylus.action.build", {"building": building_name(a)})
        if b.isdigit():
            return phrase("caylus.action.build_on", {"building": building_name(a), "n": b})
        return phrase("caylus.action.build_with", {"building": building_name(a), "cube": cube_name(b)})
    if kind == "lawyer":
        return phrase("caylus.action.lawyer", {"n": a})
    if kind == "castle":
        return phrase("caylus.action.castle_done") if a == "done" else phrase(
            "caylus.action.castle", {"cubes": cubes_text(a)})
    if kind == "favour":
        return phrase("caylus.action.favour", {"row": phrase(f"caylus.row.{a}")})
    if kind == "res":
        if a == "trade" and b is not None and len(parts) > 3:
            return phrase("caylus.action.res_trade", {"give": cube_name(b), "get": cubes_text(parts[3])})
        return phrase("caylus.action.res", {"cubes": cube_name(a)})
    return phrase_or_none(f"caylus.action.{kind}") or notation


def event_text(event: Mapping[str, Any], names: SeatNames) -> str:
    """One log event as the web's sentence; a played action reads "Bot 2: Take 1 food"."""
    who = names(event["seat"]) if isinstance(event.get("seat"), int) else ""
    kind = event["event"]
    if kind == "action":
        return f"{who}: {action_label(event['action'], {})}" + (" (automatic)" if event.get("auto") else "")
    if kind == "scoring":
        return phrase("caylus.event.scoring", {
            "name": who, "section": phrase(f"caylus.section.{event['section']}"), "houses": event["houses"],
            "favours": event["favours"], "penalty": event["penalty"]})
    return phrase_or_none(f"caylus.event.{kind}", {**event, "name": who}) or f"{kind} {dict(event)}"


def _cube_cells(counts: Mapping[str, int]) -> list[Text]:
    return [Text(str(counts[letter]), style=CUBE_STYLE[letter]) for letter in CUBES]


def _pending_text(pending: Mapping[str, Any], names: SeatNames) -> str:
    params = {**pending, "name": names(pending["seat"])}
    if pending.get("building"):
        params["building"] = building_name(pending["building"])
    if pending.get("section"):
        params["section"] = phrase(f"caylus.section.{pending['section']}")
    return phrase_or_none(f"caylus.pending.{pending['kind']}", params) or pending["kind"]


def _header(view: dict[str, Any], names: SeatNames) -> RenderableType:
    text = Text()
    text.append(phrase("caylus.ui.turn", {"n": view["turn"]}), style="bold")
    if view["over"]:
        text.append("  — " + phrase("caylus.ui.over"), style="bold red")
    else:
        text.append("   phase " + phrase(f"caylus.phase.{view['phase']}"))
    text.append(f"   {phrase('caylus.ui.provost_at', {'n': view['provost']})}"
                f"   {phrase('caylus.ui.bailiff_at', {'n': view['bailiff']})}"
                f"   {phrase('caylus.ui.favour_cap', {'n': view['favour_cap']})}")
    text.append(f"\n{phrase('caylus.ui.turn_order')}: ")
    text.append_text(names.joined(view["turn_order"], " → "))
    text.append(f"   {phrase('caylus.ui.bridge')} ({phrase('caylus.ui.passing_order').lower()}): ")
    text.append_text(names.joined(view["passing_order"], " → "))
    pending = view["pending"]
    if pending:
        text.append("\nnow: ")
        text.append(_pending_text(pending, names), style=names.style(pending["seat"]))
    return text


def _road(view: dict[str, Any], names: SeatNames) -> RenderableType:
    table = headed_table("space", "building", "owner", "worker", "notes",
                         title=f"{phrase('caylus.ui.road')} ({phrase('caylus.ui.road_hint')})",
                         show_edge=False, pad_edge=False)
    provost, bailiff = view["provost"], view["bailiff"]
    last = max([s["space"] for s in view["road"] if s["building"] is not None] + [provost, bailiff, 9])
    for space in view["road"]:
        number = space["space"]
        if number > last + 1:
            break
        notes = []
        if number == provost:
            notes.append("◆ " + phrase("caylus.ui.provost"))
        if number == bailiff:
            notes.append("▲ " + phrase("caylus.ui.bailiff"))
        if space["mark"]:
            notes.append(phrase("caylus.ui.mark", {"section": phrase(f"caylus.section.{space['mark']}")}))
        if space["becomes_residence_of"] is not None:
            notes.append(phrase("caylus.ui.becomes_residence", {"name": names(space["becomes_residence_of"])}))
        style = KIND_STYLE[space["kind"]] + (" dim" if number > provost else "")
        name = building_name(space["building"]) if space["building"] else "empty " + phrase("caylus.ui.lot")
        table.add_row(str(number), Text(name, style=style), names.styled(space["owner"]),
                      names.styled(space["worker"]), "; ".join(notes))
    return table


def _specials(view: dict[str, Any], names: SeatNames) -> RenderableType:
    table = headed_table("special building", "workers there", "what it does", title=phrase("caylus.ui.specials"),
                         show_edge=False)
    specials = view["specials"]
    for name in SPECIALS:
        if name == "stables":
            workers = names.joined(specials["stables"]) if specials["stables"] else Text("·", style="dim")
        elif name == "inn":
            workers = Text(f"{phrase('caylus.ui.inn_left')} ")
            workers.append_text(names.styled(specials["inn_left"]))
            workers.append(f", {phrase('caylus.ui.inn_right')} ")
            workers.append_text(names.styled(specials["inn_right"]))
        else:
            workers = names.styled(specials[name])
        table.add_row(phrase(f"caylus.special.{name}"), workers, phrase(f"caylus.special_effect.{name}"))
    return table


def _castle(view: dict[str, Any], names: SeatNames) -> RenderableType:
    castle = view["castle"]
    table = headed_table("section", "houses built", *(names(p) for p in range(view["players"])),
                         title=phrase("caylus.special.castle"), show_edge=False)
    for section in castle["sections"]:
        label = phrase(f"caylus.section.{section['name']}") + (
            f" ({phrase('caylus.ui.scored')})" if section["scored"] else
            f" ({phrase('caylus.ui.scored_at', {'n': section['mark']})})")
        table.add_row(label, f"{section['filled']}/{section['size']}", *[str(h) for h in section["houses"]])
    arrivals = Text(phrase("caylus.ui.castle_workers") + " ")
    arrivals.append_text(names.joined(castle["workers"]))
    return Group(table, arrivals)


def _players(view: dict[str, Any], names: SeatNames) -> RenderableType:
    cube_headings = [cube_name(letter) for letter in CUBES]
    table = headed_table("player", "prestige", "deniers", *cube_headings, "workers", "castle houses",
                         "royal favours", title="Players", show_edge=False)
    for player in view["players_state"]:
        used = set(player["favour_rows_used"])
        favours = Text()
        for row in FAVOUR_ROWS:
            if player["favours"][row]:
                if favours:
                    favours.append(", ")
                favours.append(f"{phrase(f'caylus.row.{row}')} {player['favours'][row]}",
                               style="bold" if row in used else "")
        placed = player["workers_placed"]
        table.add_row(names.styled(player["seat"]), str(player["prestige"]), str(player["deniers"]),
                      *_cube_cells(player["cubes"]),
                      f"{player['workers_available']}/{player['workers_available'] + placed}",
                      str(sum(player["houses"])), favours or Text("—", style="dim"))
    return table


def _favour_table(view: dict[str, Any]) -> RenderableType:
    cap = view["favour_cap"]
    title = f"{phrase('caylus.ui.favour_table')} ({phrase('caylus.ui.favour_cap', {'n': cap})})"
    if view.get("options", {}).get("simplified_favours"):
        return Text(f"{phrase('caylus.ui.favour_table')}: {phrase('caylus.ui.simplified')}")
    table = headed_table("row", *(f"column {c}" for c in range(1, 6)), title=title, show_edge=False)
    for row in FAVOUR_ROWS:
        table.add_row(phrase(f"caylus.row.{row}"), *[
            Text(phrase(f"caylus.fav.{row}.{column}"), style="" if column <= cap else "dim")
            for column in range(1, 6)])
    return table


def _stock(view: dict[str, Any]) -> RenderableType:
    """The buildings still to build, by kind, with their cost and prestige."""
    lines = Text()
    for kind in ("wood", "stone", "prestige"):
        tiles = [TILES[TILE_ID[slug]] for slug, count in view["stock"].items()
                 if count and KIND_NAMES[TILES[TILE_ID[slug]].kind] == kind
                 and (slug != "jeweller" or view.get("options", {}).get("jeweller"))]
        lines.append(phrase(f"caylus.kind.{kind}") + ": ", style=f"bold {KIND_STYLE[kind]}")
        entries = []
        for tile in tiles:
            cost = cubes_text(cube_text(tile.cost)) + (" + 1 any cube" if tile.any_cube else "")
            entries.append(f"{building_name(tile.slug)} ({cost}; {tile.prestige} prestige)")
        lines.append("; ".join(entries) or "—")
        lines.append("\n")
    lines.rstrip()
    return Panel(lines, title=phrase("caylus.ui.stock"), expand=False)


def render_view(view: dict[str, Any], seat: int | None, names: SeatNames | None = None) -> RenderableType:
    """The whole board for ``seat`` (None = spectator); the viewer's name is underlined."""
    names = names or SeatNames.numbered(view["players"], seat)
    parts: list[RenderableType] = [_header(view, names), _road(view, names), _specials(view, names),
                                   _castle(view, names), _players(view, names), _favour_table(view), _stock(view)]
    if view.get("winners") is not None:
        final = Text(phrase("caylus.ui.final") + ": ", style="bold")
        final.append(", ".join(f"{names(s)} {score}" for s, score in enumerate(view["final_scores"])))
        final.append("   winner: " + ", ".join(names(s) for s in view["winners"]), style="bold green")
        parts.append(final)
    return Panel(Group(*parts), title="Caylus", expand=False)
