"""The engine contract: what every game offers, so the server, bots, CLI and research API need not
know which game they drive.

A ``Game`` is frozen metadata plus a factory; a ``GameState`` is one game in progress. Actions are
small immutable values whose ``str()`` is their notation; ``apply`` takes an action or its notation.

>>> from meeple import load_game
>>> game = load_game("citadels")
>>> state = game.new_game(players=4, seed=7)
>>> action = state.legal_actions()[0]
>>> state.apply(str(action))
>>> state.history[-1] == str(action)
True
"""

from __future__ import annotations

import importlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from meeple.core.benefits import OptionalBenefits
from meeple.core.errors import IllegalAction, InvalidOptions, InvalidSeat, InvalidState
from meeple.core.observation import ActionInfo, ArgValue, Lens, Observation, ObservationAPI
from meeple.core.options import Option, OptionSet, OptionValue
from meeple.core.rng import Rng, as_rng

JSON = dict[str, Any]
STATE_FORMAT = 1
#: Imported observation modules by name (``Game.observation_module``), so asking costs a dict lookup.
_OBSERVATION_APIS: dict[str | None, ObservationAPI] = {}
#: Their ``lens`` functions by module name: a bot asks for a lens on every decision of a search.
_LENS_MAKERS: dict[str | None, Callable[[Any, int], Lens]] = {}


class Action(Hashable, Protocol):
    """Any immutable, hashable value whose ``str()`` is its notation."""

    def __str__(self) -> str: ...


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="GameState[Any]")


