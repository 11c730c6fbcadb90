"""The errors every game raises, so callers can handle any game the same way."""

from __future__ import annotations


class MeepleError(Exception):
    """Base class of every error meeple raises on purpose."""


class IllegalAction(MeepleError, ValueError):
    """An action that is not legal now. The state it was offered to is left exactly as it was.

    The message is meant for a player: it says what was refused and why.
    """


class InvalidOptions(MeepleError, ValueError):
    """Unknown option names, values outside the allowed set, or a player count the game does not support."""


class InvalidState(MeepleError, ValueError):
    """A JSON document that is not a valid saved state of the game it claims to be."""


class InvalidSeat(MeepleError, ValueError):
    """A seat that is not at the table (views are for seats ``0 … players-1`` or ``None``)."""


class UnknownGame(MeepleError, LookupError):
    """A game name that meeple does not know."""
