"""Citadels as typed data: what a seat sees (``CitadelsObservation``) and each action's ``{kind, args}``.

The observation holds the facts of ``view(seat)`` (docs/games/citadels.md, "Views and hidden
information") without the logs: districts are kinds (indexes into ``DISTRICT_SLUGS``), characters are
rank − 1 (indexes into ``CHARACTER_SLUGS``), ``-1`` means none. The seat's memory beyond its current
view (where cards it saw went) stays in the engine's knowledge record, as in ``view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.core.observation import ActionInfo, ArgValue, Lens, Observation, action_info, reads, reads_own
from meeple.games.citadels.actions import (
    ALL_ACTIONS,
    K_BUILD,
    K_DESTROY,
    K_DISCARD,
    K_DRAW,
    K_END,
    K_GOLD,
    K_GRAVE_PASS,
    K_GRAVE_TAKE,
    K_KEEP,
    K_KILL,
    K_LAB,
    K_PICK,
    K_REDRAW,
    K_REDRAW_DONE,
    K_ROB,
    K_SMITHY,
    K_SWAP,
    K_TAX,
    Act,
    action_from_notation,
)
from meeple.games.citadels.data import CHARACTER_SLUGS, DISTRICT_SLUGS
from meeple.games.citadels.events import E_PICKED, E_ROUND
from meeple.games.citadels.state import (
    P_DISCARD,
    P_GRAVE,
    P_KEEP,
    P_OVER,
    P_PICK,
    P_REDRAW,
    PHASE_NAMES,
    S_AUTO_FD,
    S_PICK,
)

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState


@dataclass(frozen=True, slots=True)
class CitadelsObservation(Observation):
    """One seat's knowledge of a Citadels game; per-seat tuples are indexed by seat."""

    phase: str  # pick, discard, turn, keep, redraw, graveyard or over
    round: int
    crown: int
    complete_at: int
    first_complete: int  # the first seat to complete its city, -1 for none yet
    deck_count: int
    gold: tuple[int, ...]
    hand_counts: tuple[int, ...]
    cities: tuple[tuple[int, ...], ...]  # [seat] districts in building order
    scores: tuple[int, ...]  # running totals
    hand: tuple[int, ...] | None  # the observer's districts in hand order; None for a spectator
    face_up: tuple[int, ...]  # this round's face-up character discards
    face_down_count: int
    face_down_seen: tuple[int, ...]  # face-down characters the observer saw this round
    my_characters: tuple[int, ...]  # characters the observer holds this round
    revealed: tuple[int, ...]  # [character] its holder once revealed (every one at game over), else -1
    murdered: int
    robbed: int
    offered_count: int  # pick / discard: characters offered to the seat deciding
    offered: tuple[int, ...] | None  # those characters, for that seat only
    character: int  # the character whose turn it is (turn, keep, redraw, graveyard), else -1
    turn_seat: int  # its holder, else -1
    gathered: bool
    builds_left: int
    tax_used: bool
    power_used: bool
    laboratory_used: bool
    smithy_used: bool
    drawn_count: int  # keep: cards drawn
    keeps_left: int
    drawn: tuple[int, ...] | None  # keep: those cards, for the drawer only
    marked: tuple[int, ...] | None  # redraw: the cards marked so far, for the Magician only
    graveyard_card: int  # graveyard: the destroyed district, else -1
    winners: tuple[int, ...]  # empty until the game is over
    final_hands: tuple[tuple[int, ...], ...] | None  # every hand, once the game is over
    final_characters: tuple[tuple[int, ...], ...] | None  # every seat's last characters, once over


