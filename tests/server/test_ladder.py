"""``meeple ladder``: rated bot-vs-bot games recorded as the bot accounts' games, each stored with its
moves (its replay opens) and rated once."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

import tests.server.conftest  # noqa: F401  (registers the toy game)
from meeple.cli import app
from meeple.server.app import create_app
from meeple.server.config import Settings
from meeple.server.db import make_engine
from meeple.server.ladder import lineups
from meeple.server.models import Account, RatingChange
from meeple.server.store import Store


def test_lineups_seat_every_combination_of_distinct_levels_in_turn() -> None:
    chosen = lineups(["easy", "medium", "hard"], 2, 6, seed=5)
    assert [sorted(lineup) for lineup in chosen] == [["easy", "medium"], ["easy", "hard"], ["hard", "medium"]] * 2
    assert lineups(["easy", "medium"], 3, 1, seed=1)[0].count("easy") == 2  # more seats than levels: repeats


def test_the_ladder_command_rates_the_bot_levels_and_stores_replayable_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    # The toy game has no medium bot; easy and hard meet four times.
    result = CliRunner().invoke(app, ["ladder", "toy", "--games", "4", "--players", "2", "--levels", "easy,hard",
                                      "--seed", "11", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert result.output.count(" — won by ") == 4 and "rated games" in result.output
    store = Store(make_engine(url))
    with store.sessions() as session:
        bots = dict(session.execute(select(Account.bot_level, Account.name)
                                    .where(Account.bot_level.is_not(None))).all())
        assert bots == {"easy": "easy bot", "hard": "hard bot"}
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 8  # 4 games, 2 rated seats each
        tables = session.scalars(select(RatingChange.table_id).distinct()).all()
    board = store.leaderboard("toy", 2, 4)
    assert sorted(row["bot_level"] for row in board) == ["easy", "hard"]
    assert all(row["games"] == 4 and row["bot"] for row in board)
    store.engine.dispose()
    client = TestClient(create_app(Settings(database_url=url, bot_delay=0.0)))
    with client:
        replay = client.get(f"/api/tables/{tables[0]}/replay", params={"step": 1})
        assert replay.status_code == 200, replay.text
        profile = client.get("/api/players/hard bot").json()
        assert profile["player"]["bot"] is True and profile["games"][0]["rated_games"] == 4


def test_the_ladder_refuses_bad_levels_and_writes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    for levels in ("easy", "easy,easy", "easy,grandmaster", "easy,medium"):
        result = CliRunner().invoke(app, ["ladder", "toy", "--levels", levels, "--database-url", url])
        assert result.exit_code == 2 and "--levels" in result.output
    assert not (tmp_path / "site.sqlite3").exists()
