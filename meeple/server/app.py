"""The FastAPI application: lobby and table API, the WebSocket table channel, accounts, pages.

Who a browser is at a table is decided by a secret seat token: the cookie ``meeple_seat_<table>``
(set when it takes a seat), or the ``X-Meeple-Token`` header / ``token`` query parameter for other
clients. The table's creator also gets a host token (``meeple_host_<table>``) that lets it hand a
seat whose player left to a bot.

WebSocket protocol (``/ws/tables/<id>``): the server sends ``{"type": "state", ...}`` on connect and
after every change, each client only its own seat's ``view``; the client sends
``{"type": "act", "action": "<notation>", "version": <n>}`` (``version`` is the one it was shown, so
a stale move is refused) or ``{"type": "ping"}``; anything wrong is answered with
``{"type": "error", "code": ..., "message": ...}`` and changes nothing. A wrong message never ends
the connection: binary frames, text that is not a JSON object (or nests too deep, or is longer than
``MAX_MESSAGE_CHARS``) and unknown types are refused like an illegal move; only an unexpected server
failure closes it, with an ``internal`` error and close code 1011.

What clients send is bounded before any work (``limits``): request bodies (``BodyLimit``, 413),
JSON nesting (400 ``too_deep``), passwords (``auth.MAX_PASSWORD_CHARS``, refused before hashing),
and names that read the same as another account's or seat's (``names.name_key``).

Cookies are SameSite=Lax, which still lets a page on another origin of the same site (another port,
another subdomain) send them, and browsers apply no CORS to WebSocket handshakes. So ``OriginGuard``
refuses browser requests whose ``Origin`` is neither this server's own nor allow-listed
(``Settings.allowed_origins``): every WebSocket and every HTTP request other than GET/HEAD/OPTIONS.
Requests without ``Origin`` (curl, scripts, the CLI) are not browsers driven by a foreign page, and pass.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.bots import BOT_KINDS
from meeple.core.contract import JSON
from meeple.core.registry import game_names, load_game
from meeple.server.auth import (
    MAX_PASSWORD_CHARS,
    hash_password,
    new_token,
    password_problem,
    token_hash,
    verify_password,
)
from meeple.server.config import Settings, normalize_origin
from meeple.server.db import make_engine, make_sessionmaker, migrate
from meeple.server.i18n import LANGUAGES, load_messages
from meeple.server.limits import MAX_MESSAGE_CHARS, BadJSON, BodyLimit, load_json
from meeple.server.models import Account, LoginSession
from meeple.server.names import name_key
from meeple.server.tables import Refused, Subscriber, TableService, _clean_name

log = logging.getLogger("meeple.server")

WEB = Path(__file__).resolve().parent.parent / "web"
SESSION_COOKIE = "meeple_session"


def seat_cookie(table_id: str) -> str:
    return f"meeple_seat_{table_id}"


def host_cookie(table_id: str) -> str:
    return f"meeple_host_{table_id}"


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORBIDDEN_ORIGIN_CLOSE = 4403
UNKNOWN_TABLE_CLOSE = 4404
INTERNAL_ERROR_CLOSE = 1011  # RFC 6455: the server met a condition it did not expect
HTTP_SCHEME_OF = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def own_origin(scope: Scope, headers: Headers) -> str | None:
    """This server's origin as the request reached it: its scheme (``ws`` counts as ``http``; behind a
    TLS proxy uvicorn takes it from ``X-Forwarded-Proto``) and its ``Host`` header."""
    host = headers.get("host")
    scheme = HTTP_SCHEME_OF.get(str(scope.get("scheme", "http")))
    if not host or scheme is None:
        return None
    return normalize_origin(f"{scheme}://{host}")


def origin_allowed(scope: Scope, allowed: frozenset[str]) -> bool:
    """No ``Origin`` (not a browser page), our own origin, or an allow-listed one; ``null`` and
    anything unreadable are foreign."""
    headers = Headers(scope=scope)
    origins = headers.getlist("origin")
    if not origins:
        return True
    if len(origins) > 1:
        return False
    origin = normalize_origin(origins[0])
    return origin is not None and (origin == own_origin(scope, headers) or origin in allowed)


class OriginGuard:
    """Refuses foreign-origin browser requests before any route reads a cookie (CSRF and cross-site
    WebSocket hijacking): a 403 ``forbidden_origin`` refusal for state-changing HTTP methods; for a
    WebSocket, the same error message then close code 4403."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guarded = scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] not in SAFE_METHODS)
        if not guarded or origin_allowed(scope, self.allowed):
            await self.app(scope, receive, send)
            return
        refusal = Refused("forbidden_origin", "this server only accepts changes from its own pages "
                          "(or origins allowed by MEEPLE_ALLOWED_ORIGINS)", 403)
        if scope["type"] == "websocket":
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            await websocket.send_json(refusal.to_json())
            await websocket.close(code=FORBIDDEN_ORIGIN_CLOSE)
        else:
            await JSONResponse(refusal.to_json(), status_code=refusal.status)(scope, receive, send)


