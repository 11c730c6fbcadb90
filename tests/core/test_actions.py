"""The shared interned-action base: one object per action, whatever copies or pickles it."""

from __future__ import annotations

import copy
import pickle

import pytest

from meeple.core.actions import InternedAction
from meeple.games.burgundy.actions import ALL_ACTIONS as BURGUNDY_ACTIONS
from meeple.games.caylus.actions import ACTIONS as CAYLUS_ACTIONS
from meeple.games.citadels.actions import ALL_ACTIONS as CITADELS_ACTIONS
from meeple.games.palais_royal.actions import all_actions as palais_royal_actions

EVERY_GAME_ACTIONS = [list(BURGUNDY_ACTIONS.values()), list(CAYLUS_ACTIONS.values()), list(CITADELS_ACTIONS.values()),
                      palais_royal_actions()]
GAME_IDS = ["burgundy", "caylus", "citadels", "palais_royal"]


@pytest.mark.parametrize("actions", EVERY_GAME_ACTIONS, ids=GAME_IDS)
def test_copies_and_pickles_are_the_same_object(actions: list[InternedAction]) -> None:
    assert len({a.notation for a in actions}) == len(actions)  # one object per notation
    for action in actions:
        assert isinstance(action, InternedAction)
        assert copy.copy(action) is action and copy.deepcopy(action) is action
        assert pickle.loads(pickle.dumps(action)) is action
        assert type(action).from_notation(action.notation) is action
        assert str(action) == action.notation
        assert eval(repr(action), {type(action).__name__: type(action)}) is action


@pytest.mark.parametrize("actions", EVERY_GAME_ACTIONS, ids=GAME_IDS)
def test_actions_cannot_be_changed(actions: list[InternedAction]) -> None:
    action = actions[len(actions) // 2]
    before = (action.kind, action.a, action.b, action.notation)
    for field in ("kind", "a", "b", "notation", "anything"):
        with pytest.raises(AttributeError):
            setattr(action, field, 1)
    assert (action.kind, action.a, action.b, action.notation) == before


def test_unknown_notation_is_refused() -> None:
    for cls in (type(actions[0]) for actions in EVERY_GAME_ACTIONS):
        with pytest.raises((KeyError, ValueError)):
            cls.from_notation("no-such-action")
