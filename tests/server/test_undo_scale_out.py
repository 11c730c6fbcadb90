"""Undo across two server processes sharing PostgreSQL and Redis: a move through one, its undo through
the other; the first hears of it, refuses a move at the version the undo took, and both show the same
state (docs/rules/citadels.md §2.3: taking gold can be undone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.server.test_scale_out import Process, processes, site, two_servers_and_a_table  # noqa: F401


def state(url: str, table_id: str, token: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{url}/api/tables/{table_id}", headers={"X-Meeple-Token": token}).json()
    return data


def test_an_undo_through_one_process_is_seen_by_the_other_and_its_version_never_reused(
        site: dict[str, str], processes: list[Process], tmp_path: Path) -> None:  # noqa: F811
    a, b, table_id, tokens = two_servers_and_a_table(site, processes, tmp_path)
    for _ in range(300):  # every seat plays its first legal action until one may take gold
        seen = {token: state(a.url, table_id, token) for token in tokens}
        mover = next((token for token, mine in seen.items() if "gold" in mine["legal"]), None)
        if mover is not None:
            break
        token, mine = next((t, s) for t, s in seen.items() if s["legal"])
        httpx.post(f"{a.url}/api/tables/{table_id}/actions", json={"action": mine["legal"][0],
                                                                    "version": mine["version"]},
                   headers={"X-Meeple-Token": token})
    assert mover is not None
    version = seen[mover]["version"]
    headers = {"X-Meeple-Token": mover}
    took = httpx.post(f"{a.url}/api/tables/{table_id}/actions", json={"action": "gold", "version": version},
                      headers=headers).json()
    assert took["can_undo"] == 1
    assert state(b.url, table_id, mover)["can_undo"] == 1  # B caught up with A's move
    undone = httpx.post(f"{b.url}/api/tables/{table_id}/undo", json={"version": version + 1}, headers=headers)
    assert undone.status_code == 200, undone.text
    # a move at the version the undo took, legal where A stood after the gold (whether or not A has
    # heard of the undo yet): refused either way, by the version check or by the stored row
    stale = httpx.post(f"{a.url}/api/tables/{table_id}/actions", json={"action": took["legal"][0],
                                                                        "version": version + 1}, headers=headers)
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    on_a, on_b = state(a.url, table_id, mover), state(b.url, table_id, mover)
    assert on_a["version"] == on_b["version"] == version + 2
    assert on_a["view"] == on_b["view"] == seen[mover]["view"]
    assert on_a["log"][-1]["taken_back"] == [version] and "gold" in on_a["legal"]
