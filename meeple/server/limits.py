"""Bounds on what a client may send, checked before any work is done (issue 16).

Python's ``json`` parser recurses once per nesting level, so ``[[[[...`` a few thousand deep raises
``RecursionError`` (a 500, or a WebSocket dropped without a close frame); it also reads ``NaN``,
``1e999`` (infinity), numbers of thousands of digits (a ``ValueError`` of its own) and lone UTF-16
surrogates that no database or response can encode. Every JSON text the server reads goes through
``load_json`` instead, which measures the nesting with a flat scan first and refuses all of these
as plain ``BadJSON`` refusals. ``BodyLimit`` bounds every HTTP request body (declared or streamed)
and checks its nesting before any route runs, so a route never sees a body it could choke on.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.server.config import DEFAULT_MAX_BODY_BYTES

MAX_JSON_DEPTH = 32
"""The deepest body the API has is ``{"seats": [{"kind": ...}]}`` (3 levels); 32 is far from both
that and from Python's recursion limit (1,000 frames)."""

MAX_MESSAGE_CHARS = 4096
"""A WebSocket message (``act`` with a notation of at most 500 characters, ``ping``, ``refresh``)."""

# The only bytes that matter for nesting: brackets, and the quotes and backslashes that say whether
# a bracket is inside a string. (A regex that skips whole strings is quadratic on '\\"\\"\\"...'.)
_SIGNIFICANT = re.compile(rb'[\[\]{}"\\]')
QUOTE, BACKSLASH = ord('"'), ord("\\")
OPENERS, CLOSERS = frozenset(b"[{"), frozenset(b"]}")


class BadJSON(ValueError):
    """A JSON text refused before or while reading it: ``code`` ``too_deep`` or ``malformed``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def nesting_exceeds(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than ``limit``: one linear pass, no recursion."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    depth = 0
    in_string = False
    escaped_until = -1  # the byte after a backslash in a string is escaped
    for match in _SIGNIFICANT.finditer(data):
        at = match.start()
        if at < escaped_until:
            continue
        byte = data[at]
        if in_string:
            if byte == BACKSLASH:
                escaped_until = at + 2
            elif byte == QUOTE:
                in_string = False
        elif byte == QUOTE:
            in_string = True
        elif byte in OPENERS:
            depth += 1
            if depth > limit:
                return True
        elif byte in CLOSERS:
            depth -= 1
    return False


def _refuse_constant(name: str) -> Any:
    raise BadJSON("malformed", f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON("malformed", f"the number {text[:20]} is too large")
    return value


def load_json(data: bytes | str) -> Any:
    """``data`` read as strict JSON (RFC 8259: no NaN or infinities, valid Unicode, bounded nesting
    and number sizes), or ``BadJSON`` saying what is wrong."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if nesting_exceeds(raw):
        raise BadJSON("too_deep", f"JSON may nest at most {MAX_JSON_DEPTH} levels of brackets")
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_float=_finite_float)
        # A lone surrogate ("\ud800") parses, but no response, log or database can encode it.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except BadJSON:
        raise
    except UnicodeError:
        raise BadJSON("malformed", "JSON must be valid UTF-8 text without lone surrogates") from None
    except ValueError as error:  # a syntax error, or an integer of more than 4,300 digits
        raise BadJSON("malformed", f"not valid JSON ({str(error)[:80]})") from None
    return value


def refusal_response(code: str, message: str, status: int) -> JSONResponse:
    """The API's refusal shape (``tables.Refused.to_json``), for refusals made before any route."""
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


class BodyLimit:
    """Reads every HTTP request body before the app does, up to ``max_bytes``: a larger declared
    ``Content-Length`` is a 413 before a byte is read, a streamed (chunked) body a 413 as soon as it
    passes the limit; a body within it is refused with 400 if its JSON nests too deep, else handed
    on. Every route reads bodies as JSON, so every body is checked, whatever its ``Content-Type``."""

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def too_large(self) -> JSONResponse:
        return refusal_response("too_large", f"request bodies are limited to {self.max_bytes} bytes", 413)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            if not declared.isdigit():
                await refusal_response("malformed", "Content-Length must be a number of bytes", 400)(
                    scope, receive, send)
                return
            if int(declared) > self.max_bytes:
                await self.too_large()(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client is gone: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self.too_large()(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if nesting_exceeds(body):
            await refusal_response("too_deep", f"JSON may nest at most {MAX_JSON_DEPTH} levels of brackets",
                                   400)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive channel that hands the app the body already read, then the client's later messages
    (a disconnect)."""
    delivered = False

    async def replayed() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
