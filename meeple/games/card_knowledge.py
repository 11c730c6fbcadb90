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
- ``groups``: cards the seat knows are *somewhere* among a few places, not where: (known cards, bitmask
  of the locations it covers, deck positions). A covered location's slots other than its ``known``
  cards all belong to the group; the group's slots that hold no known card hold unknown cards. One
  arises when cards leave a location the seat knew cards of without it seeing which (they may be
  among them), or when cards it knew of move where it cannot follow them.

Deck positions are absolute: the top card has position ``deck_top`` (cards ever drawn from the top), the
next ``deck_top + 1``, and so on; a card keeps its position while it stays in the deck.

Slots of a location are interchangeable, so every update is exact but one: when two groups meet in one
location (rare: it takes two uncertain moves into the same place), they merge, and the seat forgets
which of the two sets of places each group's cards were confined to. A record never states a fact the
seat did not observe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any, Protocol

#: A deck position no card ever reaches: "no position is watched".
NOWHERE = 1 << 62

Cards = tuple[int, ...]  # card kinds, sorted
Fact = tuple[int, int]  # (deck position, kind)
Group = tuple[Cards, int, tuple[int, ...]]  # (known kinds, covered locations bitmask, deck positions ascending)
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


def _covering(groups: tuple[Group, ...], loc: int) -> int:
    """The index of the group covering location ``loc``, or −1."""
    for i, (_, covers, _) in enumerate(groups):
        if covers >> loc & 1:
            return i
    return -1


def _merged(groups: Iterable[Group]) -> Group:
    known: list[int] = []
    covers = 0
    positions: list[int] = []
    for k, c, p in groups:
        known.extend(k)
        covers |= c
        positions.extend(p)
    return tuple(sorted(known)), covers, tuple(sorted(positions))


def _informative(groups: Iterable[Group]) -> tuple[Group, ...]:
    """Groups that still say something (a group with no known card is just unknown cards)."""
    return tuple(g for g in groups if g[0])


def _with_known(known: tuple[Cards, ...], loc: int, cards: Cards) -> tuple[Cards, ...]:
    return (*known[:loc], cards, *known[loc + 1 :])


def _with_group(groups: tuple[Group, ...], i: int, group: Group) -> tuple[Group, ...]:
    """``groups`` with the ``i``-th replaced by ``group``, dropping it if it no longer knows a card."""
    return (*groups[:i], group, *groups[i + 1 :]) if group[0] else (*groups[:i], *groups[i + 1 :])


def _joined(groups: tuple[Group, ...], locs: int, extra: Group) -> tuple[Group, ...]:
    """``extra`` merged with every group covering one of the ``locs`` (so each location has one group)."""
    meeting = [g for g in groups if g[1] & locs]
    if not meeting:
        return _informative((*groups, extra))
    rest = [g for g in groups if not g[1] & locs]
    return _informative((*rest, _merged((*meeting, extra))))


# --- updates, seen from one record's seat ------------------------------------------------------------


def put_under_seen(record: Record, first: int, cards: Iterable[int]) -> Record:
    """The seat saw ``cards`` go under the deck at positions ``first``, ``first + 1``, …"""
    known, facts, groups = record
    return known, (*facts, *((first + i, c) for i, c in enumerate(cards))), groups


def _reaches(record: Record, end: int, into_bit: int) -> bool:
    """Whether drawing the positions before ``end`` (into the locations of ``into_bit``) concerns the record."""
    _, facts, groups = record
    if facts and facts[0][0] < end:
        return True
    return any((positions and positions[0] < end) or covers & into_bit for _, covers, positions in groups)


def took_seen(record: Record, first: int, cards: Sequence[int]) -> Record:
    """The seat itself drew ``cards`` from the deck (positions from ``first``) and saw them."""
    end = first + len(cards)
    if not _reaches(record, end, 0):
        return record
    known, facts, groups = record
    n = 0
    while n < len(facts) and facts[n][0] < end:
        n += 1
    changed: list[Group] = []
    for cards_known, covers, positions in groups:
        if positions and positions[0] < end:
            for p in positions:
                if p < end and cards[p - first] in cards_known:
                    cards_known = _minus_one(cards_known, cards[p - first])
            positions = tuple(p for p in positions if p >= end)
        changed.append((cards_known, covers, positions))
    return known, facts[n:], _informative(changed)


