"""The uvicorn factory the browser tests serve: the real app, with the toy game registered too."""

from __future__ import annotations

from fastapi import FastAPI

from meeple.core import registry
from meeple.server.app import create_app


def make_app() -> FastAPI:
    registry.GAME_CLASSES.setdefault("toy", "tests.core.toy_game:Toy")
    return create_app()
