"""The user interface's words in English, 简体中文, 繁體中文 and 日本語, as one JSON file per language.

Each file maps a message key to its text; keys under ``citadels.`` name the game's cards and
characters as the seed documents do. A key missing in a language falls back to English.
A game's own words may live in ``<game>/<language>.json`` beside these files, and the lobby's names and
explanations of its options and presets in ``<game>/options/<language>.json``; their keys must start
with ``<game>.`` so that games never overwrite each other's or the platform's words. A platform
feature's words may live the same way under its name (``clock/``: keys ``clock.*``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

#: Language code -> its own name, in the order the page offers them.
LANGUAGES: dict[str, str] = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ja": "日本語"}


def _read_file(path: Path, prefix: str = "") -> dict[str, str]:
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    where = path.relative_to(HERE).as_posix()
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    foreign = [key for key in data if not str(key).startswith(prefix)]
    if foreign:
        raise ValueError(f"{where}: keys must start with {prefix!r}, not {foreign[:3]}")
    return {str(k): str(v) for k, v in data.items()}


@cache
def _read(language: str) -> dict[str, str]:
    messages = _read_file(HERE / f"{language}.json")
    for game_file in sorted([*HERE.glob(f"*/{language}.json"), *HERE.glob(f"*/options/{language}.json")]):
        game = game_file.relative_to(HERE).parts[0]
        messages.update(_read_file(game_file, prefix=f"{game}."))
    return messages


def load_messages(language: str, *, fallback: bool = True) -> dict[str, str]:
    """Every message key in ``language``, English filling the gaps (unless ``fallback`` is false)."""
    if language not in LANGUAGES:
        raise KeyError(language)
    if not fallback:
        return dict(_read(language))
    merged = dict(_read("en"))
    merged.update(_read(language))
    return merged
