"""The terminal tells each game's log and actions in the web's English sentences (read from the same
i18n files), for every event and action real games produce."""

from __future__ import annotations

import re
from typing import Any

import pytest

from meeple.bots import make_bot
from meeple.core.contract import GameState
from meeple.core.registry import load_game
from meeple.server.i18n import load_messages
from meeple.terminal import LogBook, SeatNames, screen_for
from meeple.terminal.common import phrase, phrase_or_none

GAMES = ("citadels", "caylus", "burgundy", "palais_royal")
NAMES = SeatNames(["Player 1", "Bot 2", "Bot 3"], me=0)


def _played(game: str, seed: int, steps: int | None = None) -> tuple[GameState[Any], list[tuple[Any, dict[str, Any]]]]:
    """A 3-player game of medium bots, and every (action, view of the seat on turn) on the way."""
    state = load_game(game).new_game(players=3, seed=seed)
    bots = [make_bot("medium", seed=f"{seed}:{seat}") for seat in range(3)]
    decisions = []
    while not state.is_over and (steps is None or len(decisions) < steps):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        for action in state.legal_actions():
            decisions.append((action, view))
        state.apply(bots[seat].choose(state))
    return state, decisions


def test_texts_come_from_the_web_english_files() -> None:
    english = load_messages("en")
    assert phrase("citadels.event.kill", {"seat": "Bot 2", "character": "King"}) == "Bot 2 murders the King."
    assert phrase("caylus.b.n_forest") == english["caylus.b.n_forest"] == "Forest"
    assert phrase_or_none("no.such.key") is None
    assert phrase("no.such.key") == "no.such.key"
    assert phrase("citadels.event.kill", {"seat": "Bot 2"}) == "Bot 2 murders the {character}."  # as common.js


def test_a_murder_reads_like_the_web_log() -> None:
    text = screen_for("citadels").event_text({"event": "kill", "seat": 1, "character": "king"}, NAMES)
    assert text == "Bot 2 murders the King."
    discards = screen_for("citadels").event_text({"event": "face_up_discards", "characters": ["king", "bishop"]},
                                                 NAMES)
    assert discards == "Discarded face up: King, Bishop."


@pytest.mark.parametrize("game", GAMES)
def test_every_logged_event_is_a_filled_sentence(game: str) -> None:
    events = 0
    for seed in (1, 2):
        state, _ = _played(game, seed)
        screen = screen_for(game)
        for seat in range(3):
            public, private = LogBook(screen, NAMES).everything(state.view(seat))
            for sentence in public + private:
                events += 1
                assert not re.search(r"\{\w+\}", sentence), sentence  # every placeholder filled
                assert "event" not in sentence and "=" not in sentence, sentence
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", sentence), sentence  # no slugs such as n_forest
    assert events > 50


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_has_words(game: str) -> None:
    _, decisions = _played(game, 3, steps=400)
    screen = screen_for(game)
    for action, view in decisions:
        label = screen.action_label(str(action), view, NAMES)
        assert label != str(action) and not re.search(r"\{\w+\}", label), (action, label)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", label), label


def test_the_log_book_gives_each_sentence_once() -> None:
    state = load_game("citadels").new_game(players=3, seed=5)
    book = LogBook(screen_for("citadels"), NAMES)
    first, _ = book.unseen(state.view(0))
    assert first == ["Round 1 begins; Player 1 has the crown."]
    assert book.unseen(state.view(0)) == ([], [])
    state.apply(state.legal_actions()[0])
    public, private = book.unseen(state.view(0))
    assert public == ["Player 1 picks a character."]
    assert len(private) == 1 and private[0].startswith("You picked the ")
