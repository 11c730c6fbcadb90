"""OpenSpiel games: importing this module registers ``python_meeple_<game>`` for each of meeple's games.

    import pyspiel, meeple.research.openspiel
    game = pyspiel.load_game("python_meeple_citadels", {"players": 4})

Sequential, imperfect information, zero-sum with terminal rewards (``meeple.research.outcome``).
Parameters: ``players``; ``max_game_length`` (a game still running after that many actions ends as a
draw, every return 0 — Citadels has no bound of its own; the defaults are 3–5 times the longest random
games measured).

**Chance is explicit, once, at the root.** The engines draw every shuffle, deal and die from their own
generator, seeded once when the game starts; so the game opens with ``SEED_BYTES`` chance nodes of 256
equally likely outcomes that spell the game's 64-bit seed, and is deterministic after them. No player
ever observes the seed, only what the game shows, so this is the game's own chance, drawn in advance.
Chance nodes for each shuffle would need every ordering as an outcome (68! for a Citadels deck), and
sampled chance (``SAMPLED_STOCHASTIC``) cannot be serialized nor pass ``random_sim_test`` for a
Python game (pyspiel asks such games for a game-level RNG state that Python games cannot give). An
algorithm that must sample the worlds consistent with what a player knows (ISMCTS) gets them from
``resample`` (the engine's ``determinize``).

Observations reveal nothing a seat cannot know: the observation tensor is the encoder's vector of
``state.observation(player)``, the observation string that observation's ``repr``, and the information
state string the player's ``view`` as JSON — everything it has seen, its public and private logs
included, so two histories that look alike to the player give the same string. A public observer
(``private_info=NONE``) sees what a spectator sees.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from meeple.core.contract import GameState
from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.research import ENCODERS
from meeple.research import encoder as encoder_for
from meeple.research.encoding import Vector
from meeple.research.outcome import outcome
from meeple.research.tables import ActionTable, action_table

#: Chance nodes at the root, each drawing one byte of the game's seed.
SEED_BYTES = 8
_BYTE_OUTCOMES = tuple((byte, 1 / 256) for byte in range(256))
#: Actions after which a game still running is ended as a draw, by default.
MAX_GAME_LENGTH = {"citadels": 3000, "burgundy": 2000, "caylus": 1000, "palais_royal": 5000}


class _Held:
    """A meeple state inside a pyspiel state: pyspiel copies a Python state's attributes with
    ``copy.deepcopy`` and pickles them to serialize, so this holder clones and saves the meeple way.

    It also keeps what pyspiel may ask for again about one position, computed once: the number of
    actions played (pyspiel asks for the current player about eight times an action, and ``history``
    copies the list), the legal indexes, and each seat's encoded observation (an algorithm asking for
    a tensor twice, or for every player's). ``apply`` is the one way to move on, and clears them."""

    __slots__ = ("legal", "meeple", "moves", "observed")

    def __init__(self, meeple: GameState[Any]) -> None:
        self._hold(meeple)

    def _hold(self, meeple: GameState[Any]) -> None:
        self.meeple = meeple
        self.moves = len(meeple.history)
        self.legal: list[int] | None = None
        self.observed: dict[int, Vector] = {}

    def apply(self, notation: str) -> None:
        self.meeple.apply(notation)
        self.moves += 1
        self.legal = None
        self.observed = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.meeple.clone())

    def __getstate__(self) -> str:
        return json.dumps(self.meeple.to_json())

    def __setstate__(self, saved: str) -> None:
        data = json.loads(saved)
        self._hold(load_game(data["game"]).from_json(data))


