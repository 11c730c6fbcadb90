"""What one seat knows about where hidden cards are, and the one sampler that honours it in ``determinize``.

Card games with hidden hands (Citadels §6, Palais Royal §7) must keep, in every determinization, each
fact the seat has seen and nothing more. Besides its own hand and the public table, a seat learns where
hidden cards are from a few events; the game applies each as an update to the seat's *record* here, and
``sample`` draws a world consistent with the record.

Hidden cards sit in *locations* (a hand, a pending draw, a deck whose order nobody knows, a face-down
pile), numbered by the game, whose slots are interchangeable, and at *deck positions* when the order of a
deck matters (Citadels puts cards under its deck). A record is an immutable value (clones share it; an
update returns a new one, or the same object when nothing changed):

- ``known[loc]``: cards the seat knows are in location ``loc`` (a swapped hand, a Graveyard take).
- ``facts``: (deck position, card) for cards the seat saw go under the deck.
- ``groups``: cards the seat knows are *somewhere* among a few places, not where: (known cards, number
  of slots in each location, deck positions). The group's places hold its known cards, and unknown
  cards in the slots left over. One arises when cards leave a location the seat knew cards of without
  it seeing which (they may be among them), or when cards it knew of move where it cannot follow them.

A location's slots not taken by its ``known`` cards or by a group hold unknown cards.

Deck positions are absolute: the top card has position ``deck_top`` (cards ever drawn from the top), the
next ``deck_top + 1``, and so on; a card keeps its position while it stays in the deck.

A location's slots are interchangeable, and a card the seat knows nothing of is as good as any other
unseen card, so most updates are exact. Where two sources of a card are possible and the record cannot
say "one or the other" (two groups meeting in one location, or a known card leaving a location that also
holds unknown cards), the sources merge into one group: the seat then forgets where exactly those cards
were confined. A record never states a fact the seat did not observe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any, Protocol

#: A deck position no card ever reaches: "no position is watched".
NOWHERE = 1 << 62

Cards = tuple[int, ...]  # card kinds, sorted
Fact = tuple[int, int]  # (deck position, kind)
Group = tuple[Cards, tuple[int, ...], tuple[int, ...]]  # (known kinds, slots per location, deck positions)
Record = tuple[tuple[Cards, ...], tuple[Fact, ...], tuple[Group, ...]]


class Shuffler(Protocol):
    def __call__(self, items: list[int], /) -> None: ...


def empty_record(locations: int) -> Record:
    return ((),) * locations, (), ()


# --- multisets as sorted tuples ----------------------------------------------------------------------


def _plus(cards: Cards, more: Iterable[int]) -> Cards:
    return tuple(sorted((*cards, *more)))


def _minus_one(cards: Cards, card: int) -> Cards:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _minus(cards: Iterable[int], taken: Iterable[int]) -> list[int]:
    """``cards`` without one copy of each of ``taken`` (which must all be there)."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


def _with(items: tuple[Any, ...], i: int, item: Any) -> tuple[Any, ...]:
    return (*items[:i], item, *items[i + 1 :])


def _merged(groups: Iterable[Group], locations: int) -> Group:
    known: list[int] = []
    slots = [0] * locations
    positions: list[int] = []
    for k, counts, p in groups:
        known.extend(k)
        for loc, n in enumerate(counts):
            slots[loc] += n
        positions.extend(p)
    return tuple(sorted(known)), tuple(slots), tuple(sorted(positions))


def _informative(groups: Iterable[Group]) -> tuple[Group, ...]:
    """Groups that still say something (a group with no known card is just unknown cards)."""
    return tuple(g for g in groups if g[0])


def _pooled(record: Record, loc: int, size: int) -> tuple[Group, tuple[Group, ...]]:
    """Everything about location ``loc`` (``size`` cards) as one group — its known cards, the groups with
    slots there (all their places) and its unknown cards — and the other groups."""
    known, _, groups = record
    touching = [g for g in groups if g[1][loc]]
    rest = tuple(g for g in groups if not g[1][loc])
    pooled = _merged(touching, len(known))
    return (_plus(pooled[0], known[loc]), _with(pooled[1], loc, size), pooled[2]), rest


