"""``meeple import-tournament``: a tournament's kept games become finished tables whose replays open on the
site, each checked to end as its row says; a folder that does not play again stores nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from meeple.cli import app
from meeple.server.app import create_app
from meeple.server.config import Settings
from meeple.server.db import make_engine
from meeple.server.models import GameTable, RatingChange
from meeple.server.store import Store
from meeple.tournament import GAMES_CSV, MOVES_JSONL, read_moves, run_tournament

runner = CliRunner()
LINEUP = ["medium", "easy", "easy"]


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kept") / "run"
    run_tournament("citadels", LINEUP, 3, seed=21, workers=1, out=folder)
    return folder


def _import(folder: Path, url: str, *more: str) -> tuple[int, str]:
    result = runner.invoke(app, ["import-tournament", str(folder), "--database-url", url, *more],
                           env={"COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.replace("│", " ").split())


def _tables(url: str) -> int:
    store = Store(make_engine(url))
    try:
        with store.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(GameTable)) or 0)
    finally:
        store.engine.dispose()


def test_kept_games_become_replays_on_the_site_once(kept: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    code, output = _import(kept, url)
    assert code == 0, output
    assert "3 games added, 0 already there" in output
    ids = [part.split("/")[2] for part in output.split() if part.startswith("/tables/")]
    assert len(ids) == 3 == len(set(ids))

    store = Store(make_engine(url))
    try:
        for game, table_id in zip(read_moves(kept), ids, strict=True):
            row = store.load_table(table_id)
            assert row is not None and row.status == "finished" and not row.rated
            assert [notation for _seat, notation in row.moves] == list(game.moves)
            levels = [seat.bot_level for seat in row.seats]
            assert [levels[seat] for seat in game.seat_of_entry] == LINEUP  # each entry at its rotated seat
        with store.sessions() as session:
            assert session.scalar(select(func.count()).select_from(RatingChange)) == 0  # not rated
    finally:
        store.engine.dispose()

    # Again, and one game alone: nothing is added twice.
    assert _import(kept, url)[1].endswith("0 games added, 3 already there")
    code, output = _import(kept, url, "--game", "1")
    assert code == 0 and f"game 1: /tables/{ids[1]}/replay" in output and "(already there)" in output
    assert _tables(url) == 3

    # The site replays them: the last step is the game's end, with the scores of its row.
    with TestClient(create_app(Settings(database_url=url, bot_delay=0.0))) as client:
        first = client.get(f"/api/tables/{ids[0]}/replay", params={"step": 0}).json()
        last = client.get(f"/api/tables/{ids[0]}/replay", params={"step": first["steps"]}).json()
        assert first["steps"] == len(read_moves(kept)[0].moves)
        assert last["is_over"] is True and first["is_over"] is False


def test_a_game_that_does_not_play_again_stores_nothing(kept: Path, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    forged = tmp_path / "forged"
    forged.mkdir()
    for path in kept.iterdir():
        (forged / path.name).write_bytes(path.read_bytes())
    lines = (forged / MOVES_JSONL).read_text().splitlines(keepends=True)
    game = json.loads(lines[2])
    game["moves"][5] = "build:palace"  # not what was played, nor legal there
    lines[2] = json.dumps(game) + "\n"
    (forged / MOVES_JSONL).write_text("".join(lines))
    code, output = _import(forged, url)
    assert code == 2 and "game 2 does not play again here, move 6" in output, output
    assert _tables(url) == 0  # the two good games before it were not stored either

    (forged / MOVES_JSONL).write_text((kept / MOVES_JSONL).read_text())
    rows = (forged / GAMES_CSV).read_text().splitlines(keepends=True)
    cells = rows[1].split(",")
    cells[6] = str(int(cells[6]) + 1)  # game 0's first entry claims one point more than it scored
    (forged / GAMES_CSV).write_text("".join([rows[0], ",".join(cells), *rows[2:]]))
    code, output = _import(forged, url)
    assert code == 2 and "game 0 does not end as its row says" in output, output
    assert _tables(url) == 0

    code, output = _import(kept, url, "--game", "7")
    assert code == 2 and "keeps no moves for game 7" in output
    assert _tables(url) == 0