def took_unseen(record: Record, into: int, first: int, count: int) -> Record:
    """Someone drew ``count`` cards from position ``first`` into location ``into``, unseen by the seat:
    what the seat knew of them follows them."""
    end = first + count
    if not _reaches(record, end, 1 << into):
        return record
    known, facts, groups = record
    n = 0
    while n < len(facts) and facts[n][0] < end:
        n += 1
    if n:
        known = _with_known(known, into, _plus(known[into], (kind for _, kind in facts[:n])))
    moving = [(k, c | 1 << into, tuple(p for p in pos if p >= end)) for k, c, pos in groups if pos and pos[0] < end]
    if not moving:
        return known, facts[n:], groups
    staying = tuple(g for g in groups if not (g[2] and g[2][0] < end))
    return known, facts[n:], _joined(staying, 1 << into, _merged(moving))


def moved_unseen(record: Record, source: int, target: int) -> Record:
    """Some cards of location ``source`` went to location ``target`` without the seat seeing which: the cards
    it knew in ``source`` may now be in either."""
    known, facts, groups = record
    held = _covering(groups, source)
    if not known[source] and held < 0:
        return record
    group = groups[held] if held >= 0 else ((), 0, ())
    rest = tuple(g for i, g in enumerate(groups) if i != held)
    extra = (_plus(group[0], known[source]), group[1] | 1 << source | 1 << target, group[2])
    return _with_known(known, source, ()), facts, _joined(rest, 1 << target, extra)


def moved_all(record: Record, source: int, target: int) -> Record:
    """Every card of location ``source`` went to location ``target`` (e.g. a pile shuffled into a deck)."""
    known, facts, groups = record
    if known[source]:
        known = _with_known(_with_known(known, target, _plus(known[target], known[source])), source, ())
    held = _covering(groups, source)
    if held < 0:
        return known, facts, groups
    cards_known, covers, positions = groups[held]
    rest = tuple(g for i, g in enumerate(groups) if i != held)
    return known, facts, _joined(rest, 1 << target, (cards_known, covers & ~(1 << source) | 1 << target, positions))


def discarded_unseen(record: Record, source: int, first: int, count: int) -> Record:
    """``count`` cards of location ``source`` went under the deck at positions ``first``…, without the seat
    seeing which (or in what order)."""
    known, facts, groups = record
    held = _covering(groups, source)
    if not known[source] and held < 0:
        return record
    cards_known, covers, positions = groups[held] if held >= 0 else ((), 0, ())
    group = (_plus(cards_known, known[source]), covers | 1 << source, (*positions, *range(first, first + count)))
    rest = tuple(g for i, g in enumerate(groups) if i != held)
    return _with_known(known, source, ()), facts, (*rest, group)


def emptied(record: Record, loc: int) -> Record:
    """Location ``loc`` is now empty (a pending draw resolved): no group covers it any more."""
    known, facts, groups = record
    bit = 1 << loc
    if not known[loc] and not any(c & bit for _, c, _ in groups):
        return record
    return _with_known(known, loc, ()), facts, tuple((k, c & ~bit, p) for k, c, p in groups)


def removed_in_public(record: Record, loc: int, card: int) -> Record:
    """The seat saw ``card`` leave location ``loc`` (a build, a card played, a refused card shown)."""
    known, facts, groups = record
    if card in known[loc]:
        return _with_known(known, loc, _minus_one(known[loc], card)), facts, groups
    held = _covering(groups, loc)
    if held >= 0 and card in groups[held][0]:
        cards_known, covers, positions = groups[held]
        return known, facts, _with_group(groups, held, (_minus_one(cards_known, card), covers, positions))
    return record


def gained_in_public(record: Record, loc: int, card: int) -> Record:
    """The seat saw ``card`` go into location ``loc`` (a Graveyard take, a card played to a hidden pile)."""
    known, facts, groups = record
    return _with_known(known, loc, _plus(known[loc], (card,))), facts, groups


def revealed(record: Record, loc: int, cards: Sequence[int]) -> Record:
    """The seat now sees all of location ``loc``: ``cards`` (its own hand after a swap, or hands at the end)."""
    known, facts, groups = record
    held = _covering(groups, loc)
    if held >= 0:
        cards_known, covers, positions = groups[held]
        for card in _minus(cards, known[loc]):  # the group's cards in that location
            if card in cards_known:
                cards_known = _minus_one(cards_known, card)
        groups = _with_group(groups, held, (cards_known, covers & ~(1 << loc), positions))
    return _with_known(known, loc, ()), facts, groups


