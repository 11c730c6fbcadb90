"""The engine's hints beside the legal actions: Burgundy's worker cost of a die action and the benefits a
closing action forgoes are the engine's figures, sent by the server, never computed again in a page.

In seeded random Burgundy games, at every die decision, the hint the server sends for each legal
action (``legal_moves``) equals the workers ``apply`` then charges for it (the public log's
``workers`` of the take, placement or sale made with the die); other decisions carry no worker cost.

In every game, a closing action (``end``, ``pass``, ``skip``...) names the optional benefits still legal
that it would leave unused (``forgoes``), and no other action does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple.core.registry import load_game
from meeple.server.actions import legal_moves

CHARGED = ("take", "place", "sell")


def charged(before: int, state: Any) -> int:
    """The workers the die action just applied cost, from the public log entries it wrote."""
    spent = [entry["workers"] for entry in state.view(None)["log"][before:]
             if entry["event"] in CHARGED and entry.get("by") == "die"]
    assert len(spent) <= 1, spent
    return spent[0] if spent else 0


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_each_die_actions_hint_is_what_apply_charges(players: int, seed: int) -> None:
    state = load_game("burgundy").new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    decisions = costly = 0
    while not state.is_over:
        moves = legal_moves(state)
        pending = state.view(None)["pending"]
        if pending is None or pending.get("kind") != "die":
            assert all("workers" not in hint for hint in moves.get("hints", [])), pending
        else:
            decisions += 1
            hints = moves["hints"]
            assert len(hints) == len(moves["legal"])
            logged = len(state.view(None)["log"])
            for notation, hint in zip(moves["legal"], hints, strict=True):
                after = state.clone()
                after.apply(notation)
                assert hint.get("workers", 0) == charged(logged, after), (notation, hint)
                assert hint.get("workers") != 0, "a free action has no hint"
                costly += bool(hint)
        state.apply(chooser.choice(moves["legal"]))
    assert decisions >= 10 * players and costly > decisions, (decisions, costly)


GAMES = ("citadels", "burgundy", "caylus", "palais_royal")


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_kind_is_an_action_kind_of_the_game_with_a_message(name: str) -> None:
    """A misspelt kind would silently never ask; a benefit without words would show a key."""
    from meeple.server.i18n import load_messages

    game = load_game(name)
    rules = game.optional_benefits
    assert rules is not None
    kinds = {game.action_info(notation).kind for notation in game.action_notations(game.max_players)}
    assert rules.closing <= kinds, rules.closing - kinds
    assert rules.benefits.keys() <= kinds, rules.benefits.keys() - kinds
    for language in ("en", "zh-Hans", "zh-Hant", "ja"):
        words = load_messages(language, fallback=False)
        for benefit in set(rules.benefits.values()):
            assert f"{name}.unused.{benefit}" in words, (language, benefit)


@pytest.mark.parametrize(("name", "players", "seed"), [(g, p, s) for g in GAMES for p, s in ((2, 5), (4, 6))])
def test_a_closing_action_names_exactly_the_benefits_still_legal(
        name: str, players: int, seed: int) -> None:
    state = load_game(name).new_game(players=players, seed=seed)
    rules = state.game.optional_benefits
    assert rules is not None
    chooser = random.Random(seed)
    asked = taken = 0
    while not state.is_over:
        moves = legal_moves(state)
        kinds = [kind for kind, _ in moves["actions"]]
        offered = [rules.benefits[kind] for kind in kinds if kind in rules.benefits]
        hints = moves.get("hints") or [{}] * len(kinds)
        assert len(hints) == len(kinds)
        for kind, hint in zip(kinds, hints, strict=True):
            if kind in rules.closing and offered:
                assert hint["forgoes"] == list(dict.fromkeys(offered)), (kind, hint)
                asked += 1
            else:
                assert "forgoes" not in hint, (kind, hint)
        benefit_moves = [i for i, kind in enumerate(kinds) if kind in rules.benefits]
        if benefit_moves and any(kind in rules.closing for kind in kinds) and chooser.random() < 0.5:
            index = chooser.choice(benefit_moves)
            taken += 1
        else:
            index = chooser.randrange(len(kinds))
        state.apply(moves["legal"][index])
    assert asked > 0 and taken > 0, (asked, taken)
