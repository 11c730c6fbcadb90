"""A tiny hidden-information game that exercises the engine contract without any real game's rules.

"High card": each seat is dealt 2 cards from a shuffled 1..9 deck; in turn each seat either plays one
card face up or passes; after 2 passes in a row or all cards played, the highest face-up total wins
(ties: lowest seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from meeple.core.contract import JSON, Game, GameState
from meeple.core.options import Option, OptionSet
from meeple.core.rng import Rng


class ToyAction(str):
    """The notation itself: "play:<n>" or "pass"."""


PASS = ToyAction("pass")
PLAYS = {n: ToyAction(f"play:{n}") for n in range(1, 10)}


class ToyState(GameState[ToyAction]):
    hands: list[list[int]]
    played: list[list[int]]
    deck: list[int]
    turn: int
    passes: int

    def setup(self) -> None:
        self.deck = list(range(1, 10))
        self.rng.shuffle(self.deck)
        size = int(self.options["hand_size"] or 2)
        self.hands = [sorted(self.deck[i * size : (i + 1) * size]) for i in range(self.players)]
        self.deck = self.deck[self.players * size :]
        self.played = [[] for _ in range(self.players)]
        self.turn = 0
        self.passes = 0

    @property
    def is_over(self) -> bool:
        return self.passes >= self.players or not any(self.hands)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    def legal_actions(self) -> Sequence[ToyAction]:
        if self.is_over:
            return []
        return [PLAYS[c] for c in sorted(set(self.hands[self.turn]))] + [PASS]

    def _apply(self, action: ToyAction) -> None:
        if action is PASS or action == "pass":
            self.passes += 1
        else:
            card = int(action.split(":")[1])
            self.hands[self.turn].remove(card)
            self.played[self.turn].append(card)
            self.passes = 0
        self.turn = (self.turn + 1) % self.players

    def scores(self) -> list[int]:
        return [sum(p) for p in self.played]

    def winners(self) -> list[int]:
        scores = self.scores()
        return [scores.index(max(scores))]

    def _view(self, seat: int | None) -> JSON:
        return {
            "played": [list(p) for p in self.played],
            "hand_sizes": [len(h) for h in self.hands],
            "hand": list(self.hands[seat]) if seat is not None else None,
            "deck_size": len(self.deck),
            "current_player": self.current_player,
        }

    def dump_body(self) -> JSON:
        return {"hands": self.hands, "played": self.played, "deck": self.deck, "turn": self.turn,
                "passes": self.passes}

    def load_body(self, body: JSON) -> None:
        self.hands = [list(h) for h in body["hands"]]
        self.played = [list(p) for p in body["played"]]
        self.deck = list(body["deck"])
        self.turn = int(body["turn"])
        self.passes = int(body["passes"])

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        self._copy_common_to(other)
        other.hands = [list(h) for h in self.hands]
        other.played = [list(p) for p in self.played]
        other.deck = list(self.deck)
        other.turn = self.turn
        other.passes = self.passes
        return other

    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        sampler = self._determinization_rng(rng)
        other = self.clone()
        # Sorted first, so the sample depends only on what `seat` knows, never on the hidden order.
        unseen = sorted([c for s, h in enumerate(other.hands) if s != seat for c in h] + other.deck)
        sampler.shuffle(unseen)
        for s, hand in enumerate(other.hands):
            if s != seat:
                size = len(hand)
                other.hands[s] = sorted(unseen[:size])
                unseen = unseen[size:]
        other.deck = unseen
        other.rng = sampler.fork()  # future chance is unknown too
        return other


class Toy(Game[ToyState]):
    name = "toy"
    title = "Toy high card"
    min_players = 2
    max_players = 4
    option_set = OptionSet(
        (Option("hand_size", 2, "cards dealt to each seat", choices=(1, 2)),),
        presets={"short": {"hand_size": 1}},
    )
    state_class = ToyState


def toy_game() -> Game[Any]:
    return Toy()
