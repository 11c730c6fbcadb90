"""Can a cheap learned policy play like the hard level? Fitted to hard's own decisions in kept tournaments.

    python bench/imitate_hard.py bench/results/strength/palais_royal-3p --hidden 0 --hidden 32

Needs the research extra (numpy). Every game of the folders' ``moves.jsonl`` is played again; at each decision
of the first lineup entry's seat (hard, in the kept runs) with more than one legal action, the position is the
seat's observation vector (``meeple.research.encoder``, what the seat may know only), its legal actions and the
heuristic's ranking of them (``ranked``), and the label is the action hard played. A softmax over the legal
actions of the action table is fitted on four games in five: logits = w·(−the heuristic's rank of the action)
+ a bias per action + a function of the observation per action (linear with ``--hidden 0``, else one hidden
layer of ReLU units), with Adam and weight decay. It prints, on the held-out games, the share of decisions
where hard played the heuristic's first-ranked action and where it played the model's: one figure per line.
A policy that predicted hard better than the heuristic does would be a better rollout policy and prior for a
search (an "expert iteration" step); one that does not learns nothing here beyond the heuristic.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from meeple import load_game
from meeple.bots.heuristics import heuristic_bot
from meeple.research import action_table, encoder
from meeple.tournament import read_moves

RANK_CAP = 10  # the heuristic's ranks past this count as this


class Decisions:
    """Hard's decisions as arrays: observation, legal mask (0 or −inf), minus the heuristic's rank, label."""

    def __init__(self, rows: Sequence[tuple[Any, list[int], list[int], int]], actions: int) -> None:
        self.obs = np.stack([row[0] for row in rows]).astype(np.float32)
        self.mask = np.full((len(rows), actions), -np.inf, np.float32)
        self.rank = np.zeros((len(rows), actions), np.float32)
        for i, (_obs, legal, ranked, _label) in enumerate(rows):
            self.mask[i, legal] = 0.0
            for place, index in enumerate(ranked):
                self.rank[i, index] = -min(place, RANK_CAP)
        self.label = np.array([row[3] for row in rows])
        self.first = np.array([row[2][0] for row in rows])

    def subset(self, keep: np.ndarray) -> Decisions:
        part = object.__new__(Decisions)
        for name in ("obs", "mask", "rank", "label", "first"):
            setattr(part, name, getattr(self, name)[keep])
        return part


def hard_decisions(game_name: str, folders: Sequence[Path]) -> tuple[Decisions, np.ndarray, int]:
    """The decisions of every kept game of ``folders`` (one player count), and each one's game."""
    rows: list[tuple[Any, list[int], list[int], int]] = []
    games: list[int] = []
    players = 0
    for number, folder in enumerate(folders):
        for game in read_moves(folder):
            players = players or len(game.seat_of_entry)
            if len(game.seat_of_entry) != players:
                raise SystemExit("the folders must be of one player count")
            table, seen = action_table(game_name, players), encoder(game_name, players)
            heuristic = heuristic_bot(game_name, 0)
            state = load_game(game_name).new_game(players=players, seed=game.seed)
            hard_seat = game.seat_of_entry[0]
            for move in game.moves:
                legal = state.legal_actions()
                if state.current_player == hard_seat and len(legal) > 1:
                    rows.append((np.asarray(seen.encode_state(state, hard_seat)), table.indices(legal),
                                 table.indices(heuristic.ranked(state)), table.index_of(move)))
                    games.append(number * 1_000_000 + game.index)
                state.apply(move)
    if not rows:
        raise SystemExit("no kept moves in these folders")
    return Decisions(rows, action_table(game_name, players).size), np.array(games), players


def fit(train: Decisions, hidden: int, epochs: int, decay: float, seed: int) -> dict[str, np.ndarray]:
    """The policy's parameters, by Adam on the mean cross-entropy of hard's choices plus weight decay."""
    rng = np.random.default_rng(seed)
    inputs, actions = train.obs.shape[1], train.mask.shape[1]
    width = hidden or inputs
    params = {"rank": np.array([1.0], np.float32), "bias": np.zeros(actions, np.float32),
              "out": np.zeros((width, actions), np.float32)}
    if hidden:
        params["w1"] = rng.normal(0.0, inputs ** -0.5, (inputs, hidden)).astype(np.float32)
        params["b1"] = np.zeros(hidden, np.float32)
    first = {name: np.zeros_like(value) for name, value in params.items()}
    second = {name: np.zeros_like(value) for name, value in params.items()}
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(train.label))
        for start in range(0, len(order), 128):
            batch = train.subset(order[start:start + 128])
            features, logits = forward(params, batch)
            logits -= logits.max(axis=1, keepdims=True)
            chances = np.exp(logits)
            chances /= chances.sum(axis=1, keepdims=True)
            chances[np.arange(len(batch.label)), batch.label] -= 1.0
            error = chances / len(batch.label)
            grads = {"rank": np.array([(error * batch.rank).sum()], np.float32), "bias": error.sum(axis=0),
                     "out": features.T @ error + decay * params["out"]}
            if hidden:
                back = (error @ params["out"].T) * (features > 0)
                grads["w1"] = batch.obs.T @ back + decay * params["w1"]
                grads["b1"] = back.sum(axis=0)
            step += 1
            for name, grad in grads.items():
                first[name] = 0.9 * first[name] + 0.1 * grad
                second[name] = 0.999 * second[name] + 0.001 * grad * grad
                corrected = (first[name] / (1 - 0.9 ** step)) / (np.sqrt(second[name] / (1 - 0.999 ** step)) + 1e-8)
                params[name] -= 1e-3 * corrected
    return params


def forward(params: dict[str, np.ndarray], batch: Decisions) -> tuple[np.ndarray, np.ndarray]:
    """The hidden features and the masked logits of every action."""
    features = batch.obs if "w1" not in params else np.maximum(batch.obs @ params["w1"] + params["b1"], 0.0)
    return features, features @ params["out"] + params["bias"] + params["rank"][0] * batch.rank + batch.mask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="tournament results folders of one game and player count")
    parser.add_argument("--game", help="the game (default: the first folder's summary.json)")
    parser.add_argument("--hidden", type=int, action="append", help="hidden units, 0 for linear (repeatable)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--decay", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game_name = args.game
    if game_name is None:
        game_name = json.loads((args.folders[0] / "summary.json").read_text())["game"]
    decisions, games, players = hard_decisions(game_name, args.folders)
    held_out = np.isin(games, np.unique(games)[::5])
    train, test = decisions.subset(~held_out), decisions.subset(held_out)
    print(f"{game_name}, {players} players: {len(train.label)} decisions to fit, {len(test.label)} held out "
          f"({len(np.unique(games))} games)")
    print(f"hard played the heuristic's first-ranked action (held out): {np.mean(test.first == test.label):.3f}")
    for hidden in args.hidden or [0]:
        params = fit(train, hidden, args.epochs, args.decay, args.seed)
        fitted = np.mean(forward(params, train)[1].argmax(axis=1) == train.label)
        held = np.mean(forward(params, test)[1].argmax(axis=1) == test.label)
        print(f"model with {hidden} hidden units: {held:.3f} held out ({fitted:.3f} on the decisions fitted)")


if __name__ == "__main__":
    main()
