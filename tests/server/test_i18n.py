"""The i18n loader merges each game's ``i18n/<game>/<lang>.json`` into the platform's words, lets a
language fall back to English key by key, and refuses a game file whose keys lack the ``<game>.`` prefix."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from meeple.server import i18n
from meeple.server.i18n import LANGUAGES, load_messages


def write(path: Path, data: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An i18n folder of our own: the four platform files, filled in by each test."""
    for language in LANGUAGES:
        write(tmp_path / f"{language}.json", {"lobby.hello": f"hello in {language}"} if language != "ja" else {})
    monkeypatch.setattr(i18n, "HERE", tmp_path)
    i18n._read.cache_clear()
    yield tmp_path
    i18n._read.cache_clear()


def test_game_files_are_merged_with_english_filling_the_gaps(words: Path) -> None:
    write(words / "toy" / "en.json", {"toy.card.a": "Ace", "toy.card.b": "Bee"})
    write(words / "toy" / "ja.json", {"toy.card.a": "エース"})
    write(words / "other" / "en.json", {"other.title": "Other"})

    ja = load_messages("ja")
    assert ja["toy.card.a"] == "エース"
    assert ja["toy.card.b"] == "Bee"  # missing in Japanese: English
    assert ja["lobby.hello"] == "hello in en"  # the platform's own words fall back too
    assert ja["other.title"] == "Other"
    hans = load_messages("zh-Hans")
    assert hans["lobby.hello"] == "hello in zh-Hans" and hans["toy.card.a"] == "Ace"


def test_a_game_file_may_not_hold_keys_outside_its_prefix(words: Path) -> None:
    write(words / "toy" / "en.json", {"toy.ok": "fine", "lobby.hello": "hijacked"})
    with pytest.raises(ValueError, match=re.escape("must start with 'toy.'")):
        load_messages("en")


def test_a_key_that_merely_starts_with_the_game_name_is_refused(words: Path) -> None:
    write(words / "toy" / "zh-Hant.json", {"toybox.title": "no dot after the game name"})
    with pytest.raises(ValueError, match=re.escape("toybox.title")):
        load_messages("zh-Hant")


def test_unknown_languages_are_refused() -> None:
    with pytest.raises(KeyError):
        load_messages("fr")


def test_the_shipped_game_files_load_in_every_language() -> None:
    i18n._read.cache_clear()
    english = load_messages("en")
    for game_dir in sorted(p for p in Path(i18n.__file__).parent.iterdir() if p.is_dir() and p.name != "__pycache__"):
        for language in LANGUAGES:
            path = game_dir / f"{language}.json"
            if not path.exists():
                continue
            messages = load_messages(language)
            data = json.loads(path.read_text(encoding="utf-8"))
            assert all(key.startswith(f"{game_dir.name}.") for key in data), path
            assert {key: messages[key] for key in data} == data, path
            assert set(data) <= set(english), f"{path}: keys missing in English"
