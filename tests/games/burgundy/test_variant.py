"""The seed's advanced variant (reference §3.18, D9, D22, D23) and the phase-start options (D5, D27)."""

from __future__ import annotations

from meeple.games.burgundy.data import BOARDS, TILE_BY_NAME, TILE_TYPE, C, M, S
from meeple.games.burgundy.state import EMPTY
from tests.games.burgundy.scenario import legal, new, pass_turn, play


def test_explicit_boards_with_castle_centres_start_on_19() -> None:
    state = new(boards="3,6")
    assert state.board == ["3", "6"]
    assert all(state.estate[s][19] == TILE_BY_NAME["C"] for s in range(2))
    assert state.current_player == 0 and len(state.dice_left) == 2


def test_start_castle_choice_in_turn_order_scores_nothing() -> None:
    state = new(boards="2,1", start_castle="choose", first_seat=1)
    assert state.current_player == 1
    assert legal(state) == [f"start:{s}" for s in BOARDS["1"].castle_spaces]
    assert state.view(None)["pending"]["kind"] == "start_castle"
    play(state, "start:2")
    assert state.current_player == 0
    assert legal(state) == ["start:4", "start:22", "start:34", "start:37"]
    play(state, "start:22")  # a one-space castle region on board 2: still no points (D10)
    assert state.vp == [0, 0]
    assert state.start_space == [22, 2]
    assert state.estate[0][22] == TILE_BY_NAME["C"] and state.start_castles == 0
    assert state.current_player == 1 and len(state.dice_left) == 2  # play starts with the start player


def test_choosing_boards_offers_each_of_2_to_9_once() -> None:
    state = new(players=3, preset="variant_choose")
    assert legal(state) == [f"board:{b}" for b in range(1, 10)]
    play(state, "board:4")
    assert state.board[0] == "4a"
    assert legal(state) == ["start:1", "start:14", "start:24", "start:37"]
    play(state, "start:14")
    assert "board:4" not in legal(state) and "board:1" in legal(state)
    play(state, "board:1", "start:19", "board:1", "start:2")
    assert state.board == ["4a", "1", "1"]
    assert state.current_player == 0 and state.pending == []


def test_board_variant_options_pick_the_transcription() -> None:
    state = new(players=2, boards="4,8", start_castle="choose", board_variant_4="b", board_variant_8="b")
    assert state.board == ["4b", "8b"]


def test_random_boards_are_distinct_and_from_the_pool() -> None:
    for seed in range(5):
        state = new(players=4, seed=seed, preset="variant_boards")
        assert len(set(state.board)) == 4
        assert set(state.board) <= {"1", "2", "3", "5", "6", "7", "9"}
    small = new(players=2, preset="variant_boards", random_board_pool="5,7")
    assert sorted(small.board) == ["5", "7"]


def test_first_seat_option_fixes_the_start_player() -> None:
    state = new(players=4, first_seat=2)
    assert state.order == [2, 3, 0, 1]
    assert [state.workers[s] for s in (2, 3, 0, 1)] == [1, 2, 3, 4]


def _phase_b(keep: bool) -> tuple[list[list[int]], list[list[int]]]:
    state = new(players=4, seed=11, keep_smc_on_depots=keep)
    before = [list(d) for d in state.depots]
    while state.phase == 0:
        pass_turn(state)
    return before, state.depots


def test_keep_smc_on_depots_leaves_ships_mines_castles_and_does_not_refill_them() -> None:
    before, after = _phase_b(True)
    kept = 0
    for d in range(7):
        for i, tile in enumerate(before[d]):
            if tile != EMPTY and TILE_TYPE[tile] in (S, M, C):
                assert after[d][i] == tile
                kept += 1
    assert kept > 0


def test_without_keep_every_depot_tile_is_replaced() -> None:
    state = new(players=4, seed=11, keep_smc_on_depots=False)
    while state.phase == 0:
        pass_turn(state)
    removed = state.removed
    assert len(removed) == 24 + 8  # every phase-A tile left the game


def test_secret_setup_hides_choices_until_everyone_has_chosen() -> None:
    state = new(players=3, preset="variant_secret")
    play(state, "board:6", "start:34")
    assert legal(state) == [f"board:{b}" for b in range(1, 10)]  # 6 may be taken again: nobody knows
    for viewer in (1, 2, None):
        seen = state.view(viewer)["players"][0]
        assert seen["board"] is None and seen["estate"] == {} and seen["start_space"] is None
        assert all(e.get("board") != "6" and e.get("space") != 34 for e in state.view(viewer)["log"])
    own = state.view(0)
    assert own["players"][0]["board"] == "6" and own["players"][0]["estate"] == {"34": "C"}
    assert [e["event"] for e in own["private_log"]] == ["board", "start_castle"]
    assert state.view(1)["private_log"] == []
    worlds = {tuple(state.determinize(1, k).board) for k in range(12)}
    assert len(worlds) > 1 and all(w[1:] == ("", "") for w in worlds)
    for k in range(4):
        assert state.determinize(1, k).view(1) == state.view(1)
    play(state, "board:6", "start:3", "board:2", "start:4")
    assert state.board == ["6", "6", "2"] and state.start_space == [34, 3, 4]
    assert state.log[-2]["event"] == "setup_revealed"
    assert state.view(1)["players"][0]["estate"] == {"34": "C"}
    assert state.determinize(1, 0).board == state.board


def test_6_secret_setup_determinize_hides_another_seats_choice_in_its_private_log_too() -> None:
    """§3.18/§6: in a determinization for seat 1, seat 0's secret board and start castle are resampled, and
    so is seat 0's record of them (its private log); the real choice stays fixed nowhere."""
    state = new(players=3, preset="variant_secret")
    play(state, "board:6", "start:34")
    real = state.private_log[0]
    resampled = 0
    for k in range(16):
        world = state.determinize(1, k)
        entries = world.private_log[0]
        assert [e["event"] for e in entries] == ["board", "start_castle"]
        assert entries[0]["board"] == world.board[0] and entries[1]["space"] == world.start_space[0]
        assert world.view(1) == state.view(1)
        resampled += entries != real
    assert resampled > 0
    own = state.determinize(0, 3)
    assert own.private_log[0] == real and own.board[0] == state.board[0]
