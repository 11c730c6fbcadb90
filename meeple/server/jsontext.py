"""JSON text for what the server sends: every socket message, and updates crossing Redis.

Encoding each seat's message was the largest single cost of a move in the event loop (~14% of a
move's CPU in ``bench/move_cost.py``, the standard library's ``json``); orjson encodes the same
values to the same JSON several times faster. The text differs from ``json.dumps(value,
separators=(",", ":"))`` only in writing non-ASCII characters as themselves (UTF-8) instead of
``\\uXXXX`` escapes, which every JSON reader reads alike. A value orjson cannot encode (an integer
beyond 64 bits) falls back to the standard library, so nothing that was sent before is refused now.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError: e.g. an integer beyond 64 bits
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """The value of JSON text this server made (``dumps``); not for what clients send (``limits``)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # e.g. an integer beyond 64 bits, which ``dumps`` may have written
        return json.loads(text)
