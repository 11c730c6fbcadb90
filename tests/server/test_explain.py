"""Every card, tile, building and noble of every game, enumerated from the game's own data, has a name
and a full effect in all four languages (meeple/server/explain.py), and the tables can fetch them."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from meeple.games.burgundy import data as burgundy
from meeple.games.caylus import data as caylus
from meeple.games.citadels import data as citadels
from meeple.games.palais_royal.data import components as palais_royal
from meeple.server import explain as explain_module
from meeple.server.explain import EXPLAINERS, Explanation, MissingText, explain
from meeple.server.i18n import LANGUAGES, load_messages

OTHER_LANGUAGES = [language for language in LANGUAGES if language != "en"]
LETTERS = re.compile(r"[A-Za-z]{3,}")


def components_in_data(game: str) -> set[str]:
    """The component ids straight from each game's data module (not from explain.py)."""
    if game == "citadels":
        return {f"character.{slug}" for slug in citadels.CHARACTER_SLUGS} | {
            f"district.{slug}" for slug in citadels.DISTRICT_SLUGS
        }
    if game == "burgundy":
        goods = {f"goods.{kind}" for kind in range(1, burgundy.GOODS_KINDS + 1)}
        return set(burgundy.TILE_NAMES) | goods
    if game == "caylus":
        sections = {f"section.{name}" for name in caylus.SECTIONS}
        return {tile.slug for tile in caylus.TILES} | set(caylus.SPECIAL_NAMES.values()) | sections
    if game == "palais_royal":
        parts = palais_royal()
        return (
            {f"noble.{noble.id}" for noble in parts.nobles}
            | {f"room.{room.code}" for room in parts.rooms}
            | {f"card.{card.code}" for card in parts.cards}
            | {f"privilege.{noble.privilege}" for noble in parts.nobles if noble.privilege}
        )
    raise AssertionError(f"no data enumeration for {game}")


GAMES = ["citadels", "burgundy", "caylus", "palais_royal"]


def test_every_game_with_a_drawing_is_explained() -> None:
    assert sorted(EXPLAINERS) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_component_has_a_name_and_an_effect(game: str, language: str) -> None:
    texts = explain(game, language, english_fallback=False)  # a text missing in this language raises
    assert set(texts) == components_in_data(game)
    for component, text in texts.items():
        assert text.name.strip() and text.effect.strip(), (component, text)
        assert not re.search(r"\{\w+\}", text.name + text.effect), f"{component}: unfilled placeholder in {text}"
        assert text.name != text.code, f"{component}: its code alone is not a name"
        assert len(text.effect) > len(text.name) // 2, f"{component}: {text.effect!r} is no effect"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_other_languages_are_translated_not_english(game: str, language: str) -> None:
    english = explain(game, "en")
    texts = explain(game, language, english_fallback=False)
    for component, text in texts.items():
        assert text.effect != english[component].effect, f"{game} {component}: effect left in English"
        if LETTERS.search(english[component].name):
            assert text.name != english[component].name, f"{game} {component}: name left in English"
        assert not LETTERS.search(text.effect.replace(text.code, "")), f"{component}: English words in {text.effect!r}"


def test_numbers_come_from_the_data() -> None:
    """A noble's cost, seals, points and privilege, and a card's number, are the data files' own."""
    parts = palais_royal()
    for noble in parts.nobles:
        text = explain("palais_royal", "en")[f"noble.{noble.id}"]
        assert text.code == noble.id
        assert f"{noble.gold} gold" in text.effect and f"Worth {noble.vp} points" in text.effect
        assert f"{noble.turquoise} turquoise and {noble.violet} violet" in text.effect
    patron = next(card for card in parts.cards if card.code == "PATRON")
    assert f"costs {patron.param} gold less" in explain("palais_royal", "en")["card.PATRON"].effect
    assert explain("citadels", "en")["district.university"].effect.startswith("A unique district · cost 6 · 8 points")
    assert explain("burgundy", "ja")["K03"] == Explanation(
        "知識：売却のたびに銀貨2枚",
        "売却（ダイス、城の追加アクション、倉庫）のたびに銀貨 1 枚ではなく 2 枚を得ます。",
        "K03",
    )


def test_a_missing_text_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without English to fall back on, a text absent in one language fails with its key."""
    japanese = load_messages("ja", fallback=False)
    del japanese["palais_royal.explain.noble"]
    monkeypatch.setattr(explain_module, "load_messages", lambda language, fallback=True: japanese)
    with pytest.raises(MissingText, match=re.escape("palais_royal.explain.noble")):
        explain("palais_royal", "ja", english_fallback=False)


def test_the_api_serves_them(client: TestClient) -> None:
    answer = client.get("/api/explain/palais_royal/zh-Hant")
    assert answer.status_code == 200
    body = answer.json()
    assert body["language"] == "zh-Hant" and body["game"] == "palais_royal"
    n17 = body["components"]["noble.N17"]
    assert n17["code"] == "N17" and n17["name"].startswith("貴族") and "N17" not in n17["name"]
    assert client.get("/api/explain/burgundy/en").json()["components"]["K03"]["effect"].startswith("Each sale")
    assert client.get("/api/explain/chess/en").status_code == 404
    assert client.get("/api/explain/citadels/fr").json()["code"] == "unknown_language"