# --- updates, seen from one record's seat ------------------------------------------------------------


def put_under_seen(record: Record, first: int, cards: Iterable[int]) -> Record:
    """The seat saw ``cards`` go under the deck at positions ``first``, ``first + 1``, …"""
    known, facts, groups = record
    return known, (*facts, *((first + i, c) for i, c in enumerate(cards))), groups


def _reaches(record: Record, end: int) -> bool:
    """Whether drawing the deck positions before ``end`` concerns anything the record knows."""
    _, facts, groups = record
    if facts and facts[0][0] < end:
        return True
    return any(positions and positions[0] < end for _, _, positions in groups)


def took_seen(record: Record, first: int, cards: Sequence[int]) -> Record:
    """The seat itself drew ``cards`` from the deck (positions from ``first``) and saw them."""
    end = first + len(cards)
    if not _reaches(record, end):
        return record
    known, facts, groups = record
    n = 0
    while n < len(facts) and facts[n][0] < end:
        n += 1
    changed: list[Group] = []
    for cards_known, slots, positions in groups:
        if positions and positions[0] < end:
            for p in positions:
                if p < end and cards[p - first] in cards_known:
                    cards_known = _minus_one(cards_known, cards[p - first])
            positions = tuple(p for p in positions if p >= end)
        changed.append((cards_known, slots, positions))
    return known, facts[n:], _informative(changed)


def took_unseen(record: Record, into: int, first: int, count: int) -> Record:
    """Someone drew ``count`` cards from position ``first`` into location ``into``, unseen by the seat:
    what the seat knew of them follows them (cards it knew nothing of are just more unknown cards)."""
    end = first + count
    if not _reaches(record, end):
        return record
    known, facts, groups = record
    n = 0
    while n < len(facts) and facts[n][0] < end:
        n += 1
    if n:
        known = _with(known, into, _plus(known[into], (kind for _, kind in facts[:n])))
    changed: list[Group] = []
    for cards_known, slots, positions in groups:
        if positions and positions[0] < end:
            kept = tuple(p for p in positions if p >= end)
            slots = _with(slots, into, slots[into] + len(positions) - len(kept))
            positions = kept
        changed.append((cards_known, slots, positions))
    return known, facts[n:], tuple(changed)


def moved_unseen(record: Record, source: int, target: int, count: int, source_size: int) -> Record:
    """``count`` of the ``source_size`` cards of location ``source`` went to location ``target`` without the
    seat seeing which: what it knew to be in ``source`` may now be in either."""
    known, facts, groups = record
    if not known[source] and not any(g[1][source] for g in groups):
        return record
    pooled, rest = _pooled(record, source, source_size)
    cards_known, slots, positions = pooled
    slots = _with(_with(slots, source, source_size - count), target, slots[target] + count)
    return _with(known, source, ()), facts, (*rest, (cards_known, slots, positions))


def discarded_unseen(record: Record, source: int, first: int, count: int, source_size: int) -> Record:
    """``count`` of the ``source_size`` cards of location ``source`` went under the deck at positions
    ``first``…, without the seat seeing which (or in what order)."""
    known, facts, groups = record
    if not known[source] and not any(g[1][source] for g in groups):
        return record
    pooled, rest = _pooled(record, source, source_size)
    cards_known, slots, positions = pooled
    group = (cards_known, _with(slots, source, source_size - count), (*positions, *range(first, first + count)))
    return _with(known, source, ()), facts, (*rest, group)


