"""Research adapters' speed next to the raw engine's, per game (docs/research.md, "Speed").

    python bench/research_speed.py                      # every game, 3 players, ~2 s a figure
    python bench/research_speed.py caylus --players 4 --seconds 5

Prints one figure per line, ``<game> <n>p <what>: <per second> (<ratio> of the engine)``:

- ``engine``: actions/s of random play through the engine contract (``apply(choice(legal_actions()))``);
- ``pettingzoo, no observation``: AEC env steps/s, each agent choosing from ``env.legal_actions(agent)``
  (no observation built), the loop of an agent that needs only the legal moves (random, scripted);
- ``pettingzoo``: AEC env steps/s with ``env.last()`` (the encoded observation and the mask) every step,
  the loop of a learning agent;
- ``gym``: the learner's env steps/s against random bots, counted as all the game's actions (the bots'
  too) per second, the learner's observation encoded at each of its steps;
- ``openspiel``: ``apply_action`` steps/s from ``legal_actions()`` (chance nodes included);
- ``openspiel tensors``: the same with the acting player's ``observation_tensor`` every step;
- ``observation``: µs to encode the deciding seat's observation, through the ``Observation``
  (``encode(state.observation(seat))``, the definition) and through ``encode_state`` (the game's fast
  path where it has one: what the adapters call), over the positions of random games;
- ``openspiel bridge``: µs of one ``legal_actions()`` asked through pyspiel (C++ calling back into the
  Python game, and the list converted both ways), next to the game's Python method called directly.

Time is this process's CPU time (one core's work), as in bench/random_playouts.py; random choices come
from one seeded generator, games from seeds 1, 2, ….
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from meeple import game_names, load_game
from meeple.core.contract import GameState


def engine(name: str, players: int, seconds: float) -> float:
    game = load_game(name)
    chooser = random.Random(1)
    actions = 0
    seed = 1
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_game(players=players, seed=seed)
        while not state.is_over:
            state.apply(chooser.choice(state.legal_actions()))
            actions += 1
        seed += 1
    return actions / (time.process_time() - started)


def pettingzoo(name: str, players: int, seconds: float, observe: bool) -> float:
    from meeple.research import pettingzoo_env

    env = pettingzoo_env(name, players)
    chooser = random.Random(1)
    steps = 0
    seed = 1
    started = time.process_time()
    while time.process_time() - started < seconds:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            if observe:
                observation, _, terminated, truncated, _ = env.last()
                legal = None if terminated or truncated else np.flatnonzero(observation["action_mask"])
            else:
                _, _, terminated, truncated, _ = env.last(observe=False)
                legal = None if terminated or truncated else env.legal_actions(agent)
            if legal is None:
                env.step(None)
                continue
            env.step(chooser.choice(legal))
            steps += 1
        seed += 1
    return steps / (time.process_time() - started)


def gym(name: str, players: int, seconds: float) -> float:
    from meeple.research import gym_env

    env = gym_env(name, players=players, seat=0, opponents="easy")
    chooser = random.Random(1)
    actions = 0
    seed = 1
    started = time.process_time()
    while time.process_time() - started < seconds:
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(chooser.choice(np.flatnonzero(info["action_mask"])))
        actions += len(env.driver.state.history)
        seed += 1
    return actions / (time.process_time() - started)


def openspiel(name: str, players: int, seconds: float, tensors: bool) -> float:
    import pyspiel

    import meeple.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"python_meeple_{name}", {"players": players})
    chooser = random.Random(1)
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chooser.randrange(256))
            else:
                if tensors:
                    state.observation_tensor(state.current_player())
                state.apply_action(chooser.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - started)


def observation_cost(name: str, players: int, seconds: float) -> tuple[float, float]:
    """µs an observation (the deciding seat's): through the ``Observation``, and through ``encode_state``."""
    from meeple.research import encoder

    coder = encoder(name, players)
    chooser = random.Random(1)
    positions: list[tuple[GameState[Any], int]] = []
    state = load_game(name).new_game(players=players, seed=1)
    while not state.is_over and len(positions) < 2000:
        positions.append((state.clone(), state.current_player or 0))
        state.apply(chooser.choice(state.legal_actions()))
    costs = []
    for encode in (lambda s, seat: coder.encode(s.observation(seat)), coder.encode_state):
        done = 0
        started = time.process_time()
        while time.process_time() - started < seconds / 2:
            for position, seat in positions:
                encode(position, seat)
            done += len(positions)
        costs.append((time.process_time() - started) / done * 1e6)
    return costs[0], costs[1]


def openspiel_bridge(name: str, players: int) -> dict[str, tuple[float, float]]:
    """µs of ``legal_actions`` through pyspiel and as a direct Python call, on the positions of one
    random game."""
    import pyspiel

    import meeple.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"python_meeple_{name}", {"players": players})
    chooser = random.Random(1)
    state = game.new_initial_state()
    states = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chooser.randrange(256))
            continue
        states.append(state.clone())
        state.apply_action(chooser.choice(state.legal_actions()))
    calls: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
        "legal_actions": (lambda s: s.legal_actions(), lambda s: type(s)._legal_actions(s, 0)),
    }
    out = {}
    for label, (bridged, direct) in calls.items():
        costs = []
        for call in (bridged, direct):
            started = time.process_time()
            for _ in range(5):
                for s in states:
                    call(s)
            costs.append((time.process_time() - started) / (5 * len(states)) * 1e6)
        out[label] = (costs[0], costs[1])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="*", help="game names (default: every installed game)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per figure")
    args = parser.parse_args()
    seconds = args.seconds
    for name in args.games or game_names():
        players = args.players
        base = engine(name, players, seconds)
        print(f"{name} {players}p engine: {base:,.0f} actions/s", flush=True)
        measures: list[tuple[str, Callable[[str, int], float]]] = [
            ("pettingzoo, no observation", lambda g, n: pettingzoo(g, n, seconds, observe=False)),
            ("pettingzoo", lambda g, n: pettingzoo(g, n, seconds, observe=True)),
            ("gym", lambda g, n: gym(g, n, seconds)),
            ("openspiel", lambda g, n: openspiel(g, n, seconds, tensors=False)),
            ("openspiel tensors", lambda g, n: openspiel(g, n, seconds, tensors=True)),
        ]
        for label, measure in measures:
            rate = measure(name, players)
            print(f"{name} {players}p {label}: {rate:,.0f} steps/s ({rate / base:.2f} of the engine)", flush=True)
        through_observation, fast = observation_cost(name, players, seconds)
        print(f"{name} {players}p observation: {through_observation:.1f} µs through the Observation, "
              f"{fast:.1f} µs through encode_state (engine: {1e6 / base:.1f} µs an action)", flush=True)
        for label, (bridged, direct) in openspiel_bridge(name, players).items():
            print(f"{name} {players}p openspiel bridge: {label} {bridged:.1f} µs through pyspiel, "
                  f"{direct:.1f} µs called directly", flush=True)

if __name__ == "__main__":
    main()