def observe(state: CitadelsState, seat: int | None) -> CitadelsObservation:
    """The observation of ``seat``, from the facts ``_view`` shows."""
    n = state.players
    phase = state.phase
    over = phase == P_OVER
    holder = state.holder
    revealed_bits = 0xFF if over else state.revealed
    deciding = seat is not None and seat == state.cur
    selecting = phase in (P_PICK, P_DISCARD)
    in_turn = not selecting and not over
    return CitadelsObservation(
        game="citadels", players=n, seat=seat, current_player=state.current_player, is_over=over,
        phase=PHASE_NAMES[phase], round=state.round_no, crown=state.crown, complete_at=state.rules.cap,
        first_complete=state.first_complete, deck_count=len(state.deck),
        gold=tuple(state.gold), hand_counts=tuple(len(h) for h in state.hands),
        cities=tuple(tuple(c) for c in state.cities), scores=tuple(state.scores()),
        hand=tuple(state.hands[seat]) if seat is not None else None,
        face_up=tuple(state.faceup),
        face_down_count=len(state.facedown) + (1 if state.reserved >= 0 else 0),
        face_down_seen=tuple(state.seen_face_down(seat)) if seat is not None else (),
        my_characters=tuple(c for c in range(8) if holder[c] == seat) if seat is not None else (),
        revealed=tuple(holder[c] if revealed_bits >> c & 1 and holder[c] >= 0 else -1 for c in range(8)),
        murdered=state.killed, robbed=state.robbed,
        offered_count=len(state.pool) if selecting else 0,
        offered=tuple(state.pool) if selecting and deciding else None,
        character=state.rank if in_turn else -1, turn_seat=state.turn_seat if in_turn else -1,
        gathered=in_turn and state.gathered, builds_left=state.builds_left if in_turn else 0,
        tax_used=in_turn and state.tax_used, power_used=in_turn and state.power_used,
        laboratory_used=in_turn and state.lab_used, smithy_used=in_turn and state.smithy_used,
        drawn_count=len(state.drawn) if phase == P_KEEP else 0,
        keeps_left=state.keeps_left if phase == P_KEEP else 0,
        drawn=tuple(state.drawn) if phase == P_KEEP and deciding else None,
        marked=tuple(state.marked) if phase == P_REDRAW and deciding else None,
        graveyard_card=state.grave_card if phase == P_GRAVE else -1,
        winners=tuple(state.winners()) if over else (),
        final_hands=tuple(tuple(h) for h in state.hands) if over else None,
        final_characters=tuple(tuple(c for c in range(8) if holder[c] == s) for s in range(n)) if over else None,
    )