def known_whole(record: Record, loc: int, cards: Iterable[int]) -> Record:
    """The seat knows all of location ``loc``: ``cards`` (a hand it gave away, a deck made of a public pile)."""
    known, facts, groups = record
    bit = 1 << loc
    return _with_known(known, loc, tuple(sorted(cards))), facts, tuple((k, c & ~bit, p) for k, c, p in groups)


def swapped(record: Record, me: int, a: int, b: int, a_had: Sequence[int], b_had: Sequence[int]) -> Record:
    """Locations ``a`` and ``b`` (two hands) exchanged their cards; ``me`` is the record's seat's own
    location (−1 for a spectator). Both owners know both hands after it."""
    known, facts, groups = record
    pair = 1 << a | 1 << b

    def relabel(covers: int) -> int:
        return covers & ~pair | (covers >> a & 1) << b | (covers >> b & 1) << a

    exchanged = list(known)
    exchanged[a], exchanged[b] = known[b], known[a]
    record = tuple(exchanged), facts, tuple((k, relabel(c), p) for k, c, p in groups)
    if me == a:
        return known_whole(revealed(record, a, b_had), b, a_had)
    if me == b:
        return known_whole(revealed(record, b, a_had), a, b_had)
    return record


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
        for _, covers, positions in groups:
            locations |= covers
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
    deck = [-1] * deck_size
    at = 0
    for cards, covers, positions in groups:
        slots = [(loc, sizes[loc] - len(known[loc])) for loc in range(len(sizes)) if covers >> loc & 1]
        size = sum(n for _, n in slots) + len(positions)
        content = [*cards, *unknown[at : at + size - len(cards)]]
        at += size - len(cards)
        shuffle(content)
        i = 0
        for loc, n in slots:
            out[loc].extend(content[i : i + n])
            i += n
        for p in positions:
            deck[p - deck_top] = content[i]
            i += 1
    for loc, place in enumerate(out):
        free = sizes[loc] - len(place)
        place.extend(unknown[at : at + free])
        at += free
    for p, card in facts:
        deck[p - deck_top] = card
    for i, card in enumerate(deck):
        if card < 0:
            deck[i] = unknown[at]
            at += 1
    if at != len(unknown) or any(len(place) != size for place, size in zip(out, sizes, strict=True)):
        raise ValueError("the knowledge record does not fit the hidden places")
    return out, deck


def check_record(record: Record, contents: Sequence[Sequence[int] | None], deck: Sequence[int], deck_top: int) -> None:
    """Raise ValueError unless every fact of ``record`` is true of these places; ``contents[loc]`` is None
    for a location the record's seat sees (it holds no knowledge of it)."""
    known, facts, groups = record
    for loc, cards in enumerate(known):
        place = contents[loc]
        if cards and place is None:
            raise ValueError(f"a record holds knowledge of location {loc}, which its seat sees")
        _minus(place or (), cards)  # raises if the location lacks one
    used: set[int] = set()
    for p, card in facts:
        if not 0 <= p - deck_top < len(deck) or deck[p - deck_top] != card:
            raise ValueError(f"a fact places {card} at deck position {p}, which holds another card")
        used.add(p)
    for cards, covers, positions in groups:
        places: list[int] = []
        for p in positions:
            if not 0 <= p - deck_top < len(deck) or p in used:
                raise ValueError(f"a knowledge group names deck position {p} twice or out of the deck")
            used.add(p)
            places.append(deck[p - deck_top])
        for loc, place in enumerate(contents):
            if covers >> loc & 1:
                if place is None:
                    raise ValueError(f"a knowledge group covers location {loc}, which its seat sees")
                places.extend(_minus(place, known[loc]))
        _minus(places, cards)
    covered = [c for _, c, _ in groups]
    if any(a & b for i, a in enumerate(covered) for b in covered[i + 1 :]):
        raise ValueError("two knowledge groups cover one location")


# --- saved form ----------------------------------------------------------------------------------------


def record_to_json(record: Record) -> list[Any]:
    known, facts, groups = record
    return [[list(h) for h in known], [list(f) for f in facts], [[list(k), c, list(p)] for k, c, p in groups]]


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
        covers = _int(raw[1], 1 << locations)
        positions = tuple(_int(p, NOWHERE) for p in _list(raw[2]))
        if not cards or list(positions) != sorted(set(positions)):
            raise ValueError(f"bad knowledge group {raw!r:.60}")
        groups.append((cards, covers, positions))
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
