"""The clock arithmetic: banks, bonuses capped at the bank, several seats running at once, deadlines,
and the profiles a table may be created with."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from meeple.server.clocks import (
    PROFILES,
    REALTIME,
    TURNBASED,
    BadClock,
    ClockState,
    check_rule,
    profile_of,
    reclaimed_time,
)

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def fast(players: int = 3, running: tuple[int, ...] = (0,)) -> ClockState:
    return ClockState.start(PROFILES[REALTIME]["fast"], players, T0, running)  # 120 s bank, 10 s bonus


def test_a_running_bank_runs_down_and_the_others_wait() -> None:
    clock = fast()
    assert clock.left(0, at(30)) == 90_000
    assert clock.left(1, at(30)) == 120_000
    assert clock.deadline() == at(120)
    assert clock.expired(at(119.999)) == [] and clock.expired(at(120)) == [0]


def test_a_move_charges_the_mover_adds_the_bonus_and_starts_the_next_clock() -> None:
    after = fast().after_move(0, at(30), [1])
    assert after.remaining == (100_000, 120_000, 120_000)  # 120 - 30 + 10
    assert after.running == (1,) and after.since == at(30)
    assert after.deadline() == at(150)


def test_the_bonus_is_capped_at_the_initial_bank() -> None:
    after = fast().after_move(0, at(4), [1])
    assert after.remaining[0] == 120_000  # 116 + 10 would be 126: capped at the bank


def test_an_undo_takes_back_exactly_the_bonus_its_moves_earned() -> None:
    """Two quick moves at a full bank earn 4 s and 3 s (capped), a slow third the full 10 s: taking back
    the last two returns 13 s, not 20; the clock charged up to the undo keeps running."""
    clock = fast(running=(0,))
    clock = clock.after_move(0, at(4), [0]).after_move(0, at(7), [0])
    assert clock.remaining[0] == 120_000 and clock.earned == (4_000, 3_000)
    clock = clock.after_move(0, at(27), [0])
    assert clock.remaining[0] == 110_000 and clock.earned == (4_000, 3_000, 10_000) and clock.earned_by == 0
    undone = clock.taken_back(0, 2, at(30), [0])
    assert undone.remaining[0] == 110_000 - 3_000 - 13_000  # as if seat 0 had thought 30 s and made one move
    assert undone.remaining[0] == fast().after_move(0, at(4), [0]).left(0, at(30))
    assert undone.running == (0,) and undone.since == at(30) and undone.earned == (4_000,)


def test_another_seat_moving_starts_a_new_run_and_an_unrecorded_move_counts_a_full_bonus() -> None:
    clock = fast(running=(0,)).after_move(0, at(30), [1]).after_move(1, at(31), [1])
    assert clock.earned_by == 1 and clock.earned == (1_000,)
    saved = ClockState(clock.bank_ms, clock.bonus_ms, clock.remaining, clock.since, clock.running)  # an old row
    assert saved.taken_back(1, 1, at(31), [1]).remaining[1] == 110_000


def test_a_bank_never_goes_below_zero() -> None:
    clock = fast()
    assert clock.left(0, at(500)) == 0
    assert clock.after_move(0, at(500), [1]).remaining[0] == 10_000  # nothing left, then the bonus


def test_simultaneous_actors_all_run_and_the_first_to_run_out_sets_the_deadline() -> None:
    clock = fast(running=(0, 2)).with_time(2, 50_000)
    assert clock.left(0, at(20)) == 100_000 and clock.left(2, at(20)) == 30_000
    assert clock.deadline() == at(50)
    # seat 2 decides at 20 s; seat 0 still must decide, and its clock runs on from where it was
    after = clock.after_move(2, at(20), [0])
    assert after.remaining == (100_000, 120_000, 40_000)
    assert after.deadline() == at(120)
    assert clock.expired(at(50)) == [2] and clock.expired(at(120)) == [0, 2]


def test_a_bot_standing_in_earns_no_bonus_for_the_player() -> None:
    clock = fast().rerun(at(10), [])  # seat 0 handed to a bot at 10 s: no clock runs
    assert clock.remaining[0] == 110_000
    assert clock.after_move(0, at(12), [1]).remaining[0] == 110_000


def test_turn_based_profiles_give_the_whole_allowance_back_with_every_move() -> None:
    clock = ClockState.start(profile_of(TURNBASED, "24h"), 2, T0, [0])
    after = clock.after_move(0, at(20 * 3600), [1])
    assert after.remaining[0] == 24 * 3600 * 1000
    assert after.deadline() == at(44 * 3600)


def test_a_reclaimed_seat_gets_a_quarter_of_the_bank_or_what_it_had() -> None:
    clock = fast()
    assert reclaimed_time(clock, 0, at(200)) == 30_000  # ran out: a quarter of 120 s
    assert reclaimed_time(clock, 0, at(20)) == 100_000  # had more: keeps it


def test_a_restart_changes_nothing_the_clock_is_computed_from_its_stored_start() -> None:
    clock = fast()
    copy = ClockState(clock.bank_ms, clock.bonus_ms, clock.remaining, clock.since, clock.running)
    assert copy.left(0, at(77)) == clock.left(0, at(77)) == 43_000


def test_profiles_and_their_errors() -> None:
    assert profile_of(None, None).bank is None
    assert profile_of(REALTIME, None).name == "normal"
    assert profile_of(TURNBASED, "3d").bonus == 3 * 86400
    custom = profile_of(REALTIME, {"bank": 30, "bonus": 5})
    assert (custom.name, custom.bank, custom.bonus) == ("custom", 30, 5)
    for mode, speed, words in [
        ("blitz", None, "mode must be one of"),
        (REALTIME, "24h", "speed must be one of fast, normal, slow, unlimited"),
        (TURNBASED, {"bank": 30}, "custom clock is for real-time"),
        (REALTIME, {"bank": 2}, "from 5 to"),
        (REALTIME, {"bank": 30, "bonus": 31}, "bonus must be"),
        (REALTIME, {"bank": 30, "extra": 1}, "only a bank and a bonus"),
        (REALTIME, {"bank": True}, "bank must be"),
    ]:
        with pytest.raises(BadClock, match=words):
            profile_of(mode, speed)
    assert check_rule(None) == "bot"
    with pytest.raises(BadClock, match="bot, vote"):
        check_rule("zombie")
