"""Rich renderings of a seat's view for the terminal; one module per game, a generic fallback.

A game's module (``meeple.terminal.<game>``) gives ``render_view(view, seat, names)`` and, to tell its
log in sentences and its actions in words, ``event_text(event, names)`` and ``action_label(notation,
view, names)``; it may name events the log leaves out (``HIDDEN_EVENTS``, as the web does).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from meeple.terminal.common import SeatNames, plain

ViewRenderer = Callable[[dict[str, Any], int | None, SeatNames], RenderableType]
EventWriter = Callable[[Mapping[str, Any], SeatNames], str]
ActionNamer = Callable[[str, Mapping[str, Any], SeatNames], str]


def generic_render(view: dict[str, Any], seat: int | None, names: SeatNames) -> RenderableType:
    """Fallback for a game without its own renderer: the view as a tree."""
    return Pretty(view, expand_all=False)


def generic_event_text(event: Mapping[str, Any], names: SeatNames) -> str:
    """Fallback sentence: the acting seat's name, the event and its fields."""
    who = f"{names(event['seat'])}: " if isinstance(event.get("seat"), int) else ""
    fields = ", ".join(f"{key} {plain(value)}" for key, value in event.items() if key not in ("event", "seat"))
    return f"{who}{event.get('event', '?')}" + (f" ({fields})" if fields else "")


def generic_action_label(notation: str, view: Mapping[str, Any], names: SeatNames) -> str:
    return notation


@dataclass(frozen=True)
class Screen:
    """How one game is drawn and told in the terminal."""

    render_view: ViewRenderer = generic_render
    event_text: EventWriter = generic_event_text
    action_label: ActionNamer = generic_action_label
    hidden_events: frozenset[str] = field(default_factory=frozenset)


def screen_for(game_name: str) -> Screen:
    """The game's terminal module's pieces, each falling back to the generic one."""
    try:
        module = importlib.import_module(f"meeple.terminal.{game_name}")
    except ModuleNotFoundError:
        return Screen()
    return Screen(
        render_view=getattr(module, "render_view", generic_render),
        event_text=getattr(module, "event_text", generic_event_text),
        action_label=getattr(module, "action_label", generic_action_label),
        hidden_events=frozenset(getattr(module, "HIDDEN_EVENTS", ())),
    )


def renderer_for(game_name: str) -> ViewRenderer:
    return screen_for(game_name).render_view


class LogBook:
    """One seat's log as sentences, remembering how much of it the player has been shown, so a turn can
    begin with exactly what happened since the player's previous decision."""

    def __init__(self, screen: Screen, names: SeatNames) -> None:
        self.screen = screen
        self.names = names
        self.shown_public = 0
        self.shown_private = 0

    def _sentences(self, events: list[dict[str, Any]]) -> list[str]:
        return [self.screen.event_text(event, self.names) for event in events
                if event.get("event") not in self.screen.hidden_events]

    def everything(self, view: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """The whole public log and the whole private log (what only this seat saw), oldest first."""
        return self._sentences(view.get("log") or []), self._sentences(view.get("private_log") or [])

    def unseen(self, view: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """The public and private sentences not shown yet; they count as shown from now on."""
        public: list[dict[str, Any]] = view.get("log") or []
        private: list[dict[str, Any]] = view.get("private_log") or []
        new = self._sentences(public[self.shown_public:]), self._sentences(private[self.shown_private:])
        self.shown_public, self.shown_private = len(public), len(private)
        return new


__all__ = ["LogBook", "Screen", "SeatNames", "generic_render", "renderer_for", "screen_for"]
