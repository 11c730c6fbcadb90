"""The lobby and table API: list, create, show, join, leave, hand a seat to a bot, act, undo, replay, rematch; and
the clocks' routes: reclaim a seat a bot took when your time ran out, vote on a player whose did."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from meeple.core.contract import JSON
from meeple.core.registry import game_names
from meeple.server.clocks import MODES
from meeple.server.hosting import share_base
from meeple.server.routes.common import (
    account_of,
    body_of,
    host_cookie,
    host_token_of,
    runtime_of,
    seat_cookie,
    seat_token_of,
    set_cookie,
)
from meeple.server.runtime import Refused
from meeple.server.timeouts import reclaim, vote

router = APIRouter()


@router.get("/api/tables")
async def list_tables(request: Request, status: str | None = None, game: str | None = None,
                      mode: str | None = None, open_seats: bool = False) -> JSON:
    """The lobby's table list, optionally one status, one game, one mode, or only tables with a free seat."""
    if status not in (None, "open", "running", "finished"):
        raise Refused("bad_status", "status is open, running or finished")
    if game is not None and game not in game_names():
        raise Refused("unknown_game", f"game is one of {', '.join(game_names())}")
    if mode is not None and mode not in MODES:
        raise Refused("bad_mode", f"mode is {' or '.join(MODES)}")
    return {"tables": await runtime_of(request).list_tables(status, game=game, open_seats=open_seats, mode=mode)}


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    data = await body_of(request)
    account = await account_of(request)
    name = data.get("name") or (account[1] if account else None)
    runtime = runtime_of(request)
    created = await runtime.create(
        data.get("game"), data.get("players"), data.get("options"), data.get("seats"),
        data.get("seat"), name, account[0] if account else None,
        clock={key: data.get(key) for key in ("mode", "speed", "timeout_rule", "timeout_level")},
        rated=data.get("rated", True), watchers=data.get("watchers"),
    )
    table = created.table
    response = JSONResponse(
        {"table": table.summary(runtime.hub.online(table.id)), "seat": created.seat, "token": created.seat_token,
         "host_token": created.host_token, "url": f"/tables/{table.id}",
         "invite_url": f"{share_base(request)}/tables/{table.id}"},
        status_code=201,
    )
    set_cookie(response, host_cookie(table.id), created.host_token)
    if created.seat_token:
        set_cookie(response, seat_cookie(table.id), created.seat_token)
    return response


@router.get("/api/tables/{table_id}")
async def table_state(table_id: str, request: Request) -> JSON:
    """The same full state a WebSocket sends on connect: this client's seat's view, nobody else's."""
    runtime = runtime_of(request)
    table = await runtime.get(table_id, fresh=True)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    runtime.check_watching(table, seat)
    request.app.state.alerts.visited(table, seat)
    message = runtime.message_for(table, seat)
    message["is_host"] = table.is_host(host_token_of(request, table_id))
    return message


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, request: Request) -> Response:
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    if await runtime.seat_of(table, seat_token_of(request, table_id)) is not None:
        raise Refused("already_seated", "you already have a seat at this table", 409)
    account = await account_of(request)
    name = data.get("name") or (account[1] if account else None)
    token = await runtime.join(table_id, data.get("seat"), name, account[0] if account else None)
    response = JSONResponse({"seat": data.get("seat"), "token": token})
    set_cookie(response, seat_cookie(table_id), token)
    return response


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, request: Request) -> Response:
    """Leave your seat; a bot takes it over so the others can play on."""
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    token = seat_token_of(request, table_id)
    seat = await runtime.seat_of(table, token)
    if seat is None:
        raise Refused("not_seated", "you have no seat at this table", 403)
    await runtime.seat_bot(table_id, seat, data.get("level"), token, None)
    response = JSONResponse({"seat": seat, "replaced_by": "bot"})
    response.delete_cookie(seat_cookie(table_id), path="/")
    return response


@router.post("/api/tables/{table_id}/seats/{seat}/bot")
async def seat_bot(table_id: str, seat: int, request: Request) -> JSON:
    data = await body_of(request)
    await runtime_of(request).seat_bot(table_id, seat, data.get("level"), seat_token_of(request, table_id),
                                       host_token_of(request, table_id))
    return {"seat": seat, "replaced_by": "bot"}


@router.post("/api/tables/{table_id}/actions")
async def act(table_id: str, request: Request) -> JSON:
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    await runtime.act(table_id, seat, data.get("action"), data.get("version"))
    return runtime.message_for(await runtime.get(table_id), seat)


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, request: Request) -> Response:
    """Offer this finished game's rematch (same seats, options, mode and clock) or accept the one
    offered; either way the answer is your seat at the new table, which starts once everyone accepted."""
    runtime = runtime_of(request)
    rematch_id = (await runtime.get(table_id, fresh=True)).rematch
    held = seat_token_of(request, rematch_id) if rematch_id is not None else None
    seated = await runtime.rematch(table_id, seat_token_of(request, table_id), held)
    table = seated.table
    response = JSONResponse({"table": table.summary(runtime.hub.online(table.id)), "seat": seated.seat,
                             "token": seated.token, "url": f"/tables/{table.id}"})
    set_cookie(response, seat_cookie(table.id), seated.token)
    if seated.host_token is not None:
        set_cookie(response, host_cookie(table.id), seated.host_token)
    return response


@router.post("/api/tables/{table_id}/undo")
async def undo(table_id: str, request: Request) -> JSON:
    """Take back one's own last moves of this turn (``{"version": N, "moves": K}``; without ``moves``, all
    that may be); the answer is the seat's state as after a move."""
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    await runtime.undo(table_id, seat, data.get("moves"), data.get("version"))
    return runtime.message_for(await runtime.get(table_id), seat)


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: str, request: Request, step: int = 0, seat: int | None = None) -> JSON:
    """One step of a finished game; whoever was seated there also gets the table's chat."""
    runtime = runtime_of(request)
    data = await runtime.replay(table_id, seat, step)
    table = await runtime.get(table_id)
    was_seated = table.seat_of(seat_token_of(request, table_id))
    if was_seated is not None:
        data["chat"] = await request.app.state.chat.table_lines(table, was_seated)
    return data


@router.post("/api/tables/{table_id}/reclaim")
async def reclaim_seat(table_id: str, request: Request) -> JSON:
    """Take your seat back from the bot that plays it since your clock ran out."""
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    await reclaim(runtime, table_id, seat)
    return runtime.message_for(await runtime.get(table_id), seat)


@router.post("/api/tables/{table_id}/vote")
async def vote_on_timeout(table_id: str, request: Request) -> JSON:
    """Vote ``{"choice": "skip" | "bot"}`` on the player whose clock ran out (tables with the vote rule)."""
    data = await body_of(request)
    runtime = runtime_of(request)
    table = await runtime.get(table_id)
    seat = await runtime.seat_of(table, seat_token_of(request, table_id))
    await vote(runtime, table_id, seat, data.get("choice"))
    return runtime.message_for(await runtime.get(table_id), seat)