def json_object(data: bytes | str, what: str) -> dict[str, Any]:
    """``data`` read by the one strict JSON reader (``limits.load_json``), which must give an object."""
    try:
        value = load_json(data)
    except BadJSON as bad:
        raise Refused(bad.code, f"{what}: {bad.message}") from None
    if not isinstance(value, dict):
        raise Refused("malformed", f"{what} must be a JSON object")
    return value


def find_account(session: Session, name: Any) -> Account | None:
    """The account a login names: its exact name first (so an account made before name keys existed,
    left without a key because an older one reads the same, still logs in), else its ``name_key``."""
    if not isinstance(name, str):
        return None
    account = session.scalars(select(Account).where(Account.name == name)).first()
    if account is None:
        account = session.scalars(select(Account).where(Account.name_key == name_key(name))).first()
    return account


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole platform on one database; migrations run and tables resume at startup."""
    settings = settings or Settings.from_env()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    service = TableService(sessions, settings.bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            engine.dispose()

    app = FastAPI(title="meeple", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.service = service
    app.state.settings = settings
    # Starlette runs the last added outermost: foreign origins are refused first, then every body is
    # bounded and its nesting checked before a route reads it.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(OriginGuard, allowed_origins=settings.allowed_origins)

    @app.exception_handler(Refused)
    async def refused_handler(_request: Request, refusal: Refused) -> JSONResponse:
        return JSONResponse(refusal.to_json(), status_code=refusal.status)

    async def body_of(request: Request) -> dict[str, Any]:
        return json_object(await request.body() or b"{}", "the request body")

    def account_of(request: Request | WebSocket) -> Account | None:
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        with sessions() as session:
            login = session.get(LoginSession, token_hash(token))
            return session.get(Account, login.account_id) if login is not None else None

    def seat_token_of(request: Request | WebSocket, table_id: str) -> str | None:
        return (request.headers.get("x-meeple-token") or request.query_params.get("token")
                or request.cookies.get(seat_cookie(table_id)))

    def host_token_of(request: Request, table_id: str) -> str | None:
        return request.headers.get("x-meeple-host") or request.cookies.get(host_cookie(table_id))

    def set_cookie(response: Response, name: str, value: str) -> None:
        response.set_cookie(name, value, max_age=60 * 60 * 24 * 365, httponly=True, samesite="lax", path="/")

    # --- pages -------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        service.get(table_id)
        return FileResponse(WEB / "table.html")

    @app.get("/tables/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        service.get(table_id)
        return FileResponse(WEB / "replay.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # --- games, languages, accounts ------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> JSON:
        return {"games": [load_game(name).describe() for name in game_names()], "bot_levels": list(BOT_KINDS)}

    @app.get("/api/i18n/{language}")
    async def messages(language: str) -> JSON:
        if language not in LANGUAGES:
            raise Refused("unknown_language", f"languages: {', '.join(LANGUAGES)}", 404)
        return {"language": language, "languages": LANGUAGES, "messages": load_messages(language)}

    @app.post("/api/accounts")
    async def register(request: Request) -> Response:
        data = await body_of(request)
        name = _clean_name(data.get("name"))
        password = data.get("password")
        problem = password_problem(password if isinstance(password, str) else "")
        if problem is not None or not isinstance(password, str):
            raise Refused("bad_password", problem or "a password is required")
        key = name_key(name)
        taken = Refused("name_taken", f"the name {name!r} is already taken (names that differ only in case, "
                                      "width or invisible characters are the same name)", 409)
        with sessions() as session:
            if session.scalars(select(Account.id).where(Account.name_key == key)).first() is not None:
                raise taken
        try:
            with sessions.begin() as session:
                account = Account(name=name, name_key=key, password_hash=hash_password(password))
                session.add(account)
                session.flush()
                account_id = account.id
        except IntegrityError:  # registered meanwhile, or an unkeyed older account has this exact name
            raise taken from None
        return login_response(account_id, name)

    @app.post("/api/login")
    async def login(request: Request) -> Response:
        data = await body_of(request)
        name, password = data.get("name"), data.get("password")
        if isinstance(password, str) and len(password) > MAX_PASSWORD_CHARS:
            raise Refused("bad_password", f"a password has at most {MAX_PASSWORD_CHARS} characters")
        with sessions() as session:
            account = find_account(session, name)
            if account is None or not isinstance(password, str) or not verify_password(account.password_hash,
                                                                                         password):
                raise Refused("bad_login", "unknown name or wrong password", 401)
            return login_response(account.id, account.name)

    def login_response(account_id: int, name: str) -> Response:
        token = new_token()
        with sessions.begin() as session:
            session.add(LoginSession(token_hash=token_hash(token), account_id=account_id))
        response = JSONResponse({"account": {"id": account_id, "name": name}})
        set_cookie(response, SESSION_COOKIE, token)
        return response

    @app.post("/api/logout")
    async def logout(request: Request) -> Response:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            with sessions.begin() as session:
                login = session.get(LoginSession, token_hash(token))
                if login is not None:
                    session.delete(login)
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @app.get("/api/me")
    async def me(request: Request) -> JSON:
        account = account_of(request)
        return {"account": {"id": account.id, "name": account.name} if account else None}

    # --- tables --------------------------------------------------------------------------------

    @app.get("/api/tables")
    async def list_tables(status: str | None = None) -> JSON:
        if status not in (None, "open", "running", "finished"):
            raise Refused("bad_status", "status is open, running or finished")
        return {"tables": service.list_tables(status)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        data = await body_of(request)
        account = account_of(request)
        name = data.get("name") or (account.name if account else None)
        created = service.create(
            data.get("game"), data.get("players"), data.get("options"), data.get("seats"),
            data.get("seat"), name, account.id if account else None,
        )
        table = created.table
        response = JSONResponse(
            {"table": table.summary(), "seat": created.seat, "token": created.seat_token,
             "host_token": created.host_token, "url": f"/tables/{table.id}"},
            status_code=201,
        )
        set_cookie(response, host_cookie(table.id), created.host_token)
        if created.seat_token:
            set_cookie(response, seat_cookie(table.id), created.seat_token)
        await service.broadcast(table)
        service.kick_bots(table)
        return response

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str, request: Request) -> JSON:
        """The same message a WebSocket sends: this client's seat's view, never anyone else's."""
        table = service.get(table_id)
        message = table.message_for(table.seat_of(seat_token_of(request, table_id)))
        message["is_host"] = table.is_host(host_token_of(request, table_id))
        return message

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Response:
        data = await body_of(request)
        table = service.get(table_id)
        if table.seat_of(seat_token_of(request, table_id)) is not None:
            raise Refused("already_seated", "you already have a seat at this table", 409)
        account = account_of(request)
        name = data.get("name") or (account.name if account else None)
        token = await service.join(table_id, data.get("seat"), name, account.id if account else None)
        response = JSONResponse({"seat": data.get("seat"), "token": token})
        set_cookie(response, seat_cookie(table_id), token)
        return response

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> Response:
        """Leave your seat; a bot takes it over so the others can play on."""
        data = await body_of(request)
        table = service.get(table_id)
        token = seat_token_of(request, table_id)
        seat = table.seat_of(token)
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table", 403)
        await service.seat_bot(table_id, seat, data.get("level"), token, None)
        response = JSONResponse({"seat": seat, "replaced_by": "bot"})
        response.delete_cookie(seat_cookie(table_id), path="/")
        return response

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_bot(table_id: str, seat: int, request: Request) -> JSON:
        data = await body_of(request)
        await service.seat_bot(table_id, seat, data.get("level"), seat_token_of(request, table_id),
                               host_token_of(request, table_id))
        return {"seat": seat, "replaced_by": "bot"}

    @app.post("/api/tables/{table_id}/actions")
    async def act(table_id: str, request: Request) -> JSON:
        data = await body_of(request)
        table = service.get(table_id)
        seat = table.seat_of(seat_token_of(request, table_id))
        await service.act(table_id, seat, data.get("action"), data.get("version"))
        return table.message_for(seat)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, step: int = 0, seat: int | None = None) -> JSON:
        return service.replay(table_id, seat, step)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        try:
            table = service.get(table_id)
        except Refused as refusal:
            await websocket.accept()
            await websocket.send_json(refusal.to_json())
            await websocket.close(code=UNKNOWN_TABLE_CLOSE)
            return
        await websocket.accept()
        seat = table.seat_of(seat_token_of(websocket, table_id))
        subscriber = Subscriber(seat, websocket.send_json)
        service.subscribe(table, subscriber)
        try:
            await service.broadcast(table)  # the newcomer's state, and "online" for the others
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                try:
                    text = frame.get("text")
                    if text is None:
                        raise Refused("malformed", "binary frames are not accepted; send JSON text")
                    await handle_message(table_id, seat, text, websocket)
                except Refused as refusal:
                    await websocket.send_json(refusal.to_json())
                    await websocket.send_json(service.get(table_id).message_for(seat))
        except WebSocketDisconnect:
            pass
        except Exception:  # a bug: say so and close properly rather than drop the connection
            log.exception("the WebSocket of table %s failed", table_id)
            with contextlib.suppress(Exception):
                await websocket.send_json(Refused("internal", "the server failed; reconnect", 500).to_json())
                await websocket.close(code=INTERNAL_ERROR_CLOSE)
        finally:
            live = service.get(table_id)
            service.unsubscribe(live, subscriber)
            if live is not table:
                service.unsubscribe(table, subscriber)
            await service.broadcast(live)

    async def handle_message(table_id: str, seat: int | None, text: str, websocket: WebSocket) -> None:
        if len(text) > MAX_MESSAGE_CHARS:
            raise Refused("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
        message = json_object(text, "a message")
        kind = message.get("type")
        if kind == "ping":
            await websocket.send_json({"type": "pong"})
        elif kind == "act":
            if "seat" in message and message["seat"] != seat:
                raise Refused("forbidden", "you can only act for your own seat", 403)
            await service.act(table_id, seat, message.get("action"), message.get("version"))
        elif kind == "refresh":
            await websocket.send_json(service.get(table_id).message_for(seat))
        else:
            raise Refused("malformed", f"unknown message type {kind!r}; expected act, refresh or ping")

    return app
