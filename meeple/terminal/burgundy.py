"""Rich rendering of a Castles of Burgundy view: hex estates, storages, depots and the pending decision.

It draws only what ``state.view(seat)`` holds, so the terminal shows exactly what that seat may know.
"""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

ROW_LENGTHS = (4, 5, 6, 7, 6, 5, 4)
DIE = "6543216545431236126541254312612563413"
CELL = 7
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
SEAT_STYLE = ("bold red", "bold blue", "bold green", "bold magenta")


SHORT = {"warehouse": "wareh", "watchtower": "watch", "carpenter": "carpen", "boarding": "board",
         "cityhall": "cityh", "chicken": "chick"}


def _short(tile: str) -> str:
    """A tile code that fits one hex cell: 'bank', 'cow3', 'K05', 'S'."""
    if tile.startswith("B."):
        return SHORT.get(tile[2:], tile[2:])
    if tile.startswith("A."):
        return SHORT.get(tile[2:-1], tile[2:-1]) + tile[-1]
    return tile


def _goods(goods: list[int] | dict[str, int]) -> Text:
    text = Text()
    items = [(int(g), c) for g, c in goods.items()] if isinstance(goods, dict) else [(g, 1) for g in goods]
    for g, count in items:
        for _ in range(count):
            text.append(f"{g}", style=GOODS_STYLE.get(g, ""))
            text.append(" ")
    return text if items else Text("–", style="dim")


def _estate(player: dict[str, Any]) -> Text:
    """The 37-space hex map: colour = space type, number = die value, label = the placed tile."""
    types = player.get("board_types")
    text = Text()
    if not types:
        return Text("(no board chosen yet)", style="dim")
    estate = player.get("estate", {})
    space = 1
    for length in ROW_LENGTHS:
        text.append(" " * ((7 - length) * CELL // 2))
        for _ in range(length):
            kind = types[space - 1]
            tile = estate.get(str(space))
            label = _short(tile) if tile else f"{kind}{DIE[space - 1]}"
            cell = f"{label:^{CELL - 1}}"
            style = TYPE_STYLE[kind] + (" bold" if tile else " dim")
            text.append(cell, style=style)
            text.append(" ")
            space += 1
        text.append("\n")
    text.append("(empty: type+die; occupied: tile)", style="dim")
    return text


def _player_panel(player: dict[str, Any], view: dict[str, Any]) -> Panel:
    seat = player["seat"]
    info = Table.grid(padding=(0, 1))
    info.add_column(style="bold")
    info.add_column()
    info.add_row("VP", str(player["vp"]))
    info.add_row("Silverlings", str(player["silverlings"]))
    info.add_row("Workers", str(player["workers"]))
    info.add_row("Dice", " ".join(str(d) for d in player["dice"] if d) or "–")
    info.add_row("Goods", _goods(player["goods"]))
    info.add_row("Sold", _goods(player["sold"]))
    storage = Text()
    for tile in player["storage"]:
        storage.append(f" {tile} ", style=TYPE_STYLE.get(tile[0], ""))
        storage.append(" ")
    info.add_row("Storage", storage if player["storage"] else Text("–", style="dim"))
    info.add_row("Knowledge", " ".join(player["knowledge"]) or "–")
    info.add_row("Bonus tiles", " ".join(player["bonus_tiles"]) or "–")
    info.add_row("Track", f"pos {player['track']['position']}")
    empty = player["empty_spaces"]
    info.add_row("Empty spaces", "?" if empty is None else str(empty))
    marker = " ◀ to play" if view.get("current_player") == seat else ""
    title = Text(f"Seat {seat} · board {player['board'] or '?'}{marker}", style=SEAT_STYLE[seat % 4])
    return Panel(Group(_estate(player), info), title=title, expand=False)


def _main_board(view: dict[str, Any]) -> Panel:
    depots = Table(title="Depots", show_lines=False, expand=False)
    depots.add_column("#", justify="right")
    depots.add_column("tiles")
    depots.add_column("goods")
    for d in range(1, 7):
        tiles = Text()
        for tile in view["depots"][str(d)]:
            tiles.append(f" {tile} ", style=TYPE_STYLE.get(tile[0], ""))
            tiles.append(" ")
        depots.add_row(str(d), tiles, _goods(view["depot_goods"][str(d)]))
    black = Text()
    for tile in view["depots"]["0"]:
        black.append(f" {tile} ", style=TYPE_STYLE.get(tile[0], ""))
        black.append(" ")
    depots.add_row("black", black, "")
    status = Table.grid(padding=(0, 1))
    status.add_column(style="bold")
    status.add_column()
    status.add_row("Phase / round", f"{view['phase']} / {view['round']}")
    status.add_row("Round goods", _goods(view["round_goods"]))
    status.add_row("White die", str(view["white_die"]))
    status.add_row("Round order", " → ".join(str(s) for s in view["round_order"]))
    status.add_row("Track order", " → ".join(str(s) for s in view["track_order"]))
    status.add_row("Scores", "  ".join(f"{s}:{v}" for s, v in enumerate(view["scores"])))
    bonus = " ".join(
        f"{t}:{'L' + str(b['large']) if b['large'] is not None else 'L-'}/"
        f"{'S' + str(b['small']) if b['small'] is not None else 'S-'}"
        for t, b in view["bonus_tiles"].items()
    )
    status.add_row("Bonus tiles", bonus)
    piles = " ".join(f"{t}{c}" for t, c in view["white_piles"].items())
    status.add_row("Piles", f"{piles}  black {view['black_pile']}")
    turn = view.get("turn")
    if turn:
        status.add_row("Turn", f"seat {turn['seat']}, dice left {turn['dice_left']}, bought {turn['bought']}")
    pending = view.get("pending")
    if pending:
        details = ", ".join(f"{k}={v}" for k, v in pending.items() if k not in ("kind", "seat", "stack"))
        status.add_row("Decision", Text(f"seat {pending['seat']}: {pending['kind']} {details}", style="bold yellow"))
    if view.get("is_over"):
        status.add_row("Game over", Text(f"winners {view['winners']}", style="bold green"))
    return Panel(Columns([depots, status]), title="Main board", expand=False)


def _log(view: dict[str, Any]) -> Panel:
    lines = Text()
    for event in view["log"][-8:]:
        lines.append(", ".join(f"{k}={v}" for k, v in event.items()) + "\n")
    return Panel(lines, title="Recent events", expand=False)


def render_view(view: dict[str, Any], seat: int | None) -> RenderableType:
    players = [_player_panel(p, view) for p in view["players"]]
    return Group(_main_board(view), Columns(players), _log(view))
