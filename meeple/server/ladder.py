"""The bot ladder: rated bot-vs-bot games between the bot levels, so each level has a rating per game
and a player sees where they stand against each (``meeple ladder``).

Each game seats a different combination of levels (every level once when there are enough seats, in
a seat order drawn from the game's seed) and is stored like any finished table (its moves, so its
replay opens on the site) and rated in the transaction that stores it, as the bot accounts' games.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from meeple.bots import make_bot
from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.server.store import BOT, FINISHED, SeatRow, Store, TableRow


@dataclass(frozen=True)
class LadderGame:
    """One finished ladder game: its table, the level at each seat, and who won."""

    table_id: str
    levels: list[str]
    scores: list[int]
    winners: list[int]


def lineups(levels: Sequence[str], players: int, games: int, seed: int) -> list[list[str]]:
    """The levels at each seat of each game: the combinations of distinct levels in turn (levels
    repeat only when there are more seats than levels), each game's seats in a shuffled order."""
    if players <= len(levels):
        pool = [list(combo) for combo in itertools.combinations(levels, players)]
    else:
        pool = [[levels[i % len(levels)] for i in range(players)]]
    chosen: list[list[str]] = []
    for index in range(games):
        lineup = list(pool[index % len(pool)])
        Rng(seed + index).shuffle(lineup)
        chosen.append(lineup)
    return chosen


def play_ladder(store: Store, game_name: str, players: int, levels: Sequence[str], games: int, seed: int,
                options: dict[str, Any] | None = None,
                on_game: Callable[[LadderGame], None] | None = None) -> list[LadderGame]:
    """Play ``games`` ladder games of ``game_name`` and store each as a rated finished table."""
    game = load_game(game_name)
    game.check_players(players)
    resolved = dict(game.resolve_options(options or {}, players))
    played: list[LadderGame] = []
    for index, lineup in enumerate(lineups(levels, players, games, seed)):
        game_seed = seed + index
        state = game.new_game(players=players, seed=game_seed, options=resolved)
        bots = [make_bot(level, seed=f"ladder:{game_seed}:{seat}") for seat, level in enumerate(lineup)]
        moves: list[tuple[int, str]] = []
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            notation = str(bots[seat].choose(state))
            state.apply(notation)
            moves.append((seat, notation))
        now = datetime.now(UTC)
        row = TableRow(id=secrets.token_hex(5), game=game.name, players=players, seed=game_seed, options=resolved,
                       status=FINISHED, host_token_hash="", created_at=now, finished_at=now,
                       seats=[SeatRow(BOT, bot_level=level) for level in lineup], moves=moves, rated=True)
        result = LadderGame(row.id, lineup, list(state.scores()), list(state.winners()))
        store.record_bot_game(row, result.scores, result.winners)
        played.append(result)
        if on_game is not None:
            on_game(result)
    return played