def moved_all(record: Record, source: int, target: int) -> Record:
    """Every card of location ``source`` went to location ``target`` (e.g. a pile shuffled into a deck)."""
    known, facts, groups = record
    if known[source]:
        known = _with(_with(known, target, _plus(known[target], known[source])), source, ())
    changed: list[Group] = []
    for cards_known, slots, positions in groups:
        if slots[source]:
            slots = _with(_with(slots, target, slots[target] + slots[source]), source, 0)
        changed.append((cards_known, slots, positions))
    return known, facts, tuple(changed)


def emptied(record: Record, loc: int) -> Record:
    """Location ``loc`` is now empty (a pending draw resolved, a deck run out)."""
    known, facts, groups = record
    if not known[loc] and not any(g[1][loc] for g in groups):
        return record
    return _with(known, loc, ()), facts, tuple((k, _with(s, loc, 0), p) for k, s, p in groups)


def removed_in_public(record: Record, loc: int, card: int, size: int) -> Record:
    """The seat saw ``card`` leave location ``loc``, which held ``size`` cards (a build, a card played)."""
    known, facts, groups = record
    if card in known[loc]:
        return _with(known, loc, _minus_one(known[loc], card)), facts, groups
    touching = [i for i, g in enumerate(groups) if g[1][loc]]
    if not touching:
        return record
    free = size - len(known[loc]) - sum(groups[i][1][loc] for i in touching)
    named = [i for i in touching if card in groups[i][0]]
    if not named and free:
        return record  # an unknown card: as good as any other
    if len(touching) == 1 and not free:
        i = touching[0]
        rest = groups
    else:  # the card may come from several sources: pool them
        group, others = _pooled((_with(known, loc, ()), facts, groups), loc, size - len(known[loc]))
        rest = (*others, group)
        i = len(rest) - 1
    cards_known, slots, positions = rest[i]
    if card in cards_known:
        cards_known = _minus_one(cards_known, card)
    group = (cards_known, _with(slots, loc, slots[loc] - 1), positions)
    return known, facts, _informative(_with(rest, i, group))


def gained_in_public(record: Record, loc: int, card: int) -> Record:
    """The seat saw ``card`` go into location ``loc`` (a Graveyard take, a card played to a hidden pile)."""
    known, facts, groups = record
    return _with(known, loc, _plus(known[loc], (card,))), facts, groups


def revealed(record: Record, loc: int, cards: Sequence[int]) -> Record:
    """The seat now sees all of location ``loc``: ``cards`` (its own hand after a swap, or hands at the end).

    A group's known cards found there may be the group's cards in that location: the group no longer
    counts on them (another copy elsewhere is then an unknown card of the group, so nothing is lost when
    the group had at least that many slots there).
    """
    known, facts, groups = record
    if not any(g[1][loc] for g in groups):
        return _with(known, loc, ()), facts, groups
    seen = _minus(cards, known[loc])
    changed: list[Group] = []
    for cards_known, slots, positions in groups:
        if slots[loc]:
            cards_known = tuple(_minus(cards_known, _common(cards_known, seen)))
            slots = _with(slots, loc, 0)
        changed.append((cards_known, slots, positions))
    return _with(known, loc, ()), facts, _informative(changed)


def _common(a: Iterable[int], b: Iterable[int]) -> list[int]:
    """The multiset intersection of ``a`` and ``b``."""
    rest = list(b)
    out = []
    for card in a:
        if card in rest:
            rest.remove(card)
            out.append(card)
    return out


def known_whole(record: Record, loc: int, cards: Iterable[int]) -> Record:
    """The seat knows all of location ``loc``: ``cards`` (a hand it gave away, a deck made of a public pile)."""
    known, facts, groups = record
    return _with(known, loc, tuple(sorted(cards))), facts, groups


def swapped(record: Record, me: int, a: int, b: int, a_had: Sequence[int], b_had: Sequence[int]) -> Record:
    """Locations ``a`` and ``b`` (two hands) exchanged their cards; ``me`` is the record's seat's own
    location (−1 for a spectator). Both owners know both hands after it."""
    known, facts, groups = record

    def relabel(items: tuple[Any, ...]) -> tuple[Any, ...]:
        out = list(items)
        out[a], out[b] = items[b], items[a]
        return tuple(out)

    record = relabel(known), facts, tuple((k, relabel(s), p) for k, s, p in groups)
    if me == a:
        return known_whole(revealed(record, a, b_had), b, a_had)
    if me == b:
        return known_whole(revealed(record, b, a_had), a, b_had)
    return record


