"""The lobby explains every game's options, presets and the bot levels in all four languages, in words a
player reads (never the rule-decision references, such as "D1:" or "§3.2", that the engines' own
descriptions carry for developers)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from meeple.bots import BOT_KINDS
from meeple.core.errors import InvalidOptions
from meeple.core.options import OPTION_GROUPS, Option
from meeple.core.registry import GAME_CLASSES, load_game
from meeple.server import i18n
from meeple.server.clocks import MODES
from meeple.server.i18n import LANGUAGES

SHIPPED_GAMES = [name for name in GAME_CLASSES if name != "toy"]
INTERNAL_REFERENCE = re.compile(r"\bD-?\d+\b|§")


def own_messages(language: str) -> dict[str, str]:
    i18n._read.cache_clear()
    return i18n._read(language)


def value_key(value: Any) -> str:
    """How the lobby (``valueKey`` in lobby.js) names an option value in a key."""
    return "null" if value is None else str(value)


def lobby_keys(game: str) -> set[str]:
    """Every key the lobby looks up for one game's options and presets."""
    described = load_game(game).describe()
    keys: set[str] = set()
    for option in described["options"]:
        base = f"{game}.option.{option['name']}"
        keys |= {base, f"{base}.about"}
        values = option["choices"] if option["choices"] is not None else [option["default"]]
        keys |= {f"{base}.choice.{value_key(value)}" for value in values
                 if not isinstance(value, bool) and (value is None or option["choices"] is not None)}
        keys |= {f"{base}.choice.{value_key(value)}" for value in option["suggestions"]}
    for preset in described["presets"]:
        keys |= {f"{game}.preset.{preset}", f"{game}.preset.{preset}.about"}
    return keys


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_every_option_value_and_preset_has_words_in_every_language(game: str, language: str) -> None:
    messages = own_messages(language)
    keys = lobby_keys(game)
    missing = sorted(keys - messages.keys())
    assert not missing, f"{game} in {language}: {missing}"
    for key in keys:
        assert messages[key].strip() and not INTERNAL_REFERENCE.search(messages[key]), (key, messages[key])
    option_words = {key for key in messages if key.startswith(f"{game}.option.") or key.startswith(f"{game}.preset.")}
    assert option_words <= keys | {key for key in option_words if ".choice." in key}, "words for no option"


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_options_name_a_known_group_and_the_words_are_not_english_in_other_languages(game: str) -> None:
    described = load_game(game).describe()
    assert {option["group"] for option in described["options"]} <= set(OPTION_GROUPS)
    english = own_messages("en")
    for language in ("zh-Hans", "zh-Hant", "ja"):
        messages = own_messages(language)
        for option in described["options"]:
            key = f"{game}.option.{option['name']}.about"
            assert messages[key] != english[key], f"{key} is not translated into {language}"


def test_an_option_in_an_unknown_group_or_with_stray_suggestions_is_refused() -> None:
    with pytest.raises(ValueError, match="group must be one of setup, rules, scoring, research"):
        Option("speed", 1, "how fast", group="misc")
    with pytest.raises(ValueError, match="suggestions are for free-form options and include the default"):
        Option("layout", "random", "rooms", kind=str, suggestions=("first_game",))
    with pytest.raises(ValueError, match="suggestions are for free-form options"):
        Option("edge", "a", "edges", choices=("a", "b"), suggestions=("a",))


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_bot_levels_option_groups_modes_and_statuses_have_words(language: str) -> None:
    messages = own_messages(language)
    for level in BOT_KINDS:
        assert messages[f"bot.level.{level}"] and messages[f"bot.level.{level}.about"]
    for group in OPTION_GROUPS:
        assert messages[f"lobby.option_group.{group}"]
    for mode in MODES:  # the table list's mode filter and badges
        assert messages[f"lobby.mode.{mode}"]
    for status in ("open", "running", "finished"):
        assert messages[f"lobby.status.{status}"]


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_every_suggested_value_starts_a_game_alone_or_with_a_preset(game: str) -> None:
    """A suggestion may need another option (Burgundy's random boards need chosen start castles): then a
    preset the lobby offers holds the combination."""
    rules = load_game(game)
    suggested = [(option.name, value) for option in rules.options.values() for value in option.suggestions]
    assert suggested or game in ("citadels", "caylus")
    for name, value in suggested:
        started = []
        for base in [{}, *rules.presets.values()]:
            try:
                state = rules.new_game(players=rules.max_players, seed=3, options={**base, name: value})
            except InvalidOptions:
                continue
            started.append(state.options[name] == value)
        assert any(started), f"{game}: {name}={value!r} starts no game"