class CitadelsLens(Lens):
    """One seat's live window on a Citadels state (see ``Lens``): the ``CitadelsObservation`` fields read
    when asked, plus the public costs and points under the table's options, the city masks, the seat's
    memory of this round's draft and the Warlord's price (asked of the engine's rule).

    Lists and tuples returned are the engine's own where marked *read-only*: never change them.
    """

    __slots__ = ()
    _state: CitadelsState

    # --- the observation's fields ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        """pick, discard, turn, keep, redraw, graveyard or over."""
        return PHASE_NAMES[self._state.phase]

    round: int = reads("round_no")
    crown: int = reads("crown")
    complete_at: int = reads("rules.cap", "Districts that complete a city under the options.")
    first_complete: int = reads("first_complete")

    @property
    def deck_count(self) -> int:
        return len(self._state.deck)

    gold: list[int] = reads("gold", "[seat] gold (read-only).")

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(map(len, self._state.hands))

    cities: list[list[int]] = reads("cities", "[seat] districts in building order (read-only).")

    @property
    def scores(self) -> list[int]:
        """Running totals (a new list)."""
        return self._state.scores()

    hand: list[int] = reads_own("hands", "The seat's own districts in hand order (read-only).")
    face_up: list[int] = reads("faceup", "This round's face-up character discards (read-only).")

    @property
    def face_down_count(self) -> int:
        state = self._state
        return len(state.facedown) + (1 if state.reserved >= 0 else 0)

    @property
    def face_down_seen(self) -> list[int]:
        """Face-down characters the seat saw this round (its 2-player discards, the draft's leftover)."""
        return self._state.seen_face_down(self.seat)

    @property
    def my_characters(self) -> tuple[int, ...]:
        seat = self.seat
        return tuple([c for c, holder in enumerate(self._state.holder) if holder == seat])

    @property
    def revealed(self) -> tuple[int, ...]:
        """[character] its holder once revealed (every one at game over), else -1."""
        state = self._state
        if state.phase == P_OVER:
            return tuple(state.holder)  # -1 where nobody held it
        bits = state.revealed
        return tuple([holder if bits >> c & 1 else -1 for c, holder in enumerate(state.holder)])

    murdered: int = reads("killed")
    robbed: int = reads("robbed")

    @property
    def offered_count(self) -> int:
        state = self._state
        return len(state.pool) if state.phase in (P_PICK, P_DISCARD) else 0

    @property
    def offered(self) -> list[int] | None:
        """The characters offered to the seat while it picks or discards (read-only), else None."""
        state = self._state
        return state.pool if state.phase in (P_PICK, P_DISCARD) and state.cur == self.seat else None

    def _in_turn(self) -> bool:
        return self._state.phase not in (P_PICK, P_DISCARD, P_OVER)

    @property
    def character(self) -> int:
        """The character whose turn it is (turn, keep, redraw, graveyard), else -1."""
        return self._state.rank if self._in_turn() else -1

    @property
    def turn_seat(self) -> int:
        return self._state.turn_seat if self._in_turn() else -1

    @property
    def gathered(self) -> bool:
        return self._in_turn() and self._state.gathered

    @property
    def builds_left(self) -> int:
        return self._state.builds_left if self._in_turn() else 0

    @property
    def tax_used(self) -> bool:
        return self._in_turn() and self._state.tax_used

    @property
    def power_used(self) -> bool:
        return self._in_turn() and self._state.power_used

    @property
    def laboratory_used(self) -> bool:
        return self._in_turn() and self._state.lab_used

    @property
    def smithy_used(self) -> bool:
        return self._in_turn() and self._state.smithy_used

    @property
    def drawn_count(self) -> int:
        state = self._state
        return len(state.drawn) if state.phase == P_KEEP else 0

    @property
    def keeps_left(self) -> int:
        state = self._state
        return state.keeps_left if state.phase == P_KEEP else 0

    @property
    def drawn(self) -> list[int] | None:
        """Keep: the cards drawn, for the drawer only (read-only)."""
        state = self._state
        return state.drawn if state.phase == P_KEEP and state.cur == self.seat else None

    @property
    def marked(self) -> list[int] | None:
        """Redraw: the cards marked so far, for the Magician only (read-only)."""
        state = self._state
        return state.marked if state.phase == P_REDRAW and state.cur == self.seat else None

    @property
    def graveyard_card(self) -> int:
        state = self._state
        return state.grave_card if state.phase == P_GRAVE else -1

    @property
    def winners(self) -> tuple[int, ...]:
        state = self._state
        return tuple(state.winners()) if state.phase == P_OVER else ()

    @property
    def final_hands(self) -> tuple[tuple[int, ...], ...] | None:
        state = self._state
        return tuple(tuple(h) for h in state.hands) if state.phase == P_OVER else None

    @property
    def final_characters(self) -> tuple[tuple[int, ...], ...] | None:
        state = self._state
        if state.phase != P_OVER:
            return None
        holder = state.holder
        return tuple(tuple(c for c in range(8) if holder[c] == s) for s in range(state.players))

    # --- public facts under the options, and the seat's memory --------------------------------------

    district_costs: tuple[int, ...] = reads(
        "rules.cost", "[district] printed cost under the options (a 5-gold Observatory costs 5).")

    district_points: tuple[int, ...] = reads("rules.points", "[district] points it scores in a city under the options.")
    smithy_price: int = reads("rules.smithy_price")
    city_masks: list[int] = reads("masks", "[seat] the districts of its city as bits (1 << district; read-only).")

    @property
    def pick_order(self) -> list[int]:
        """The seats that pick a character this round, in their order (public from the crown)."""
        state = self._state
        return list(state.rules.pick_orders[state.round_crown()])

    @property
    def offered_pools(self) -> list[tuple[tuple[int, ...], int]]:
        """This round's picks by the seat, in order: (the characters it was offered, the one it took)."""
        seat = self.seat
        picks = []
        for entry in reversed(self._state.log):
            if entry[1] == E_ROUND and entry[0] < 0:
                break
            if entry[0] == seat and entry[1] == E_PICKED:
                picks.append((entry[3], entry[4]))
        picks.reverse()
        return picks

    @property
    def draft_picks(self) -> list[tuple[tuple[int, ...], int]]:
        """``offered_pools`` read from the draft's steps instead of the log: the same on a real state, and
        on a ``determinize`` copy (whose log keeps only the observer's entries) the pools and picks of the
        characters that copy dealt, which is what a search weighing its worlds needs."""
        state = self._state
        seat = self.seat
        pools = state._dealt_draft_pools()
        return [
            (tuple(sorted(pool)), c)
            for (st, kind, c), pool in zip(state.steps, pools, strict=False)  # pools end with the open one, no step
            if st == seat and kind == S_PICK and pool is not None
        ]

    @property
    def leftover_seen(self) -> int:
        """The draft's leftover character, which the seat saw go face down as the last picker, else -1."""
        seat = self.seat
        for st, kind, c in self._state.steps:
            if st == seat and kind == S_AUTO_FD:
                return c
        return -1

    def destroy_cost(self, target: int, district: int) -> int:
        """What the Warlord pays to destroy ``district`` in ``target``'s city (the engine's rule)."""
        return self._state.destroy_cost(target, district)


