"""What a seat sees: in Caylus, everything but the RNG (rules §6), so every view is the same.

The view is shaped for drawing (road, castle, favour table, players) and carries a structured public
log; a web UI or the terminal renderer needs nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.logview import log_views, public_only
from meeple.games.caylus.actions import ACTIONS
from meeple.games.caylus.data import (
    CUBES,
    FAVOUR_TABLE,
    KIND_NAMES,
    LAST_SPACE,
    LOTS,
    PRESTIGE_IDS,
    ROWS,
    SECTION_MARK,
    SECTION_SCORING,
    SECTION_SIZE,
    SECTIONS,
    STONE_IDS,
    TILES,
    WOOD_IDS,
    WORKERS,
)
from meeple.games.caylus.observation import describe_action

if TYPE_CHECKING:
    from meeple.games.caylus.state import CaylusState

ACTION_LIST = tuple(ACTIONS.values())
EVENT_NAMES = ("action", "income", "bailiff", "scoring", "castle_penalty", "best_builder", "favour_lost",
               "turn", "returned", "converted", "game_over", "inn_evicted")


def _seat(value: int) -> int | None:
    return None if value < 0 else value


def log_event(entry: tuple[int, int, int, int]) -> dict[str, Any]:
    """One stored log tuple as a JSON-safe event dict."""
    code, seat, a, b = entry
    name = EVENT_NAMES[code]
    event: dict[str, Any] = {"event": name}
    if seat >= 0:
        event["seat"] = seat
    if name == "action":
        info = describe_action(ACTION_LIST[a])  # kind and args too, so no client parses the notation
        event.update(action=info.notation, kind=info.kind, args=dict(info.args))
        event["auto"] = bool(b)
    elif name == "income":
        event["deniers"] = a
    elif name == "bailiff":
        event["space"] = a
    elif name == "scoring":
        outcome = SECTION_SCORING[a][min(b, 6)]
        event.update(section=SECTIONS[a], houses=b, favours=max(outcome, 0), penalty=max(-outcome, 0))
    elif name == "castle_penalty":
        event["prestige"] = -a
    elif name == "best_builder":
        event["houses"] = a
    elif name == "turn":
        event["turn"] = a
    elif name in ("returned", "converted"):
        event["space"] = a
    return event


def build_view(state: CaylusState, seat: int | None) -> dict[str, Any]:
    """The full public state; ``seat`` changes nothing since Caylus has no secrets (§6)."""
    n = state.players
    logs = state._log_views = log_views(state._log_views, state.log, public_only, log_event)
    road = []
    for s in range(1, LAST_SPACE + 1):
        t = state.tile[s]
        road.append({
            "space": s,
            "building": None if t < 0 else TILES[t].slug,
            "kind": "lot" if t < 0 else KIND_NAMES[TILES[t].kind],
            "owner": _seat(state.owner[s]),
            "worker": _seat(state.worker[s]),
            "becomes_residence_of": _seat(state.conv[s]),
            "lot": s in LOTS,
            "mark": SECTIONS[SECTION_MARK.index(s)] if s in SECTION_MARK else None,
        })
    on_board = [WORKERS - state.avail[p] for p in range(n)]
    players = []
    scores = state.scores()
    for p in range(n):
        players.append({
            "seat": p,
            "deniers": state.money[p],
            "cubes": {CUBES[k]: state.cubes[p][k] for k in range(5)},
            "prestige": state.pp[p],
            "score": scores[p],
            "favours": {ROWS[r]: state.fav[p][r] for r in range(4)},
            "favour_rows_used": [ROWS[r] for r in range(4) if state.fav_used[p] & (1 << r)],
            "workers_available": state.avail[p],
            "workers_placed": on_board[p],
            "houses": [state.houses[x][p] for x in range(3)],
            "batches_this_turn": state.batches[p] if state.phase == 6 else 0,
        })
    view: dict[str, Any] = {
        "game": "caylus",
        "players": n,
        "turn": state.turn,
        "phase": state.phase if not state.is_over else None,
        "over": state.is_over,
        "current_player": state.current_player,
        "pending": state.pending(),
        "turn_order": state.turn_order[:],
        "passing_order": state.bridge[:],
        "bailiff": state.bailiff,
        "provost": state.provost,
        "road": road,
        "specials": {
            "gate": _seat(state.gate),
            "trading_post": _seat(state.tpost),
            "guild": _seat(state.guild),
            "joust": _seat(state.joust),
            "stables": state.stables[:],
            "inn_left": _seat(state.inn_left),
            "inn_right": _seat(state.inn_right),
        },
        "castle": {
            "workers": state.castle[:],
            "sections": [
                {
                    "name": SECTIONS[x],
                    "size": SECTION_SIZE[x],
                    "houses": state.houses[x][:],
                    "filled": state.castle_count[x],
                    "scored": x < state.scored,
                    "mark": SECTION_MARK[x],
                }
                for x in range(3)
            ],
        },
        "favour_cap": state.cap,
        "favour_table": {ROWS[r]: list(FAVOUR_TABLE[r]) for r in range(4)},
        "players_state": players,
        "stock": {TILES[t].slug: state.stock[t] for t in (*WOOD_IDS, *STONE_IDS, *PRESTIGE_IDS)},
        "removed_neutral": [TILES[t].slug for t in state.removed],
        "pending_favours": [[s, c] for s, c in state.fstack],
        "options": dict(state.options),
        **logs.for_view(seat),
    }
    if state.is_over:
        view["final_scores"] = state.final_scores()
        view["end_bonuses"] = [{name: list(part) for name, part in state.end_bonuses(p).items()}
                               for p in range(state.players)]
        view["winners"] = state.winners()
    return view