class Game(ABC, Generic[S]):
    """A game's metadata and the way to start or restore one.

    Subclasses set the class attributes and ``state_class``; instances hold no mutable data, so one
    instance serves any number of games.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_set: ClassVar[OptionSet] = OptionSet(())
    state_class: ClassVar[type[GameState[Any]]]
    optional_benefits: ClassVar[OptionalBenefits | None] = None
    """Which action kinds close a turn or step and which are optional benefits (``meeple.core.benefits``);
    ``action_hints`` then names, for a closing action, the benefits it would leave unused."""

    @property
    def options(self) -> dict[str, Option]:
        """Option name -> its ``Option`` (default, allowed values, description)."""
        return self.option_set.by_name

    @property
    def presets(self) -> Mapping[str, Mapping[str, OptionValue]]:
        return self.option_set.presets

    def resolve_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        """Validate what a user passed and fill in defaults. Games override to add cross-checks."""
        return self.option_set.resolve(options)

    def check_players(self, players: int) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {players!r}"
            )

    def new_game(self, players: int, seed: int | None = None, options: Mapping[str, Any] | None = None) -> S:
        """A new game; the same players, seed and options always give the same game.

        Without a seed, a fresh random one is drawn and kept in the state (``state.seed``).
        """
        self.check_players(players)
        if seed is None:
            seed = secrets.randbits(63)
        elif type(seed) is not int:
            raise InvalidOptions(f"a seed must be an integer, not {seed!r}")
        resolved = self.resolve_options(options, players)
        state = self.state_class.__new__(self.state_class)
        state._init_common(self, players, seed, resolved, Rng(seed))
        state.setup()
        state._undo_floor = 0  # what setup dealt is no action of anyone's
        return state  # type: ignore[return-value]

    def from_json(self, data: Mapping[str, Any]) -> S:
        """Restore a state saved by ``state.to_json()``; invalid documents raise ``InvalidState``."""
        if not isinstance(data, Mapping):
            raise InvalidState("a saved state must be a JSON object")
        if data.get("game") != self.name:
            raise InvalidState(f"this is a saved {data.get('game')!r} game, not {self.name!r}")
        if data.get("format") != STATE_FORMAT:
            raise InvalidState(f"unsupported state format {data.get('format')!r}")
        try:
            players = data["players"]
            self.check_players(players)
            seed = data["seed"]
            if type(seed) is not int:
                raise InvalidState("seed must be an integer")
            options = self.resolve_options(data["options"], players)
            rng = Rng.from_json(data["rng"])
            history = data["history"]
            if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
                raise InvalidState("history must be a list of strings")
            state = self.state_class.__new__(self.state_class)
            state._init_common(self, players, seed, options, rng)
            state._history_notations = list(history)
            floor = data.get("undo_floor", len(history))  # saved before undo existed: nothing undoable
            if type(floor) is not int or not 0 <= floor <= len(history):
                raise InvalidState(f"undo_floor must be an integer between 0 and {len(history)}, not {floor!r}")
            state._undo_floor = floor
            state.load_body(data["body"])
        except InvalidState:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise InvalidState(f"not a valid saved {self.name} state: {type(error).__name__}: {error}") from error
        return state  # type: ignore[return-value]

    # --- typed observations and structured actions (meeple/core/observation.py) ----------------

    #: The module holding the game's ``ObservationAPI`` (``"meeple.games.<name>.observation"``), imported
    #: on first use; ``None``: the game offers no typed observation nor structured actions.
    observation_module: ClassVar[str | None] = None

    def _observation_api(self) -> ObservationAPI:
        api = _OBSERVATION_APIS.get(self.observation_module)
        if api is None:
            if self.observation_module is None:
                raise NotImplementedError(f"{self.title} has no typed observation nor structured actions")
            api = _OBSERVATION_APIS[self.observation_module] = importlib.import_module(self.observation_module)
        return api

    def observe(self, state: S, seat: int | None) -> Observation:
        """What ``seat`` may know of ``state`` as typed data; called through ``state.observation``."""
        return self._observation_api().observe(state, seat)

    def lens(self, state: S, seat: int) -> Lens:
        """A live window on ``state`` for ``seat``; called through ``state.lens``."""
        make = _LENS_MAKERS.get(self.observation_module)
        if make is None:
            api = self._observation_api()
            if not hasattr(api, "lens"):
                raise NotImplementedError(f"{self.title} offers no lens (its observation module has no lens())")
            make = _LENS_MAKERS[self.observation_module] = api.lens
        return make(state, seat)

    def action_info(self, action: Action | str) -> ActionInfo:
        """An action (or its notation) as ``{notation, kind, args}``: the same object for the same action."""
        return self._observation_api().describe_action(action)

    def notation_from_info(self, kind: str, args: Mapping[str, ArgValue]) -> str:
        """The notation of the action with this ``kind`` and ``args`` (the inverse of ``action_info``);
        ``ValueError`` if no action has them."""
        return self._observation_api().notation_from_info(kind, args)

    def action_notations(self, players: int) -> tuple[str, ...]:
        """Every notation an action can have at a table of ``players``, legal or not, in a fixed order
        derived from the game's components (the research API's action tables are built from it)."""
        return self._observation_api().action_notations(players)

    def components(self) -> JSON:
        """The printed components (costs, types, steps, board layout) as public JSON facts, so a client
        draws a table without copying the rules' tables; ``{}`` when a game offers none. Never state."""
        return {}

    def describe(self) -> JSON:
        """JSON-safe metadata, for the lobby, the CLI and the docs."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            **self.option_set.describe(),
        }

    def __repr__(self) -> str:
        return f"load_game({self.name!r})"


class GameState(ABC, Generic[A]):
    """One game in progress. Mutable: ``apply`` changes it in place; ``clone`` gives a copy.

    Subclasses implement the abstract methods. Legality lives in one place: ``legal_actions``.
    ``apply`` accepts only what it lists (by value or by notation), so what a bot is offered and what
    the server accepts can never disagree.
    """

    game: Game[Any]
    players: int
    seed: int
    options: dict[str, OptionValue]
    rng: Rng
    _history_notations: list[str]
    _undo_floor: int
    """How many leading history entries can never be taken back (see ``undo_floor``)."""
    _log_views: Any
    """The converted log entries a game's views reuse (``meeple.core.logview``), or ``None``."""

    def _init_common(
        self, game: Game[Any], players: int, seed: int, options: dict[str, OptionValue], rng: Rng
    ) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = rng
        self._history_notations = []
        self._undo_floor = 0
        self._log_views = None

    # --- what a game implements -------------------------------------------------------------

    @abstractmethod
    def setup(self) -> None:
        """Lay out a new game from ``self.options`` and ``self.rng``."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> Sequence[A]:
        """Every action open to ``current_player`` now; empty once the game is over."""

    @abstractmethod
    def _apply(self, action: A) -> None:
        """Carry out a legal action (already checked) and every automatic step after it."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score: final once over, the running score before."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats after the official tie-breaks (several only for a shared win)."""

    def view(self, seat: int | None) -> JSON:
        """A JSON-safe dict of exactly what ``seat`` may know; ``None`` is a spectator.

        The seat is checked here, once for every game: a game's ``_view`` indexes its per-seat lists,
        where ``-1`` would quietly be the last seat and show that seat's hand.
        """
        self._check_seat(seat)
        return self._view(seat)

    def views(self, seats: Sequence[int | None]) -> list[JSON]:
        """``view(seat)`` of each of ``seats``, in order, equal to calling ``view`` for each. A game may
        build the parts every seat sees once and share them between the views (the server builds
        every watched seat's view after each move, and diffs a shared part once); shared or not, a
        view is for reading."""
        for seat in seats:
            self._check_seat(seat)
        return self._views(seats)

    def _views(self, seats: Sequence[int | None]) -> list[JSON]:
        """The views of valid seats; called only through ``views``. By default one ``_view`` each."""
        return [self._view(seat) for seat in seats]

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know, as a typed frozen ``Observation`` (the facts of ``view(seat)`` without
        the logs); built only when asked for. ``None`` is a spectator."""
        self._check_seat(seat)
        return self.game.observe(self, seat)

    def lens(self, seat: int) -> Lens:
        """What ``seat`` may know, read live from this state when asked (see ``Lens``): the cheap
        form of ``observation`` for bots deciding inside a search. Valid until the state changes."""
        if type(seat) is not int or not 0 <= seat < self.players:  # one test on the usual path
            if seat is None:
                raise InvalidSeat("a lens is for a seat that decides, not for a spectator")
            self._check_seat(seat)
        make = _LENS_MAKERS.get(self.game.observation_module)  # Game.lens, inlined: once per bot decision
        return make(self, seat) if make is not None else self.game.lens(self, seat)

    def action_seen_by(self, action: A, seat: int) -> Hashable:
        """What ``seat`` learns of ``action`` when the seat to move plays it now: the action itself where
        everyone sees it (the default), else a token shared by every action it cannot tell apart (a
        character taken face down). A search keys its tree by it (``ISMCTSBot(unseen_moves=...)``), so
        that its seat's later choices do not rest on another seat's move it could not see."""
        return action

    def action_info(self, action: A | str) -> ActionInfo:
        """An action (or its notation) as ``{notation, kind, args}``; it need not be legal now."""
        return self.game.action_info(action)

    def legal_action_infos(self) -> list[ActionInfo]:
        """``action_info`` of every legal action, in ``legal_actions()`` order."""
        info = self.game.action_info
        return [info(action) for action in self.legal_actions()]

    def action_hints(self) -> list[JSON] | None:
        """What the engine knows about each legal action now that a client shows beside it, one JSON
        object per action in ``legal_actions()`` order, or None when the game has nothing to say about
        this decision. Every game with ``optional_benefits``: ``{"forgoes": [benefit, ...]}`` for an
        action that would leave them unused; Burgundy adds ``{"workers": n}``, a die action's cost.

        The rule stays in the engine: a page reads the figure instead of computing it again."""
        benefits = self.game.optional_benefits
        if benefits is None:
            return None
        forgone = benefits.forgone([info.kind for info in self.legal_action_infos()])
        if forgone is None:
            return None
        return [{"forgoes": names} if names else {} for names in forgone]

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise InvalidSeat(f"no seat {seat!r} at a {self.players}-player table: a view is for seats "
                              f"0–{self.players - 1}, or None for a spectator")

    @abstractmethod
    def _view(self, seat: int | None) -> JSON:
        """The view of a valid seat (or ``None``); called only through ``view``."""

    @abstractmethod
    def dump_body(self) -> JSON:
        """The game-specific part of ``to_json`` (everything but players, seed, options, RNG, history)."""

    @abstractmethod
    def load_body(self, body: JSON) -> None:
        """Restore what ``dump_body`` wrote; raise ``InvalidState`` (or KeyError/TypeError/ValueError)."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, cheap enough for search bots."""

    @abstractmethod
    def determinize(self, seat: int | None, rng: Rng | int | None = None) -> Self:
        """A copy in which all that ``seat`` cannot see is resampled consistently with what it saw."""

    def stats(self) -> dict[str, int]:
        """Figures for simulation reports; games add their own (e.g. ``rounds``)."""
        return {"actions": len(self._history_notations)}

    def expand_notation(self, notation: str) -> list[str] | None:
        """Shorthands a game accepts besides its atomic notations (e.g. several cards at once).

        Returns the atomic notations it stands for, or ``None`` if it is not a shorthand.
        """
        return None

    # --- shared behaviour --------------------------------------------------------------------

    def apply(self, action: A | str) -> None:
        """Apply a legal action or its notation; anything else raises ``IllegalAction`` and changes nothing."""
        if isinstance(action, str):
            resolved = self._find_notation(action)
            if resolved is None:
                expansion = self.expand_notation(action)
                if not expansion:
                    raise self._refusal(action)
                trial = self.clone()
                for step in expansion:
                    trial.apply(step)
                for step in expansion:
                    self.apply(step)
                return
        else:
            if self.is_over:
                raise IllegalAction(f"the game is over; {action} is not possible")
            if action not in self.legal_actions():
                raise self._refusal(str(action))
            resolved = action
        rng_before = self.rng.state
        self._apply(resolved)
        self._history_notations.append(str(resolved))
        self._seal_if_drawn(rng_before)

    def _seal_if_drawn(self, rng_before: int) -> None:
        """After an action is recorded: if it drew from the RNG (its state is no longer ``rng_before``),
        it cannot be undone, since taken back it could be drawn again differently. A game whose
        ``apply`` takes a fast path calls this too."""
        if self.rng.state != rng_before:
            self._undo_floor = len(self._history_notations)

    @property
    def undo_floor(self) -> int:
        """How many leading ``history`` entries can never be taken back: an action that drew from the
        RNG or showed anyone something hidden (a card drawn from a deck, a character revealed) raises
        it past itself, since taking it back would let its player try again knowing more. The RNG is
        watched here for every game; a game marks its reveals with ``seal_history`` in ``_apply``."""
        return self._undo_floor

    def seal_history(self) -> None:
        """Called by a game's ``_apply`` (or an automatic step inside it) when the action being applied
        shows someone hidden information: neither it nor anything before it can be undone."""
        self._undo_floor = len(self._history_notations) + 1

    def _find_notation(self, notation: str) -> A | None:
        if self.is_over:
            raise IllegalAction(f"the game is over; {notation!r} is not possible")
        for candidate in self.legal_actions():
            if str(candidate) == notation:
                return candidate
        return None

    def _refusal(self, notation: str) -> IllegalAction:
        legal = [str(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:12]) + (f", … ({len(legal)} in all)" if len(legal) > 12 else "")
        return IllegalAction(
            f"{notation!r} is not a legal action for seat {self.current_player} now; legal: {shown}"
        )

    def is_legal(self, action: A | str) -> bool:
        if self.is_over:
            return False
        if isinstance(action, str):
            return any(str(a) == action for a in self.legal_actions())
        return action in self.legal_actions()

    def undoable_moves(self, seat: int, actors: Sequence[int]) -> int:
        """How many of the last moves ``seat`` may take back now (``actors[i]``: who made move ``i``):
        its own consecutive last moves, past the ``undo_floor``, while it is still its turn."""
        if self.is_over or self.current_player != seat or len(actors) != len(self._history_notations):
            return 0
        count = 0
        for index in range(len(actors) - 1, self._undo_floor - 1, -1):
            if actors[index] != seat:
                break
            count += 1
        return count

    def undone(self, moves: int) -> Self:
        """This game as it was ``moves`` actions ago, replayed from seed, options and history (the
        state itself is left alone); ``IllegalAction`` if that reaches below ``undo_floor``."""
        keep = len(self._history_notations) - moves
        if type(moves) is not int or moves < 1 or keep < self._undo_floor:
            raise IllegalAction(f"cannot take back {moves!r} moves: only the last "
                                f"{len(self._history_notations) - self._undo_floor} came after the last draw or reveal")
        earlier = self.game.new_game(players=self.players, seed=self.seed, options=self.options)
        for notation in self._history_notations[:keep]:
            earlier.apply(notation)
        return earlier  # type: ignore[no-any-return]

    @property
    def history(self) -> list[str]:
        """The notations of every applied action, in order."""
        return list(self._history_notations)

    def to_json(self) -> JSON:
        """The full state, RNG included, as JSON-safe data that ``game.from_json`` restores exactly."""
        return {
            "game": self.game.name,
            "format": STATE_FORMAT,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.to_json(),
            "history": list(self._history_notations),
            "undo_floor": self._undo_floor,
            "body": self.dump_body(),
        }

    def _copy_common_to(self, other: GameState[A]) -> None:
        """Share the immutable parts and copy the mutable common ones into a fresh instance."""
        other.game = self.game
        other.players = self.players
        other.seed = self.seed
        other.options = self.options  # never mutated after setup
        other.rng = self.rng.copy()
        other._history_notations = list(self._history_notations)
        other._undo_floor = self._undo_floor
        other._log_views = self._log_views  # shared; checked against the log before use (core/logview.py)

    def _determinization_rng(self, rng: Rng | int | None) -> Rng:
        return as_rng(rng, fallback=self.rng.copy())

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} seed={self.seed} "
            f"actions={len(self._history_notations)} current_player={self.current_player}>"
        )