def lens(state: CitadelsState, seat: int) -> CitadelsLens:
    return CitadelsLens(state, seat)


# --- structured actions ------------------------------------------------------------------------
# kind = the notation's verb (``redraw:done`` is kind ``redraw_done``; ``graveyard:take`` / ``:pass``
# are kind ``graveyard`` with ``choice``); args: character (slug), district (slug), seat (int).

_CHARACTER_VERBS = {K_PICK: "pick", K_DISCARD: "discard", K_KILL: "kill", K_ROB: "rob"}
_DISTRICT_VERBS = {K_KEEP: "keep", K_BUILD: "build", K_REDRAW: "redraw", K_LAB: "lab"}
_PLAIN_VERBS = {K_GOLD: "gold", K_DRAW: "draw", K_TAX: "tax", K_SMITHY: "smithy", K_END: "end",
                K_REDRAW_DONE: "redraw_done"}


def _info(action: Act) -> ActionInfo:
    kind, notation = action.kind, action.notation
    if kind in _CHARACTER_VERBS:
        return action_info(notation, _CHARACTER_VERBS[kind], character=CHARACTER_SLUGS[action.a])
    if kind in _DISTRICT_VERBS:
        return action_info(notation, _DISTRICT_VERBS[kind], district=DISTRICT_SLUGS[action.a])
    if kind == K_SWAP:
        return action_info(notation, "swap", seat=action.a)
    if kind == K_DESTROY:
        return action_info(notation, "destroy", seat=action.a, district=DISTRICT_SLUGS[action.b])
    if kind in (K_GRAVE_TAKE, K_GRAVE_PASS):
        return action_info(notation, "graveyard", choice="take" if kind == K_GRAVE_TAKE else "pass")
    return action_info(notation, _PLAIN_VERBS[kind])


_INFOS: dict[Act, ActionInfo] = {action: _info(action) for action in ALL_ACTIONS.values()}


def describe_action(action: Act | str) -> ActionInfo:
    return _INFOS[action_from_notation(action) if isinstance(action, str) else action]


def notation_from_info(kind: str, args: Mapping[str, ArgValue]) -> str:
    """The notation with this verb and arguments, written from them (``ValueError`` if none is)."""
    if kind == "redraw_done":
        notation = "redraw:done"
    else:
        parts = [kind, *(str(args[key]) for key in ("seat", "character", "district", "choice") if key in args)]
        notation = ":".join(parts)
    if notation not in ALL_ACTIONS:
        raise ValueError(f"no Citadels action has kind {kind!r} and arguments {dict(args)!r}")
    return notation


def action_notations(players: int) -> tuple[str, ...]:
    """Every Citadels notation at ``players`` seats, in the order of ``actions.py``: swaps and
    destroys name existing seats only, and character discards exist only with 2 players."""
    out = []
    for action in ALL_ACTIONS.values():
        if action.kind in (K_SWAP, K_DESTROY) and action.a >= players:
            continue
        if action.kind == K_DISCARD and players != 2:
            continue
        out.append(action.notation)
    return tuple(out)
