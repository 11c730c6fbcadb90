"""The one event type and the one redaction rule (meeple/core/events.py), over every installed game.

Seeded random games at every player count (and under every preset): every entry of every seat's and the
spectator's view log is an ``Event``; an entry private to seat s names s and is in no other view; the
spectator's log is the public entries; seat s's view holds exactly the public entries and its own, in
the order they happened (each view's logs only grow, earlier entries unchanged).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple import game_names, load_game
from meeple.core.events import PUBLIC, check_event, event_problem, redacted, view_logs, visible_to

GAMES = game_names()
PLAYER_COUNTS = [
    (name, n) for name in GAMES for n in range(load_game(name).min_players, load_game(name).max_players + 1)
]
PRESETS = [(name, preset) for name in GAMES for preset in load_game(name).presets]
VIEW_EVERY = 5  # actions between two looks at every view (each look costs a view per seat)


def _views(state: Any) -> dict[int | None, dict[str, Any]]:
    return {seat: state.view(seat) for seat in [None, *range(state.players)]}


def _check_views(views: dict[int | None, dict[str, Any]], players: int) -> None:
    spectator = views[None]
    assert spectator["private_log"] == [], "a spectator sees no private entry"
    public = spectator["log"]
    for seat, view in views.items():
        for entry in (*view["log"], *view["private_log"]):
            assert event_problem(entry, players) is None, event_problem(entry, players)
        if seat is None:
            continue
        assert view["log"] == public, f"seat {seat}'s public log differs from the spectator's"
        for entry in view["private_log"]:
            assert entry.get("seat") == seat, f"seat {seat}'s private entry names another seat: {entry}"
            assert entry not in public, f"seat {seat}'s private entry is also public: {entry}"
            for other in range(players):
                if other != seat:
                    assert entry not in views[other]["private_log"], f"seat {other} sees {seat}'s entry {entry}"


def _play_and_check_logs(name: str, players: int, seed: int, options: dict[str, Any] | None = None) -> int:
    """Play a seeded random game, checking every view's log as it goes; the private entries seen."""
    state = load_game(name).new_game(players=players, seed=seed, options=options)
    chooser = random.Random(seed)
    before = _views(state)
    _check_views(before, players)
    private_seen = 0
    steps = 0
    while not state.is_over:
        state.apply(chooser.choice(list(state.legal_actions())))
        steps += 1
        if steps % VIEW_EVERY and not state.is_over:
            continue
        after = _views(state)
        _check_views(after, players)
        for seat, view in after.items():
            for key in ("log", "private_log"):
                earlier = before[seat][key]
                assert view[key][:len(earlier)] == earlier, f"{key} of seat {seat} changed an earlier entry"
        before = after
    for seat in range(players):
        private_seen += len(before[seat]["private_log"])
    return private_seen


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS)
def test_view_logs_follow_the_one_event_type_and_rule_at_every_player_count(name: str, players: int) -> None:
    _play_and_check_logs(name, players, seed=players)


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_view_logs_follow_the_one_event_type_and_rule_under_every_preset(name: str, preset: str) -> None:
    game = load_game(name)
    _play_and_check_logs(name, game.max_players, seed=7, options={"preset": preset})


@pytest.mark.parametrize(("name", "options"), [
    ("citadels", None), ("palais_royal", None), ("burgundy", {"preset": "variant_secret"}),
])
def test_games_with_secrets_do_log_private_entries(name: str, options: dict[str, Any] | None) -> None:
    """The rule is exercised, not vacuous: these games show seats entries no one else sees."""
    assert _play_and_check_logs(name, 3, seed=5, options=options) > 0


def test_the_rule_splits_entries_by_visibility() -> None:
    entries: list[tuple[int, dict[str, Any]]] = [
        (PUBLIC, {"event": "round"}), (0, {"event": "drew", "seat": 0}), (PUBLIC, {"event": "pass", "seat": 1}),
        (1, {"event": "drew", "seat": 1}), (0, {"event": "kept", "seat": 0}),
    ]
    public = [e for v, e in entries if v == PUBLIC]
    private: dict[int, list[dict[str, Any]]] = {}
    for visibility, entry in entries:
        if visibility != PUBLIC:
            private.setdefault(visibility, []).append(entry)
    for seat in (None, 0, 1, 2):
        shown = view_logs(public, private, seat)
        assert shown["log"] + shown["private_log"] == [
            *(e for v, e in entries if v == PUBLIC), *(e for v, e in entries if v != PUBLIC and visible_to(v, seat))]
    assert view_logs(public, private, 0)["private_log"] == [{"event": "drew", "seat": 0}, {"event": "kept", "seat": 0}]
    assert view_logs(public, private, None)["private_log"] == []
    assert [visible_to(v, s) for v in (PUBLIC, 0) for s in (None, 0, 1)] == [True, True, True, False, True, False]


@pytest.mark.parametrize(("entry", "problem"), [
    (["build"], "must be a JSON object"),
    ({"seat": 0}, "needs an 'event' kind"),
    ({"event": ""}, "needs an 'event' kind"),
    ({"event": "build", "seat": 4}, "must be a seat of the game"),
    ({"event": "build", "seat": True}, "must be a seat of the game"),
    ({"event": "build", "cards": (1, 2)}, "does not survive JSON"),
    ({"event": "build", "at": {1: 2}}, "does not survive JSON"),
    ({"event": "build", "card": object()}, "is not plain JSON"),
])
def test_malformed_events_are_refused_with_the_reason(entry: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        check_event(entry, players=4)


def test_a_well_formed_event_passes_unchanged() -> None:
    entry = {"event": "build", "seat": 3, "card": "castle", "cost": 4}
    assert check_event(entry, players=4) is entry
    assert check_event({"event": "round", "round": 2}, players=2) == {"event": "round", "round": 2}


def test_an_entry_public_in_part_shows_its_private_fields_to_its_seat_only() -> None:
    move = check_event({"event": "move", "seat": 1, "index": 4, "action": "kill:thief", "kind": "kill"}, 3)
    fields = ("action", "kind", "args")
    assert redacted(move, fields, 1, 1) == move
    for viewer in (None, 0, 2):
        assert redacted(move, fields, 1, viewer) == {"event": "move", "seat": 1, "index": 4}
    assert move == {"event": "move", "seat": 1, "index": 4, "action": "kill:thief", "kind": "kill"}, "left whole"
    assert redacted(move, fields, PUBLIC, None) == move
