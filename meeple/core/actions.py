"""Interned actions: every distinct action of a game is one object, built once at import.

An engine asks "is this action legal?" on every step; with one object per action that is an
identity test in C (``action in legal``), and the notation is a precomputed string, so the hot path
never formats or parses text. Copying, deep-copying and unpickling all return the same object, so
identity and value semantics agree.

A game subclasses ``InternedAction`` (adding slots if it needs more arguments) and implements
``from_notation``, which finds the one object with a notation.
"""

from __future__ import annotations

from typing import Any, Self


class InternedAction:
    """One decision: ``kind`` (a game's own code) plus integer arguments ``a`` and ``b``, and its
    ``notation``. Immutable; equality and hashing are by identity."""

    __slots__ = ("a", "b", "kind", "notation")

    kind: int
    a: int
    b: int
    notation: str

    def __init__(self, kind: int, a: int, b: int, notation: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "notation", notation)

    @classmethod
    def from_notation(cls, notation: str) -> Self:
        """The interned action with this notation (``KeyError`` or ``ValueError`` if there is none)."""
        raise NotImplementedError

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_notation({self.notation!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (type(self).from_notation, (self.notation,))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self
