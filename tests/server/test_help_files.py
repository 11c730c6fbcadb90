"""Every rules-help file under meeple/web/help/<game>/ parses, follows the schema the table page's help
panel reads, exists in all four languages, and has the same sections and entry counts in each; the
components a section lists are ones the game explains (meeple/server/explain.py), the same in each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.explain import EXPLAINERS, explain
from meeple.server.i18n import LANGUAGES

HELP = Path(__file__).resolve().parents[2] / "meeple" / "web" / "help"
GAMES = sorted(p.name for p in HELP.iterdir() if p.is_dir()) if HELP.is_dir() else []


def check_schema(doc: Any, where: str) -> None:
    assert isinstance(doc, dict), where
    assert set(doc) == {"title", "how_to_play", "sections"}, f"{where}: keys {sorted(doc)}"
    assert isinstance(doc["title"], str) and doc["title"].strip(), f"{where}: title"
    paragraphs = doc["how_to_play"]
    assert isinstance(paragraphs, list) and paragraphs, f"{where}: how_to_play must be a non-empty list"
    assert all(isinstance(p, str) and p.strip() for p in paragraphs), f"{where}: how_to_play paragraphs"
    sections = doc["sections"]
    assert isinstance(sections, list) and sections, f"{where}: sections must be a non-empty list"
    for index, section in enumerate(sections):
        at = f"{where}: sections[{index}]"
        assert isinstance(section, dict) and "heading" in section, at
        assert set(section) - {"heading"} <= {"entries", "components"}, f"{at}: keys {sorted(section)}"
        assert isinstance(section["heading"], str) and section["heading"].strip(), at
        entries = section.get("entries", [])
        components = section.get("components", [])
        assert isinstance(entries, list) and isinstance(components, list), at
        assert entries or components, f"{at}: a section needs entries or components"
        assert all(isinstance(c, str) and c for c in components), f"{at}: components must be ids"
        assert len(components) == len(set(components)), f"{at}: duplicate components"
        for entry in entries:
            assert isinstance(entry, dict) and set(entry) == {"name", "text"}, f"{at}: {entry!r}"
            assert isinstance(entry["name"], str) and entry["name"].strip(), f"{at}: {entry!r}"
            assert isinstance(entry["text"], str) and entry["text"].strip(), f"{at}: {entry!r}"
        names = [entry["name"] for entry in entries]
        assert len(names) == len(set(names)), f"{at}: duplicate names"


def load(game: str, language: str) -> Any:
    path = HELP / game / f"{language}.json"
    assert path.exists(), f"{path} is missing"
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_is_help_for_citadels() -> None:
    assert "citadels" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_help_follows_the_schema_in_all_four_languages(game: str) -> None:
    shape = None
    known = set(explain(game, "en")) if game in EXPLAINERS else set()
    for language in LANGUAGES:
        doc = load(game, language)
        check_schema(doc, f"{game}/{language}.json")
        listed = {c for section in doc["sections"] for c in section.get("components", [])}
        unknown = sorted(listed - known)
        assert not unknown, f"{game}/{language}.json: components the game does not explain: {unknown}"
        this = [(len(section.get("entries", [])), section.get("components", [])) for section in doc["sections"]]
        if shape is None:
            shape = this
        assert this == shape, f"{game}/{language}.json: entries per section {this}, English has {shape}"
    extra = sorted(p.name for p in (HELP / game).iterdir() if p.stem not in LANGUAGES)
    assert not extra, f"unexpected files in help/{game}: {extra}"


def test_citadels_help_lists_every_character_and_district() -> None:
    for language in LANGUAGES:
        doc = load("citadels", language)
        listed = [c for section in doc["sections"] for c in section.get("components", [])]
        assert sorted(listed) == sorted(explain("citadels", language)), language


def test_help_is_served_under_static(client: TestClient) -> None:
    for language in LANGUAGES:
        response = client.get(f"/static/help/citadels/{language}.json")
        assert response.status_code == 200
        assert response.json() == load("citadels", language)
