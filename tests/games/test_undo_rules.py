"""Where undo stops in each game, at the rules that draw or reveal (docs/engine-contract.md, undo floor).

Each test finds its situation in a seeded game and checks both sides: the same seat's move before a
draw or reveal can be taken back (to exactly the earlier state), one after cannot.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from meeple import load_game
from meeple.core.contract import GameState


def canon(state: GameState[Any]) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


class Played:
    """A game played at random with who made each move, so ``undoable_moves`` can be asked."""

    def __init__(self, name: str, players: int, seed: int) -> None:
        self.state = load_game(name).new_game(players=players, seed=seed)
        self.actors: list[int] = []
        self.chooser = random.Random(seed)

    def apply(self, notation: str) -> None:
        seat = self.state.current_player
        assert seat is not None
        self.state.apply(notation)
        self.actors.append(seat)

    def until(self, found: Callable[[GameState[Any]], bool], limit: int = 3000) -> None:
        """Random moves until ``found(state)``."""
        for _ in range(limit):
            if found(self.state):
                return
            self.apply(str(self.chooser.choice(list(self.state.legal_actions()))))
        raise AssertionError("the situation never came up")

    def undoable(self) -> int:
        seat = self.state.current_player
        return 0 if seat is None else self.state.undoable_moves(seat, self.actors)


def legal(state: GameState[Any]) -> set[str]:
    return {str(action) for action in state.legal_actions()}


def test_citadels_the_king_takes_back_his_gold_but_not_a_draw() -> None:
    """docs/rules/citadels.md §2.3 (turn sequence, rules of the turn): gathering is `gold` or `draw`;
    the gold is public and undoable, the district cards drawn are seen, so undo stops there; the
    call of the next character reveals who holds it (§2.3 Calling), so `end` cannot be taken back."""
    game = Played("citadels", 4, 12)
    game.until(lambda s: {"gold", "draw"} <= legal(s))
    before = canon(game.state)
    seat = game.state.current_player
    drawing = game.state.clone()
    actors = list(game.actors)
    game.apply("gold")
    assert game.state.current_player == seat and game.undoable() == 1
    assert canon(game.state.undone(1)) == before
    drawing.apply("draw")
    assert drawing.current_player == seat
    assert drawing.undoable_moves(seat, [*actors, seat]) == 0, "the drawn cards were seen"
    assert drawing.undo_floor == len(drawing.history)
    game.until(lambda s: "end" in legal(s))
    game.apply("end")
    assert game.state.undo_floor == len(game.state.history), "the next character was called and revealed"


def test_citadels_the_draft_cannot_be_taken_back() -> None:
    """§2.2: a drafter passes the characters left to the next one, who sees them."""
    game = Played("citadels", 4, 3)
    game.until(lambda s: any(n.startswith("pick:") for n in legal(s)))
    game.apply(next(n for n in sorted(legal(game.state)) if n.startswith("pick:")))
    assert game.state.undo_floor == len(game.state.history)
    assert game.undoable() == 0


def test_burgundy_die_actions_are_undoable_until_the_round_rolls_new_dice() -> None:
    """docs/rules/burgundy.md §3.4 (a turn: two dice, then pass) and §3.3 (each round's dice are
    rolled): a seat's die actions of its turn can be taken back; the pass ending a round rolls the
    next round's dice, so nothing before it can."""
    game = Played("burgundy", 2, 8)
    game.until(lambda s: any(n.startswith("die:") for n in legal(s)) and s.current_player is not None)
    seat = game.state.current_player
    before = canon(game.state)
    game.apply(next(n for n in sorted(legal(game.state)) if n.startswith("die:")))
    assert game.state.current_player == seat and game.undoable() == 1
    assert canon(game.state.undone(1)) == before
    rounds = game.state.round
    game.until(lambda s: s.round != rounds)  # type: ignore[attr-defined]
    assert game.state.undo_floor == len(game.state.history), "new dice were rolled"
    assert game.undoable() == 0


def test_palais_royal_moves_are_undoable_until_cards_are_drawn() -> None:
    """docs/rules/palais_royal.md §2 (turn steps) and §2.5 (the back door draws privilege cards): a
    seat's moves of its turn can be taken back until it draws; the drawn cards were seen."""
    game = Played("palais_royal", 3, 4)
    game.until(lambda s: "draw" in legal(s) and len(legal(s)) > 1 and game.undoable() > 0)
    seat = game.state.current_player
    moves = game.undoable()
    assert canon(game.state.undone(moves)) == canon(_replayed(game, moves))
    game.apply("draw")
    assert game.state.current_player == seat
    assert game.undoable() == 0, "the drawn cards were seen"


def test_caylus_nothing_is_hidden_so_only_the_turn_limits_undo() -> None:
    """docs/rules/caylus.md §2 (the turn's phases): after setup nothing is drawn or hidden, so the floor
    never rises; a seat takes back its own moves while it still decides, never another seat's."""
    game = Played("caylus", 3, 2)
    undid = 0
    for _ in range(600):
        if game.state.is_over:
            break
        game.apply(str(game.chooser.choice(list(game.state.legal_actions()))))
        assert game.state.undo_floor == 0
        moves = game.undoable()
        if moves:
            undid += 1
            assert all(seat == game.state.current_player for seat in game.actors[-moves:])
            assert canon(game.state.undone(moves)) == canon(_replayed(game, moves))
        for other in range(game.state.players):
            if other != game.state.current_player:
                assert game.state.undoable_moves(other, game.actors) == 0
    assert undid > 0


def _replayed(game: Played, moves: int) -> GameState[Any]:
    """The game replayed from its seed without its last ``moves`` moves."""
    state = game.state
    again: GameState[Any] = state.game.new_game(players=state.players, seed=state.seed, options=state.options)
    for notation in state.history[:-moves]:
        again.apply(notation)
    return again