def update_others(records: list[Record], seat: int, update: Any, *args: Any) -> bool:
    """Apply ``update(record, *args)`` in place to every record but ``seat``'s (−1: to all of them), for
    an event ``seat`` saw whole; whether any record changed (then what is watched must be refreshed)."""
    changed = False
    for me, record in enumerate(records):
        if me != seat:
            new = update(record, *args)
            if new is not record:
                records[me] = new
                changed = True
    return changed


def watch(records: Iterable[Record]) -> tuple[int, int]:
    """(the smallest deck position any record knows something of, the locations any record knows something
    of), so that a game skips the updates on the many events that concern no known card."""
    first = NOWHERE
    locations = 0
    for known, facts, groups in records:
        if facts and facts[0][0] < first:
            first = facts[0][0]
        for loc, cards in enumerate(known):
            if cards:
                locations |= 1 << loc
        for _, slots, positions in groups:
            for loc, n in enumerate(slots):
                if n:
                    locations |= 1 << loc
            if positions and positions[0] < first:
                first = positions[0]
    return first, locations


# --- the sampler -------------------------------------------------------------------------------------


def sample(
    record: Record,
    sizes: Sequence[int],
    hidden: Sequence[int],
    kinds: int,
    shuffle: Shuffler,
    deck_size: int = 0,
    deck_top: int = 0,
) -> tuple[list[list[int]], list[int]]:
    """A placement of the ``hidden`` cards consistent with ``record``: the contents of every location
    (``sizes[loc]`` cards; 0 for a location the seat sees) and of the positional deck, top first.

    ``hidden`` lists every hidden card, sorted, so that the sample depends only on what the seat knows;
    ``kinds`` bounds the card kinds; ``shuffle`` shuffles a list in place from the sampling generator.
    """
    known, facts, groups = record
    counts = [0] * kinds
    for card in hidden:
        counts[card] += 1
    for cards in known:
        for card in cards:
            counts[card] -= 1
    for _, card in facts:
        counts[card] -= 1
    for cards, _, _ in groups:
        for card in cards:
            counts[card] -= 1
    if min(counts) < 0:
        raise ValueError("the knowledge record names cards that are not hidden")
    unknown = [card for card in range(kinds) for _ in range(counts[card])]
    shuffle(unknown)
    out = [list(cards) for cards in known]
    fixed = {p - deck_top: card for p, card in facts}  # deck index -> card
    at = 0
    for cards, slots, positions in groups:
        size = sum(slots) + len(positions)
        content = [*cards, *unknown[at : at + size - len(cards)]]
        at += size - len(cards)
        shuffle(content)
        i = 0
        for loc, n in enumerate(slots):
            if n:
                out[loc].extend(content[i : i + n])
                i += n
        for p in positions:
            fixed[p - deck_top] = content[i]
            i += 1
    for loc, place in enumerate(out):
        free = sizes[loc] - len(place)
        if free:
            place.extend(unknown[at : at + free])
            at += free
    deck: list[int] = []
    for i in sorted(fixed):  # known cards sit mostly at the bottom: fill the gaps above them in slices
        gap = i - len(deck)
        deck.extend(unknown[at : at + gap])
        at += gap
        deck.append(fixed[i])
    gap = deck_size - len(deck)
    deck.extend(unknown[at : at + gap])
    at += gap
    if at != len(unknown) or len(deck) != deck_size or any(map(int.__ne__, map(len, out), sizes)):
        raise ValueError("the knowledge record does not fit the hidden places")
    return out, deck