class MeepleSpielState(pyspiel.State):  # type: ignore[misc]
    """One game in progress, as OpenSpiel sees it: first the seed's chance nodes, then the game."""

    def __init__(self, game: MeepleSpielGame, held: _Held | None = None) -> None:
        super().__init__(game)
        self._seed_bytes: list[int] = []
        self._held = held
        self._table: ActionTable = game.table
        self._max_length: int = game.max_length

    @property
    def meeple(self) -> GameState[Any]:
        """The engine state (``RuntimeError`` while the seed is being drawn), to read: it moves on
        through ``apply_action`` only, which keeps the answers cached for its position true."""
        if self._held is None:
            raise RuntimeError("the game starts once the chance nodes have drawn its seed")
        return self._held.meeple

    def current_player(self) -> int:
        held = self._held
        if held is None:
            return int(pyspiel.PlayerId.CHANCE)
        state = held.meeple
        if state.is_over or held.moves >= self._max_length:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player  # type: ignore[return-value]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_BYTE_OUTCOMES)

    def _legal_actions(self, player: int) -> list[int]:
        held = self._held
        if held is None:
            raise RuntimeError("the game starts once the chance nodes have drawn its seed")
        if held.legal is None:
            held.legal = sorted(self._table.indices(held.meeple.legal_actions()))
        return list(held.legal)  # the caller may change its list

    def encoded(self, player: int) -> Vector:
        """The encoder's vector of ``player``'s observation, once per position (a read-only array)."""
        held = self._held
        if held is None:
            raise RuntimeError("the game starts once the chance nodes have drawn its seed")
        vector = held.observed.get(player)
        if vector is None:
            vector = held.observed[player] = self.get_game().encoder.encode_state(held.meeple, player)
            vector.flags.writeable = False
        return vector

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            self._seed_bytes.append(action)
            if len(self._seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big")
                game: MeepleSpielGame = self.get_game()
                self._held = _Held(game.meeple_game.new_game(players=game.table.players, seed=seed))
        else:
            self._held.apply(self._table.notation(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._table.notation(action)

    def is_terminal(self) -> bool:
        held = self._held
        return held is not None and (held.meeple.is_over or held.moves >= self._max_length)

    def returns(self) -> list[float]:
        if self._held is None:
            return [0.0] * self._table.players
        return outcome(self._held.meeple)

    def __str__(self) -> str:
        if self._held is None:
            return f"seed bytes drawn: {self._seed_bytes}"
        state = self._held.meeple
        return f"{state.game.name} players={state.players} seed={state.seed} history={' '.join(state.history)}"


class MeepleSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of meeple's games at a player count (the ``players`` parameter); each game has a subclass
    setting ``game_name`` and ``spiel_type`` (see ``_register``)."""

    game_name: str
    spiel_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_name = self.game_name
        game_type = self.spiel_type
        players = int(params.get("players", game_type.parameter_specification["players"]))
        self.meeple_game = load_game(game_name)
        self.meeple_game.check_players(players)
        self.table = action_table(game_name, players)
        self.encoder = encoder_for(game_name, players)
        self.max_length = int(params.get("max_game_length", MAX_GAME_LENGTH[game_name]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.size, max_chance_outcomes=256, num_players=players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=self.max_length + SEED_BYTES,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> MeepleSpielState:
        return MeepleSpielState(self)

    def state_from_meeple(self, meeple: GameState[Any]) -> MeepleSpielState:
        """A pyspiel state around an engine state (its OpenSpiel history starts empty)."""
        return MeepleSpielState(self, _Held(meeple))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("meeple's games observe for one player at a time (or publicly), not all players")
        public = kind.private_info == pyspiel.PrivateInfoType.NONE
        if kind.perfect_recall:
            return InformationStateObserver(public)
        return MeepleObserver(self, public)


class MeepleObserver:
    """The observation tensor (the encoder's vector) and string (the observation's ``repr``)."""

    def __init__(self, game: MeepleSpielGame, public: bool) -> None:
        self.encoder = game.encoder
        self.public = public
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _observation(self, state: MeepleSpielState, player: int) -> Any:
        return state.meeple.observation(None if self.public else player)

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            self.tensor.fill(0.0)  # nothing to see before the game starts
            return
        if self.public:  # a spectator's observation, encoded as seen from the player's chair
            self.tensor[:] = self.encoder.encode(_as_seat(self._observation(state, player), player))
        else:
            self.tensor[:] = state.encoded(player)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            return ""
        return repr(self._observation(state, player))


class InformationStateObserver:
    """The information state string: the player's ``view`` (logs included) as JSON. No tensor."""

    def __init__(self, public: bool) -> None:
        self.public = public
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        pass

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            return ""
        view = state.meeple.view(None if self.public else player)
        return json.dumps(view, separators=(",", ":"))


def _as_seat(observation: Any, player: int) -> Any:
    from dataclasses import replace

    return replace(observation, seat=player)


def resample(state: MeepleSpielState, player: int) -> MeepleSpielState:
    """A state the ``player`` cannot tell from ``state``: everything it has not seen resampled by the
    engine's ``determinize`` (for OpenSpiel's ISMCTS: ``ISMCTSBot(..., resampler_cb=resample)``)."""
    game: MeepleSpielGame = state.get_game()
    return game.state_from_meeple(state.meeple.determinize(player, Rng(np.random.randint(2**62))))


def ismcts_bot(game: Any, simulations: int, *, uct_c: float = 1.5, rollouts: int = 1, seed: int = 0) -> Any:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) for a meeple game, sampling worlds
    through ``resample``, with random rollouts, keyed by observation strings (the information state
    strings hold whole logs: exact, but slower to build at every node)."""
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(rollouts, random_state), uct_c, simulations,
                           random_state=random_state, use_observation_string=True)
    bot._resampler_cb = resample  # this OpenSpiel version takes the callback only as an attribute
    return bot


def game_type(game_name: str) -> Any:
    """The ``pyspiel.GameType`` of ``python_meeple_<game>``."""
    game = load_game(game_name)
    return pyspiel.GameType(
        short_name=f"python_meeple_{game_name}",
        long_name=f"meeple {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": game.min_players, "max_game_length": MAX_GAME_LENGTH[game_name]},
    )


def _register() -> None:
    """One ``MeepleSpielGame`` subclass per game, registered as its factory (pyspiel keeps classes
    registered for the whole process, as its own Python games do)."""
    registered = {t.short_name for t in pyspiel.registered_games()}
    for name in ENCODERS:
        spiel_type = game_type(name)
        if spiel_type.short_name in registered:
            continue
        factory = type(f"Meeple{name.title().replace('_', '')}SpielGame", (MeepleSpielGame,), {
            "game_name": name, "spiel_type": spiel_type, "__module__": __name__,
        })
        globals()[factory.__name__] = factory
        pyspiel.register_game(spiel_type, factory)


_register()
