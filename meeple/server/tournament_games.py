"""Tournament games on the site: the games a ``meeple tournament --out`` folder keeps (``moves.jsonl``)
stored as finished tables, so that each opens in the browser's replay like a game played there
(``meeple import-tournament``).

Each game is played again from its seed and moves before it is stored, and must reach the scores of its
row in ``games.csv``: a folder edited by hand, or from another version of a game's rules, is refused with
the game that does not fit. The tables are unrated (a bot's rating comes from the ladder) and their ids
come from what they hold, so importing a folder again adds only the games not yet there.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from meeple.core.errors import IllegalAction
from meeple.core.registry import load_game
from meeple.server.store import BOT, FINISHED, SeatRow, Store, TableRow
from meeple.tournament import (
    GameMoves,
    GameRecord,
    ResultsFolderError,
    TournamentResult,
    read_moves,
    read_results,
    replay,
)


@dataclass(frozen=True)
class ImportedGame:
    """A kept tournament game as a table of the site; ``added`` is false when it was there already."""

    index: int
    table_id: str
    levels: list[str]  # by seat
    scores: list[int]  # by seat
    added: bool


def table_id_of(result: TournamentResult, game: GameMoves) -> str:
    """The same game always gets the same table id (and two games never share one): a hash of what
    makes the game, its rules' name, players, seed, options and moves."""
    made_of = json.dumps([result.game, len(result.kinds), game.seed, result.options, list(game.moves)],
                         sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(made_of.encode()).hexdigest()[:12]


def import_tournament(store: Store, folder: Path, games: Collection[int] | None = None,
                      on_game: Callable[[ImportedGame], None] | None = None) -> list[ImportedGame]:
    """Store the kept games of ``folder`` (those of ``games``, by index, when given) as finished tables.
    Every game is checked first, so a folder with one game that does not fit stores nothing; raises
    ``ResultsFolderError`` saying which."""
    result = read_results(folder)
    rows = {record.index: record for record in result.records}
    kept = read_moves(folder)
    if games is not None:
        missing = sorted(set(games) - {game.index for game in kept})
        if missing:
            raise ResultsFolderError(f"{folder} keeps no moves for game{'s' * (len(missing) > 1)} "
                                     f"{', '.join(str(index) for index in missing)}")
        kept = [game for game in kept if game.index in games]
    if not kept:
        raise ResultsFolderError(f"{folder} keeps no game's moves (its games were played before moves were kept)")
    tables = [_table(result, game, rows.get(game.index)) for game in kept]
    imported = []
    for game, (row, scores, winners) in zip(kept, tables, strict=True):
        added = store.load_table(row.id) is None
        if added:
            store.record_bot_game(row, scores, winners)
        levels = [seat.bot_level or "" for seat in row.seats]
        imported.append(ImportedGame(game.index, row.id, levels, scores, added))
        if on_game is not None:
            on_game(imported[-1])
    return imported


def _table(result: TournamentResult, game: GameMoves, record: GameRecord | None
           ) -> tuple[TableRow, list[int], list[int]]:
    """The game played again into a finished table, with its final scores and winners by seat."""
    if record is None:
        raise ResultsFolderError(f"game {game.index} has moves but no row in games.csv")
    players = len(result.kinds)
    moves: list[tuple[int, str]] = []
    tried = 0

    def keep(seat: int | None, notation: str) -> None:
        nonlocal tried
        tried += 1
        if seat is None:
            raise IllegalAction(f"{notation!r} comes after the game is over")
        moves.append((seat, notation))

    try:
        state = replay(result, game, on_move=keep)
    except IllegalAction as error:
        raise ResultsFolderError(f"game {game.index} does not play again here, move {tried}: {error}"
                                 ) from None
    scores = list(state.scores())
    if not state.is_over or tuple(scores[seat] for seat in game.seat_of_entry) != record.scores:
        raise ResultsFolderError(f"game {game.index} does not end as its row says (scores {record.scores} by lineup "
                                 f"entry there, {[scores[seat] for seat in game.seat_of_entry]} played again)")
    levels = [""] * players
    for entry, seat in enumerate(game.seat_of_entry):
        levels[seat] = result.kinds[entry]
    options = dict(load_game(result.game).resolve_options(result.options, players))
    now = datetime.now(UTC)
    row = TableRow(id=table_id_of(result, game), game=result.game, players=players, seed=game.seed, options=options,
                   status=FINISHED, host_token_hash="", created_at=now, finished_at=now,
                   seats=[SeatRow(BOT, bot_level=level) for level in levels], moves=moves, rated=False)
    return row, scores, list(state.winners())