def check_record(record: Record, contents: Sequence[Sequence[int] | None], deck: Sequence[int], deck_top: int) -> None:
    """Raise ValueError unless ``record`` fits these places (``contents[loc]`` is None for a location the
    record's seat sees, of which it holds no knowledge): its known cards and facts are there, each group's
    known cards are among its places, and no location has more known cards and group slots than cards."""
    known, facts, groups = record
    rest: list[list[int]] = []
    for loc, cards in enumerate(known):
        place = contents[loc]
        if place is None:
            if cards or any(g[1][loc] for g in groups):
                raise ValueError(f"a record holds knowledge of location {loc}, which its seat sees")
            rest.append([])
            continue
        rest.append(_minus(place, cards))  # raises if the location lacks one
        if len(cards) + sum(g[1][loc] for g in groups) > len(place):
            raise ValueError(f"location {loc} has more known cards and group slots than cards")
    used: set[int] = set()
    for p, card in facts:
        if not 0 <= p - deck_top < len(deck) or deck[p - deck_top] != card:
            raise ValueError(f"a fact places {card} at deck position {p}, which holds another card")
        used.add(p)
    for cards, slots, positions in groups:
        if len(slots) != len(known) or min(slots) < 0 or sum(slots) + len(positions) < len(cards):
            raise ValueError("a knowledge group has fewer places than known cards")
        places: list[int] = []
        for p in positions:
            if not 0 <= p - deck_top < len(deck) or p in used:
                raise ValueError(f"a knowledge group names deck position {p} twice or out of the deck")
            used.add(p)
            places.append(deck[p - deck_top])
        for loc, n in enumerate(slots):
            if n:
                places.extend(rest[loc])
        _minus(places, cards)


# --- saved form ----------------------------------------------------------------------------------------


def record_to_json(record: Record) -> list[Any]:
    known, facts, groups = record
    return [[list(h) for h in known], [list(f) for f in facts], [[list(k), list(c), list(p)] for k, c, p in groups]]


def record_from_json(data: Any, locations: int, kinds: int) -> Record:
    """Rebuild a saved record; malformed data raises ValueError/TypeError."""
    if not isinstance(data, list) or len(data) != 3:
        raise ValueError(f"bad knowledge record {data!r:.60}")
    raw_known, raw_facts, raw_groups = data
    if not isinstance(raw_known, list) or len(raw_known) != locations:
        raise ValueError(f"a knowledge record needs {locations} known locations")
    known = tuple(_sorted_kinds(h, kinds) for h in raw_known)
    facts = tuple((_int(f[0], NOWHERE), _int(f[1], kinds)) for f in _list(raw_facts) if _pair(f))
    if len(facts) != len(raw_facts) or any(a[0] >= b[0] for a, b in pairwise(facts)):
        raise ValueError("knowledge facts must be (position, card) pairs in position order")
    groups: list[Group] = []
    for raw in _list(raw_groups):
        if not isinstance(raw, list) or len(raw) != 3:
            raise ValueError(f"bad knowledge group {raw!r:.60}")
        cards = _sorted_kinds(raw[0], kinds)
        slots = tuple(_int(n, 1 << 16) for n in _list(raw[1]))
        positions = tuple(_int(p, NOWHERE) for p in _list(raw[2]))
        if not cards or len(slots) != locations or list(positions) != sorted(set(positions)):
            raise ValueError(f"bad knowledge group {raw!r:.60}")
        groups.append((cards, slots, positions))
    return known, facts, tuple(groups)


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {value!r:.60}")
    return value


def _int(value: Any, limit: int) -> int:
    if type(value) is not int or not 0 <= value < limit:
        raise ValueError(f"expected an integer in [0, {limit}), got {value!r:.60}")
    return value


def _pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2


def _sorted_kinds(value: Any, kinds: int) -> Cards:
    cards = tuple(_int(v, kinds) for v in _list(value))
    if list(cards) != sorted(cards):
        raise ValueError("known cards must be sorted")
    return cards
