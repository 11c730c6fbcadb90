"""Rich rendering of a Citadels view: your hand and gold, every city in district colours, the crown,
the characters (face-up discards, revealed holders, your own), the round and phase, the log tail."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.games.citadels.data import (
    CHARACTER_INDEX,
    CHARACTER_NAMES,
    DISTRICT_INDEX,
    DISTRICT_NAMES,
    DISTRICT_TYPE,
    TYPE_COLOURS,
    printed_costs,
)

_STYLE = {"yellow": "bold yellow", "blue": "bold blue", "green": "bold green", "red": "bold red",
          "purple": "bold magenta"}
LOG_TAIL = 12


def district_text(slug: str, observatory_cost: int = 4) -> Text:
    """A district as 'Castle 4' (name and cost) in its type's colour."""
    kind = DISTRICT_INDEX[slug]
    colour = TYPE_COLOURS[DISTRICT_TYPE[kind]]
    return Text(f"{DISTRICT_NAMES[kind]} {printed_costs(observatory_cost)[kind]}", style=_STYLE[colour])


def _districts(slugs: list[str], observatory_cost: int) -> Text:
    text = Text()
    for i, slug in enumerate(slugs):
        if i:
            text.append(" · ")
        text.append_text(district_text(slug, observatory_cost))
    return text or Text("—", style="dim")


def _character(slug: str) -> str:
    index = CHARACTER_INDEX[slug]
    return f"{index + 1} {CHARACTER_NAMES[index]}"


def _event_text(event: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "event")
    return f"{event['event']}({fields})"


def render_view(view: dict[str, Any], seat: int | None) -> RenderableType:
    """Draw exactly what ``state.view(seat)`` holds."""
    pending = view.get("pending") or {}
    observatory_cost = int(view.get("options", {}).get("observatory_cost", 4))
    header = Text()
    header.append(f"Citadels — round {view['round']}, {view['phase']}", style="bold")
    header.append(f"   deck {view['deck_count']}   cities complete at {view['complete_at']}")
    if view.get("current_player") is not None:
        header.append(f"   to play: seat {view['current_player']}", style="bold cyan")
        if pending:
            header.append(f" ({pending['kind']}")
            if "character" in pending:
                header.append(f", {_character(pending['character'])}")
            header.append(")")

    table = Table(expand=True, show_lines=False)
    table.add_column("seat", justify="right")
    table.add_column("gold", justify="right")
    table.add_column("hand", justify="right")
    table.add_column("city")
    table.add_column("characters")
    table.add_column("score", justify="right")
    for info in view["seats"]:
        name = Text(str(info["seat"]))
        if info["crown"]:
            name.append(" ♛", style="bold yellow")
        if info["seat"] == seat:
            name.stylize("reverse")
        shown = ", ".join(_character(c) for c in info["revealed_characters"])
        city = _districts(info["city"], observatory_cost)
        if info["complete"]:
            city.append("  ✔ complete", style="bold")
        table.add_row(name, str(info["gold"]), str(info["hand_count"]), city, shown, str(info["score"]))

    characters = view["characters"]
    chars = Text()
    chars.append("face up: ")
    chars.append(", ".join(_character(c) for c in characters["face_up"]) or "—")
    chars.append(f"   face down: {characters['face_down_count']}")
    if characters["face_down_seen"]:
        chars.append(" (seen: " + ", ".join(_character(c) for c in characters["face_down_seen"]) + ")")
    if characters["murdered"]:
        chars.append(f"   murdered: {_character(characters['murdered'])}", style="red")
    if characters["robbed"]:
        chars.append(f"   robbed: {_character(characters['robbed'])}", style="yellow")

    parts: list[RenderableType] = [header, table, chars]
    if seat is not None:
        mine = Text("your characters: ")
        mine.append(", ".join(_character(c) for c in characters["mine"]) or "—", style="bold")
        parts.append(mine)
        hand = Text("your hand: ")
        hand.append_text(_districts(view["hand"] or [], observatory_cost))
        parts.append(hand)
    extra = [
        f"{key}: {', '.join(value) if isinstance(value, list) else value}"
        for key, value in pending.items()
        if key in ("offered", "drawn", "marked", "card")
    ]
    if extra:
        parts.append(Text("   ".join(extra), style="cyan"))
    final = view.get("final")
    if final:
        result = Text("final scores: " + ", ".join(f"seat {s}: {p}" for s, p in enumerate(final["scores"])))
        result.append(f"   winner(s): {', '.join(map(str, final['winners']))}", style="bold green")
        parts.append(result)
    log = [_event_text(e) for e in view["log"][-LOG_TAIL:]]
    private = [_event_text(e) for e in view["private_log"][-4:]]
    parts.append(Panel("\n".join(log) or "—", title="log", title_align="left"))
    if private:
        parts.append(Panel("\n".join(private), title="your private log", title_align="left"))
    return Panel(Group(*parts), title="Citadels", border_style="magenta")
