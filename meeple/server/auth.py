"""Secrets: seat and session tokens (random, stored only as SHA-256) and argon2 password hashes."""

from __future__ import annotations

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()

MIN_PASSWORD_CHARS = 6
MAX_PASSWORD_CHARS = 1024
"""Argon2 first digests the whole password, so its cost grows with the length: a 1 MB password took
~0.12 s of CPU per attempt, a cheap way to tie up the server. No person or password manager needs
more than a few hundred characters (managers generate at most 128; long passphrases stay well under
1,024), and at 1,024 the digest costs nothing next to argon2's fixed memory-hard work."""


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be a new password, or ``None``; checked before anything is hashed."""
    if len(password) < MIN_PASSWORD_CHARS:
        return f"a password has at least {MIN_PASSWORD_CHARS} characters"
    if len(password) > MAX_PASSWORD_CHARS:
        return f"a password has at most {MAX_PASSWORD_CHARS} characters"
    return None


def new_token() -> str:
    """A fresh unguessable token for a cookie or an invite."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: enough to recognise it, useless to impersonate with."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    """The argon2 hash to store; any caller (registration, a password change) must have checked
    ``password_problem`` first, and an overlong password is refused here too rather than hashed."""
    if len(password) > MAX_PASSWORD_CHARS:
        raise ValueError(f"a password has at most {MAX_PASSWORD_CHARS} characters")
    return _hasher.hash(password)


def verify_password(stored_hash: str, password: str) -> bool:
    """Whether ``password`` matches; an overlong one never does, and is not hashed to find out."""
    if len(password) > MAX_PASSWORD_CHARS:
        return False
    try:
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False
