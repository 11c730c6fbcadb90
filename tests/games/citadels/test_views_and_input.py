"""Hidden information (§6), the notation (§7) and refused input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from meeple import IllegalAction, InvalidState, load_game
from meeple.games.citadels.actions import ALL_ACTIONS, action_from_notation
from meeple.games.citadels.data import CHARACTER_INDEX
from meeple.games.citadels.state import P_PICK, CitadelsState
from tests.games.citadels.helpers import legal, new_state, play, set_table, start_action_phase


def test_every_action_is_interned_and_its_str_is_the_notation() -> None:
    for notation, action in ALL_ACTIONS.items():
        assert str(action) == notation and action_from_notation(notation) is action
        with pytest.raises(AttributeError):
            action.kind = 3


def test_offered_sets_are_in_the_private_log_only() -> None:
    s = new_state(4)
    offer = s.view(0)["pending"]["offered"]
    assert len(offer) == 5
    play(s, legal(s)[0])
    assert {"event": "picked", "seat": 0, "offered": offer, "character": offer[0]} in s.view(0)["private_log"]
    for seat in (1, 2, 3, None):
        text = json.dumps(s.view(seat)["private_log"])
        assert '"seat": 0' not in text
    assert "offered" not in s.view(2)["pending"] and s.view(2)["pending"]["offered_count"] == 4
    assert s.view(1)["pending"]["offered"] == [str(a).split(":")[1] for a in s.legal_actions()]


def test_last_picker_sees_the_leftover_face_down_card() -> None:
    s = new_state(4)
    while s.phase == P_PICK:
        play(s, legal(s)[0])
    assert len(s.view(3)["characters"]["face_down_seen"]) == 1
    assert s.view(0)["characters"]["face_down_seen"] == []
    assert s.view(None)["characters"]["face_down_count"] == 2


def test_drawn_cards_and_swaps_are_private() -> None:
    s = new_state(4)
    set_table(s, hands={0: ["temple"], 2: ["palace", "docks"]}, deck=["manor", "castle", "tavern"])
    start_action_phase(s, {"magician": 0, "king": 1, "bishop": 2, "warlord": 3}, from_character="magician")
    play(s, "swap:2", "draw")
    mine = s.view(0)
    assert mine["pending"]["drawn"] == ["manor", "castle"]
    assert "drawn" not in s.view(1)["pending"] and s.view(1)["pending"]["drawn_count"] == 2
    assert {"event": "swapped_hands", "seat": 0, "with": 2, "gave": ["temple"], "got": ["palace", "docks"]} in (
        mine["private_log"])
    assert {"event": "swapped_hands", "seat": 2, "with": 0, "gave": ["palace", "docks"], "got": ["temple"]} in (
        s.view(2)["private_log"])
    public = json.dumps(s.view(1))
    assert "palace" not in public and "manor" not in public
    play(s, "keep:castle")
    assert {"event": "kept_cards", "seat": 0, "kept": ["castle"], "bottom": ["manor"]} in s.view(0)["private_log"]
    assert {"event": "keep", "seat": 0, "kept_count": 1, "bottom_count": 1} in s.view(3)["log"]


def test_views_never_hold_the_rng_or_the_deck_and_reveal_all_at_game_end() -> None:
    s = new_state(5, seed=11)
    rng = random.Random(3)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    for seat in (*range(5), None):
        view = s.view(seat)
        assert s.rng.to_json() not in json.dumps(view)
        final = view["final"]
        assert len(final["hands"]) == 5 and all(final["characters"])
        assert final["winners"] == s.winners() and final["scores"] == s.scores()
    assert s.view(None)["hand"] is None and s.view(None)["private_log"] == []


def test_a_seat_never_sees_another_seats_characters_before_they_are_revealed() -> None:
    s = new_state(6, seed=4)
    while s.phase == P_PICK:
        play(s, legal(s)[-1])
    for seat in range(6):
        assert len(s.view(seat)["characters"]["mine"]) == 1
        revealed = s.view(seat)["characters"]["revealed"]
        assert all(s.holder[CHARACTER_INDEX[c]] == t for c, t in revealed.items())


def test_wrong_notation_and_wrong_moment_are_refused_without_change() -> None:
    s = new_state(4)
    before = s.to_json()
    for bad in ("pick:jester", "gold", "graveyard:take", "PICK:KING", "pick:king ", "destroy:9:market", ""):
        if bad in legal(s):
            continue
        with pytest.raises(IllegalAction, match="not a legal action for seat 0"):
            s.apply(bad)
    with pytest.raises(IllegalAction):
        s.apply(action_from_notation("end"))
    assert s.to_json() == before


def test_finished_game_refuses_everything() -> None:
    s = new_state(4, {"max_rounds": 1})
    while not s.is_over:
        s.apply(s.legal_actions()[-1])
    with pytest.raises(IllegalAction, match="over"):
        s.apply("end")
    with pytest.raises(IllegalAction, match="over"):
        s.apply(action_from_notation("gold"))


def _saved() -> dict[str, Any]:
    s = new_state(4, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    data: dict[str, Any] = json.loads(json.dumps(s.to_json()))
    return data


@pytest.mark.parametrize("mutate", [
    lambda b: b.update(deck=b["deck"][1:]),                 # a card lost
    lambda b: b["hands"][0].append(3),                      # a card too many
    lambda b: b.update(gold=[2, 2, 2]),                     # wrong seat count
    lambda b: b.update(gold=[-1, 2, 2, 2]),                 # negative gold
    lambda b: b.update(holder=[0] * 8),                     # characters not conserved
    lambda b: b.update(phase=9),
    lambda b: b.update(cur="0"),
    lambda b: b.update(gathered=1),
    lambda b: b.update(log=[[0, 99]]),
    lambda b: b.update(log=[[-1, 0, "x", 0]]),
    lambda b: b.pop("deck"),
    lambda b: b.update(steps=[[0, 1]]),
    lambda b: b["cities"][0].extend([3, 3]),
])
def test_malformed_saved_states_are_refused(mutate: object) -> None:
    data = _saved()
    body = data["body"]
    assert isinstance(body, dict)
    mutate(body)  # type: ignore[operator]
    with pytest.raises(InvalidState):
        load_game("citadels").from_json(data)


def test_saved_state_round_trip_is_exact() -> None:
    data = _saved()
    restored = load_game("citadels").from_json(data)
    assert isinstance(restored, CitadelsState)
    assert json.loads(json.dumps(restored.to_json())) == data


def test_determinize_resamples_unseen_characters_consistently_with_the_draft() -> None:
    """§6: seat 2 saw the pool handed to it; the seats before it hold characters outside that pool."""
    s = new_state(5, seed=21)
    offered: list[int] = []
    while s.phase == P_PICK:
        if s.current_player == 2:
            offered = list(s.pool)
        play(s, legal(s)[0])
    holders = set()
    for k in range(25):
        sampled = s.determinize(2, k)
        assert sampled.view(2) == s.view(2)
        holds = tuple(sampled.holder)
        holders.add(holds)
        for seat in (0, 1):  # picked before seat 2: never from the pool seat 2 saw
            assert not {c for c in range(8) if sampled.holder[c] == seat} & set(offered)
        for seat in (3, 4):  # picked after seat 2: from what it passed on
            assert {c for c in range(8) if sampled.holder[c] == seat} <= set(offered)
        assert sampled.faceup == s.faceup and sampled.holder.count(-1) == s.holder.count(-1)
    assert len(holders) > 1


def test_determinize_is_canonical_and_replaces_the_rng() -> None:
    s = new_state(3, seed=8)
    rng = random.Random(8)
    for _ in range(30):
        s.apply(rng.choice(s.legal_actions()))
    for seat in (0, 1, 2, None):
        a = s.determinize(seat, 99)
        b = s.determinize(seat, 5).determinize(seat, 99)
        assert a.to_json() == b.to_json() and a.rng != s.rng


def test_a_clone_played_apart_shows_its_own_log() -> None:
    """A clone taken after a view and played along another line shows its own log, even where its last
    entry is the very (shared) entry the original's last view ended with."""
    game = load_game("citadels")
    compared = 0
    for seed in range(80, 140):
        original = game.new_game(players=4, seed=seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(5, 60)):
            original.apply(chooser.choice(original.legal_actions()))
        original.view(0)
        clone = original.clone()
        for _ in range(chooser.randrange(1, 30)):
            if not original.is_over:
                original.apply(chooser.choice(original.legal_actions()))
        original.view(0)
        while not clone.is_over and len(clone.log) < len(original.log):
            clone.apply(chooser.choice(clone.legal_actions()))
        if len(clone.log) == len(original.log) and clone.log[-1] is original.log[-1] and clone.log != original.log:
            compared += 1
            assert clone.view(0) == game.from_json(clone.to_json()).view(0)
    assert compared >= 2
