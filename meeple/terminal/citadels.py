"""Rich rendering of a Citadels view: your hand and gold, every city in district colours, the crown,
the characters (face-up discards, revealed holders, your own), the round and whose turn it is; and the
log and the actions in the web's English sentences."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.games.citadels.data import (
    CHARACTER_INDEX,
    DISTRICT_INDEX,
    DISTRICT_TYPE,
    TYPE_COLOURS,
    printed_costs,
)
from meeple.terminal.common import SeatNames, headed_table, name_or_code, phrase, phrase_or_none, plain

_STYLE = {"yellow": "bold yellow", "blue": "bold blue", "green": "bold green", "red": "bold red",
          "purple": "bold magenta"}
#: Event fields that hold a seat, and those that hold district cards (as the web's citadels.js).
SEAT_FIELDS = frozenset({"seat", "crown", "thief", "target", "with"})
CARD_FIELDS = frozenset({"card", "cards", "kept", "bottom", "gave", "got", "discarded", "drawn"})
#: What the seat on turn is deciding, by the view's ``pending.kind``.
DECIDING = {"pick": "picks a character", "discard": "discards a character face down", "turn": "plays",
            "keep": "keeps drawn cards", "redraw": "marks cards to redraw", "graveyard": "decides on the Graveyard"}


def character_name(slug: str) -> str:
    return name_or_code("citadels.char.", slug)


def district_name(slug: str) -> str:
    return name_or_code("citadels.district.", slug)


def district_text(slug: str, observatory_cost: int = 4) -> Text:
    """A district as 'Castle 4' (name and cost) in its type's colour."""
    kind = DISTRICT_INDEX[slug]
    colour = TYPE_COLOURS[DISTRICT_TYPE[kind]]
    return Text(f"{district_name(slug)} {printed_costs(observatory_cost)[kind]}", style=_STYLE[colour])


def _districts(slugs: list[str], observatory_cost: int) -> Text:
    text = Text()
    for i, slug in enumerate(slugs):
        if i:
            text.append(" · ")
        text.append_text(district_text(slug, observatory_cost))
    return text or Text("—", style="dim")


def _character(slug: str) -> str:
    """'4 King': rank and name, as the cards are numbered."""
    return f"{CHARACTER_INDEX[slug] + 1} {character_name(slug)}"


def _cards(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(district_name(slug) for slug in value) or "—"
    return district_name(str(value))


def event_text(event: Mapping[str, Any], names: SeatNames) -> str:
    """One log event as the web's sentence ("Bot 2 murders the King.")."""
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key == "event":
            continue
        if key in SEAT_FIELDS and isinstance(value, int):
            params[key] = names(value)
        elif key == "character":
            params[key] = character_name(value)
        elif key in ("characters", "offered"):
            params[key] = ", ".join(character_name(slug) for slug in value)
        elif key in CARD_FIELDS:
            params[key] = _cards(value)
        else:
            params[key] = value
    return phrase_or_none(f"citadels.event.{event['event']}", params) or f"{event['event']} {plain(params)}"


def action_label(notation: str, view: Mapping[str, Any], names: SeatNames) -> str:
    """A notation in words, e.g. "build:castle" -> "Build Castle" (the web's labels)."""
    kind, _, rest = notation.partition(":")
    first, _, second = rest.partition(":")
    if kind in ("pick", "discard", "kill", "rob"):
        return phrase(f"citadels.action.{kind}", {"character": character_name(first)})
    if kind in ("keep", "build", "lab"):
        return phrase(f"citadels.action.{kind}", {"card": district_name(first)})
    if kind == "redraw":
        return phrase("citadels.action.redraw_done") if first == "done" else phrase(
            "citadels.action.redraw", {"card": district_name(first)})
    if kind == "swap":
        return phrase("citadels.action.swap", {"name": names(int(first))})
    if kind == "destroy":
        return phrase("citadels.action.destroy", {"name": names(int(first)), "card": district_name(second)})
    if kind == "graveyard":
        return phrase(f"citadels.action.graveyard_{first}")
    return phrase_or_none(f"citadels.action.{kind}") or notation


def _header(view: dict[str, Any], names: SeatNames) -> Text:
    pending = view.get("pending") or {}
    header = Text()
    phase = phrase_or_none(f"citadels.phase.{view['phase']}") or view["phase"]
    header.append(f"Citadels — round {view['round']}, {phase}", style="bold")
    header.append(f"   deck {view['deck_count']}   cities complete at {view['complete_at']} districts")
    if view.get("current_player") is not None:
        header.append("   now: ")
        header.append_text(names.styled(view["current_player"]))
        if pending:
            header.append(f" {DECIDING.get(pending['kind'], pending['kind'])}")
            if "character" in pending:
                header.append(f" the {character_name(pending['character'])}")
    return header


def _cities(view: dict[str, Any], seat: int | None, names: SeatNames, observatory_cost: int) -> Table:
    table = headed_table("player", "gold", "cards in hand", "city", "characters shown", "points",
                         expand=True, show_lines=False)
    for info in view["seats"]:
        name = names.styled(info["seat"])
        if info["crown"]:
            name.append(" ♛", style="bold yellow")
        city = _districts(info["city"], observatory_cost)
        if info["complete"]:
            city.append("  ✔ complete", style="bold")
        shown = ", ".join(_character(c) for c in info["revealed_characters"])
        table.add_row(name, str(info["gold"]), str(info["hand_count"]), city, shown, str(info["score"]))
    return table


def _characters(characters: dict[str, Any]) -> Text:
    chars = Text()
    chars.append("face up: ")
    chars.append(", ".join(_character(c) for c in characters["face_up"]) or "—")
    chars.append(f"   face down: {characters['face_down_count']}")
    if characters["face_down_seen"]:
        chars.append(" (you saw: " + ", ".join(_character(c) for c in characters["face_down_seen"]) + ")")
    if characters["murdered"]:
        chars.append(f"   murdered: {_character(characters['murdered'])}", style="red")
    if characters["robbed"]:
        chars.append(f"   robbed: {_character(characters['robbed'])}", style="yellow")
    return chars


def render_view(view: dict[str, Any], seat: int | None, names: SeatNames | None = None) -> RenderableType:
    """Draw exactly what ``state.view(seat)`` holds."""
    names = names or SeatNames.numbered(len(view["seats"]), seat)
    pending = view.get("pending") or {}
    observatory_cost = int(view.get("options", {}).get("observatory_cost", 4))
    characters = view["characters"]
    parts: list[RenderableType] = [_header(view, names), _cities(view, seat, names, observatory_cost),
                                   _characters(characters)]
    if seat is not None:
        mine = Text("your characters: ")
        mine.append(", ".join(_character(c) for c in characters["mine"]) or "—", style="bold")
        parts.append(mine)
        hand = Text("your hand: ")
        hand.append_text(_districts(view["hand"] or [], observatory_cost))
        parts.append(hand)
    if pending.get("offered"):
        parts.append(Text("characters passed to you: " + ", ".join(_character(c) for c in pending["offered"]),
                          style="cyan"))
    for key, label in (("drawn", "drawn cards"), ("marked", "marked to redraw"), ("card", "destroyed card")):
        if pending.get(key):
            parts.append(Text(f"{label}: {_cards(pending[key])}", style="cyan"))
    final = view.get("final")
    if final:
        result = Text("final scores: ")
        result.append(", ".join(f"{names(s)} {p}" for s, p in enumerate(final["scores"])))
        result.append("   winner: " + ", ".join(names(s) for s in final["winners"]), style="bold green")
        parts.append(result)
    return Panel(Group(*parts), title="Citadels", border_style="magenta")
