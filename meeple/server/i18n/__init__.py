"""The user interface's words in English, 简体中文, 繁體中文 and 日本語, as one JSON file per language.

Each file maps a message key to its text; keys under ``citadels.`` name the game's cards and
characters as the seed documents do. A key missing in a language falls back to English.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

#: Language code -> its own name, in the order the page offers them.
LANGUAGES: dict[str, str] = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ja": "日本語"}


@cache
def _read(language: str) -> dict[str, str]:
    data: Any = json.loads((HERE / f"{language}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{language}.json must be an object")
    return {str(k): str(v) for k, v in data.items()}


def load_messages(language: str) -> dict[str, str]:
    """Every message key in ``language``, English filling the gaps."""
    if language not in LANGUAGES:
        raise KeyError(language)
    merged = dict(_read("en"))
    merged.update(_read(language))
    return merged
