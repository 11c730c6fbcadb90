"""Player names, and the key that says when two of them are the same name to a reader.

``AUDITOR``, ``Auditor``, fullwidth ``ａｕｄｉｔｏｒ``, ``auditor`` with a zero-width space or a soft
hyphen inside all read as one name, so they get one ``name_key``: Unicode compatibility
normalisation (NFKC, which folds fullwidth forms, ligatures and other presentation variants), case
folding (``ß`` is ``ss``), with the invisible format characters (Unicode category Cf: zero-width
spaces and joiners, soft hyphens, byte-order marks) dropped and whitespace collapsed. Accounts are
unique by that key, logins find accounts by it, and guests cannot sit down under an account's key.

Not covered: letters of different scripts that look alike (Latin ``a`` and Cyrillic ``а``); telling
those apart would take Unicode's confusables table, which Python does not ship.

Control characters and the characters that reorder text (bidirectional overrides, isolates and
marks, with which ``\u202eadA`` displays as ``Ada``) are refused in names outright.
"""

from __future__ import annotations

import unicodedata
from typing import Any

NAME_LIMIT = 40
KEY_LIMIT = 160
"""A key can be longer than its name (``ß`` becomes ``ss``, a ligature two or three letters); four
times the name's limit is more than any real name needs, and is the stored column's length."""

DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class BadName(ValueError):
    """A name that cannot be used, with the reason for the person who typed it."""


def name_key(name: str) -> str:
    """The canonical form under which names that read the same compare equal (see the module)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    visible = "".join(char for char in folded if unicodedata.category(char) != "Cf")
    return " ".join(visible.split())


def clean_name(name: Any) -> str:
    """``name`` with its whitespace collapsed, as it will be shown; ``BadName`` if it is missing, too
    long, has control or text-direction characters, or nothing visible."""
    if not isinstance(name, str) or not name.strip():
        raise BadName("a player name is required")
    cleaned = " ".join(name.split())
    if len(cleaned) > NAME_LIMIT:
        raise BadName(f"a name has at most {NAME_LIMIT} characters")
    if any(char in DIRECTION_CONTROLS or unicodedata.category(char) in ("Cc", "Cs") for char in cleaned):
        raise BadName("a name cannot contain control characters or characters that change the text's direction")
    key = name_key(cleaned)
    if not key:
        raise BadName("a name needs at least one visible character")
    if len(key) > KEY_LIMIT:
        raise BadName("this name is too long once normalised")
    return cleaned
