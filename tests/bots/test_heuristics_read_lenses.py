"""The heuristic bots read a per-seat lens, never the engine's internals (issue 20).

For each game done: its heuristic module imports only ``meeple.core.*``, the heuristics' shared helpers
(``meeple.bots.heuristics``) and the game's public modules ``observation``, ``actions`` and ``data``;
every lens property and method gives the same value on a state and on its determinizations for the
seat (so the lens holds only what that seat may know); and the lens's facts equal the frozen
``Observation``'s fields of the same name. For Citadels and Palais Royal ``observe`` stays a separate
copy because it also serves the spectator (who has no lens) and must freeze every fact; this test is
what keeps the two from drifting. Burgundy's and Caylus's ``observe`` reads the properties of a lens
(a spectator's, inside ``observe`` only) instead, so each fact is stated once there; the test then
checks that a seat's lens and its observation, which may differ from a spectator's, still agree.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple import load_game
from meeple.bots import RandomBot, RolloutPolicy
from meeple.core.contract import GameState
from meeple.core.observation import Lens
from meeple.core.rng import Rng

HEURISTICS = Path(__file__).parents[2] / "meeple" / "bots" / "heuristics"

#: The games whose heuristic reads a lens (the other games' lens work adds theirs).
GAMES = ["citadels", "burgundy", "caylus", "palais_royal"]
#: The game modules a heuristic may import: the interned actions, the printed data and the lens.
PUBLIC_MODULES = ("observation", "actions", "data")


def _citadels_calls(state: GameState[Any]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    from meeple.games.citadels.data import DISTRICT_SLUGS

    for target in range(state.players):
        for district in range(len(DISTRICT_SLUGS)):
            yield "destroy_cost", (target, district)


def _burgundy_calls(state: GameState[Any]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    for value in range(1, 7):
        yield "die_actions", (value,)


def _caylus_calls(state: GameState[Any]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    from meeple.games.caylus.data import T_CASTLE

    for target in range(1, T_CASTLE + 1):  # the road spaces, then the special buildings
        yield "price", (target,)
    yield "castle_section", ()
    yield "lawyer_targets", ()


def _palais_royal_calls(state: GameState[Any]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    public: Any = state.observation(None)
    for square, noble in enumerate(public.garden):
        if noble >= 0:
            yield "recruit_cost", (square,)
        for seat in range(state.players):  # the edges' points were that seat's servant on the square
            hypothetical = list(public.garden_servants)
            hypothetical[square] = seat
            yield "edge_points", (hypothetical,)


#: Per game, the lens methods to compare and the arguments to ask them with.
METHOD_CALLS: dict[str, Callable[[GameState[Any]], Iterator[tuple[str, tuple[Any, ...]]]]] = {
    "citadels": _citadels_calls,
    "burgundy": _burgundy_calls,
    "caylus": _caylus_calls,
    "palais_royal": _palais_royal_calls,
}
PLAYERS = {"citadels": (2, 4, 7), "burgundy": (2, 3, 4), "caylus": (2, 3, 5), "palais_royal": (2, 3, 4)}
#: Every how many plies a position is checked (Palais Royal's games are several times longer).
STRIDE = {"citadels": 9, "burgundy": 53, "caylus": 29, "palais_royal": 45}
#: Options played besides the defaults: Burgundy's secret setup hides the other seats' boards and start
#: castles until all have chosen, so there every ply of the first ``EARLY`` is checked too.
OPTIONS: dict[str, list[dict[str, Any]]] = {"burgundy": [{"preset": "variant_secret"}]}
EARLY = {"burgundy": 10}
#: Caylus hides nothing and draws nothing after setup (rules §6): a determinization differs only in
#: its generator, so that is what is checked to differ.
HIDES_NOTHING = {"caylus"}


def _is_module(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except ModuleNotFoundError:  # a name inside a module, not a submodule
        return False


def _imports(name: str) -> list[str]:
    tree = ast.parse((HEURISTICS / f"{name}.py").read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:  # ``from package import module`` imports that module
                found.append(f"{node.module}.{alias.name}" if _is_module(f"{node.module}.{alias.name}")
                             else node.module)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_heuristic_imports_no_engine_internals(name: str) -> None:
    # the heuristics' package itself holds their shared helpers (no engine code)
    allowed = {f"meeple.games.{name}.{module}" for module in PUBLIC_MODULES} | {"meeple.bots.heuristics"}
    wrong = []
    for module in _imports(name):
        if not module.startswith("meeple.") or module.startswith("meeple.core."):
            continue
        if module in allowed or any(module.startswith(f"{ok}.") for ok in allowed):
            continue
        wrong.append(module)
    assert wrong == []
    assert f"meeple.games.{name}.observation" in _imports(name)


def _lens_properties(lens: Lens) -> list[str]:
    return sorted(name for name, _ in inspect.getmembers(type(lens), lambda m: isinstance(m, property)))


def _plain(value: Any) -> Any:
    """Lists and tuples alike (a lens returns the engine's lists, an observation tuples)."""
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value


def _positions(name: str) -> Iterator[GameState[Any]]:
    """Every ``STRIDE``-th position (and every one of the first ``EARLY``) of games where the heuristic and
    a random player take turns at choosing (as in ``walks.count_legal_choices``), so that positions of
    every kind come up; under the defaults and the game's ``OPTIONS``."""
    game = load_game(name)
    for options in [None, *OPTIONS.get(name, [])]:
        for players in PLAYERS[name]:
            for seed in range(2):
                yield from _walk(game.new_game(players=players, seed=100 * players + seed, options=options), name,
                                 seed)


def _walk(state: GameState[Any], name: str, seed: int) -> Iterator[GameState[Any]]:
    policy, walker, coin = RolloutPolicy(seed), RandomBot(seed + 50), Rng(seed)
    ply = 0
    while not state.is_over:
        if ply % STRIDE[name] == 0 or ply < EARLY.get(name, 0):
            yield state
        state.apply(policy.choose(state) if coin.random() < 0.5 else walker.choose(state))
        ply += 1
    yield state


def _facts(name: str, state: GameState[Any], seat: int) -> dict[str, Any]:
    lens = state.lens(seat)
    facts = {prop: _plain(getattr(lens, prop)) for prop in _lens_properties(lens)}
    for method, args in METHOD_CALLS[name](state):
        facts[f"{method}{args}"] = getattr(lens, method)(*args)
    return facts


@pytest.mark.parametrize("name", GAMES)
def test_the_lens_is_the_same_on_every_determinization(name: str) -> None:
    """Each property and method of every seat's lens is blind to what that seat cannot see."""
    compared = differed = 0
    for state in _positions(name):
        for seat in range(state.players):
            facts = _facts(name, state, seat)
            for k in (1, 2, 3):
                world = state.determinize(seat, Rng(1000 * seat + k))
                if name in HIDES_NOTHING:
                    differed += world.to_json() != state.to_json()
                else:
                    differed += world.to_json()["body"] != state.to_json()["body"]
                assert _facts(name, world, seat) == facts
                compared += 1
    assert compared >= 100
    assert differed >= compared // 2  # the worlds really differed in what the seat cannot see


@pytest.mark.parametrize("name", GAMES)
def test_the_lens_and_the_observation_agree(name: str) -> None:
    """Every field of the frozen Observation is a lens property with the same value."""
    for state in _positions(name):
        for seat in range(state.players):
            lens = state.lens(seat)
            observation = state.observation(seat)
            for field in dataclasses.fields(observation):
                if field.name in ("game",):
                    continue
                assert _plain(getattr(lens, field.name)) == _plain(getattr(observation, field.name)), field.name


def test_a_spectator_has_no_lens() -> None:
    from meeple.core.errors import InvalidSeat

    state = load_game(GAMES[0]).new_game(players=3, seed=1)
    with pytest.raises(InvalidSeat):
        state.lens(None)
