"""The FastAPI application: the store, writer, hub, runtime and bot runner, and the routers
(``meeple/server/routes/``: pages, accounts, tables, the table WebSocket).

Who a browser is at a table is decided by a secret seat token: the cookie ``meeple_seat_<table>``
(set when it takes a seat), or the ``X-Meeple-Token`` header / ``token`` query parameter for other
clients. The table's creator also gets a host token (``meeple_host_<table>``) that lets it hand a
seat whose player left to a bot.

WebSocket protocol (``/ws/tables/<id>``, see docs/web.md): the server sends ``{"type": "state", ...}``
on connect and ``{"type": "update", ...}`` (new log entries and a patch of the view) after every change,
each client only its own seat's; the client sends
``{"type": "act", "action": "<notation>", "version": <n>}`` (``version`` is the one it was shown, so
a stale move is refused) or ``{"type": "ping"}``; anything wrong is answered with
``{"type": "error", "code": ..., "message": ...}`` and changes nothing. A wrong message never ends
the connection: binary frames, text that is not a JSON object (or nests too deep, or is longer than
``MAX_MESSAGE_CHARS``) and unknown types are refused like an illegal move; only an unexpected server
failure closes it, with an ``internal`` error and close code 1011.

The lobby's WebSocket (``/ws/lobby``, ``routes/lobby.py``) pushes the table list's changes, the lobby
chat's lines and a player's "My games" rows (``lobby.LobbyFeed``).

What clients send is bounded before any work (``limits``): request bodies (``BodyLimit``, 413),
JSON nesting (400 ``too_deep``), passwords (``auth.MAX_PASSWORD_CHARS``, refused before hashing),
and names that read the same as another account's or seat's (``names.name_key``).

Cookies are SameSite=Lax, which still lets a page on another origin of the same site (another port,
another subdomain) send them, and browsers apply no CORS to WebSocket handshakes. So ``OriginGuard``
refuses browser requests whose ``Origin`` is neither this server's own nor allow-listed
(``Settings.allowed_origins``): every WebSocket and every HTTP request other than GET/HEAD/OPTIONS.
Requests without ``Origin`` (curl, scripts, the CLI) are not browsers driven by a foreign page, and pass.

Behind a reverse proxy (``hosting``, docs/deploy.md): the proxy's ``X-Forwarded-Proto`` and
``X-Forwarded-For`` are believed only from ``Settings.forwarded_allow_ips`` (uvicorn's
``ProxyHeadersMiddleware``, outermost, so the origin check sees the browser's scheme); the public URL's
origin is allowed; redirects point at it and cookies are ``Secure`` when it is https (``PublicAddress``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from meeple.server.alerts import TurnAlerts
from meeple.server.botrunner import BotRunner
from meeple.server.chat import Chat
from meeple.server.collector import tune_for_serving
from meeple.server.config import Settings, normalize_origin
from meeple.server.db import make_engine, migrate
from meeple.server.hosting import PublicAddress, lan_addresses, listens_everywhere, request_origin
from meeple.server.hub import Hub, RedisHub
from meeple.server.limits import BodyLimit
from meeple.server.lobby import LobbyFeed
from meeple.server.mail import Mailer
from meeple.server.routes import accounts, chat, lobby, mygames, pages, players, sockets, tables
from meeple.server.routes.pages import WEB
from meeple.server.runtime import Refused, TableRuntime
from meeple.server.store import Store
from meeple.server.timeouts import ClockKeeper
from meeple.server.writer import DatabaseWriter

log = logging.getLogger("meeple.server")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORBIDDEN_ORIGIN_CLOSE = 4403
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
    return origin is not None and (origin == request_origin(scope) or origin in allowed)


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
                          "(its public URL, or origins allowed by MEEPLE_ALLOWED_ORIGINS)", 403)
        if scope["type"] == "websocket":
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            await websocket.send_json(refusal.to_json())
            await websocket.close(code=FORBIDDEN_ORIGIN_CLOSE)
        else:
            await JSONResponse(refusal.to_json(), status_code=refusal.status)(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole platform on one database. Migrations run at startup; tables load when first asked
    for, and bots resume from the durable job queue, so starting a process re-drives nothing."""
    settings = settings or Settings.from_env()
    engine = make_engine(settings.database_url)
    store = Store(engine)
    hub: Hub = RedisHub(settings.redis_url) if settings.redis_url else Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        writer = DatabaseWriter(store.sessions)
        runtime = TableRuntime(store, writer, hub, settings.bot_delay)
        runner = BotRunner(runtime, store, processes=settings.bot_processes, lease=settings.bot_lease,
                           delay=settings.bot_delay)
        keeper = ClockKeeper(runtime, store)
        mailer = Mailer(settings.smtp) if settings.smtp is not None else None
        if settings.smtp is None:
            log.info("no SMTP server configured (MEEPLE_SMTP_HOST / --smtp-host): no turn e-mails are sent")
        else:
            log.info("turn e-mails go through %s", settings.smtp.describe())
        alerts = TurnAlerts(runtime, store, mailer, settings.public_url)
        app.state.runtime, app.state.writer, app.state.bots = runtime, writer, runner
        app.state.clocks, app.state.alerts = keeper, alerts
        feed = LobbyFeed(runtime)
        app.state.lobby = feed
        app.state.chat = Chat(runtime, feed)
        await hub.start()
        await feed.start()
        if settings.run_bots:
            await runner.start()
        await keeper.start()  # deadlines that passed while no server ran are acted on now
        try:
            yield
        finally:
            await keeper.stop()
            await runner.stop()
            await alerts.stop()
            await feed.stop()
            await hub.stop()
            writer.close()
            engine.dispose()

    app = FastAPI(title="meeple", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.store, app.state.settings, app.state.hub = store, settings, hub
    app.state.lan_addresses = lan_addresses(ipv6=settings.host == "::") if listens_everywhere(settings.host) else []
    # Starlette runs the last added outermost: a trusted proxy's headers are read first, then foreign
    # origins are refused, then every body is bounded and its nesting checked before a route reads it.
    app.add_middleware(PublicAddress, public_url=settings.public_url)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    allowed = settings.allowed_origins + ((settings.public_url,) if settings.public_url else ())
    app.add_middleware(OriginGuard, allowed_origins=allowed)
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.forwarded_allow_ips))

    @app.exception_handler(Refused)
    async def refused_handler(_request: Request, refusal: Refused) -> JSONResponse:
        return JSONResponse(refusal.to_json(), status_code=refusal.status)

    for router in (pages.router, accounts.router, tables.router, sockets.router, mygames.router, players.router,
                   chat.router, lobby.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


def app_from_env() -> FastAPI:
    """The app as ``meeple serve --workers N`` starts it in each worker process (uvicorn's factory):
    its settings come from the environment the command set."""
    served = create_app(Settings.from_env())
    tune_for_serving()
    return served
