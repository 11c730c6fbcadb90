"""A table followed over its WebSocket as the web page does: full states, then updates applied."""

from __future__ import annotations

from typing import Any

from meeple.server.patch import apply_patch


class Follower:
    """Rebuilds the full state (``{"type": "state", ...}``) from a socket's states and updates, the
    way ``meeple/web/js/table.js`` does; a gap (an update not from the version it has) asks for a resync."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.raw: list[dict[str, Any]] = []
        self.resyncs = 0

    def receive(self) -> dict[str, Any]:
        """The next full state this client has, or the next error or pong as it came."""
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            self.raw.append(message)
            kind = message.get("type")
            if kind == "state":
                self.state = message
                return message
            if kind != "update":
                return message
            if self.state is None or message["version"] < self.state["version"] or (
                    message["from"] < self.state["version"] == message["version"]):
                continue  # old news, as the table page judges it (table.js receiveUpdate)
            if message["from"] != self.state["version"]:
                self.resyncs += 1
                self.ws.send_json({"type": "resync", "version": self.state["version"]})
                continue
            self.state = applied(self.state, message)
            return self.state


def applied(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """``state`` after ``update``."""
    if "view" in update:
        view = update["view"]
    else:
        view = apply_patch(state["view"], update["patch"]) if update["patch"] else state["view"]
    new = {**state, "type": "state", "version": update["version"], "table": update["table"],
           "current_player": update["current_player"], "is_over": update["is_over"], "legal": update["legal"],
           "actions": update["actions"], "can_undo": update.get("can_undo", 0),
           "log": [*state["log"], *update["log"]], "view": view}
    new.pop("hints", None)  # the engine's hints come with the decision they are about, or not at all
    if "hints" in update:
        new["hints"] = update["hints"]
    return new
