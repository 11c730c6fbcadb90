"""Simple accounts: register, log in and out, who am I. Hashing runs off the event loop."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from meeple.core.contract import JSON
from meeple.server.auth import (
    MAX_PASSWORD_CHARS,
    hash_password,
    new_token,
    password_problem,
    token_hash,
    verify_password,
)
from meeple.server.names import name_key
from meeple.server.routes.common import SESSION_COOKIE, account_of, body_of, seat_token_hashes, set_cookie, store_of
from meeple.server.runtime import Refused, _clean_name
from meeple.server.store import Conflict

router = APIRouter()


@router.post("/api/accounts")
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
    store = store_of(request)
    if await asyncio.to_thread(store.name_owner, key) is not None:
        raise taken
    hashed = await asyncio.to_thread(hash_password, password)
    try:  # registered meanwhile, or an unkeyed older account has this exact name
        account_id = await asyncio.to_thread(store.register, name, key, hashed)
    except Conflict:
        raise taken from None
    claimed = await asyncio.to_thread(store.claim_seats, account_id, seat_token_hashes(request))
    return await login_response(request, account_id, name, claimed)


@router.post("/api/login")
async def login(request: Request) -> Response:
    data = await body_of(request)
    name, password = data.get("name"), data.get("password")
    if isinstance(password, str) and len(password) > MAX_PASSWORD_CHARS:
        raise Refused("bad_password", f"a password has at most {MAX_PASSWORD_CHARS} characters")
    account = None
    if isinstance(name, str):
        account = await asyncio.to_thread(store_of(request).find_account, name, name_key(name))
    if (account is None or not isinstance(password, str)
            or not await asyncio.to_thread(verify_password, account[2], password)):
        raise Refused("bad_login", "unknown name or wrong password", 401)
    return await login_response(request, account[0], account[1])


async def login_response(request: Request, account_id: int, name: str, claimed: int | None = None) -> Response:
    """Sign the browser in; ``claimed``: at sign-up, how many of its guest seats became the account's."""
    token = new_token()
    await asyncio.to_thread(store_of(request).add_login, token_hash(token), account_id)
    body: dict[str, object] = {"account": {"id": account_id, "name": name}}
    if claimed is not None:
        body["claimed_seats"] = claimed
    response = JSONResponse(body)
    set_cookie(response, SESSION_COOKIE, token)
    return response


@router.post("/api/logout")
async def logout(request: Request) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await asyncio.to_thread(store_of(request).drop_login, token_hash(token))
    response = JSONResponse({"account": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/api/me")
async def me(request: Request) -> JSON:
    account = await account_of(request)
    return {"account": {"id": account[0], "name": account[1]} if account else None}
