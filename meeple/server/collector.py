"""The garbage collector tuned for serving: collections of young objects far less often, and the
objects of start-up (modules, the app, the games' tables) never traversed again.

Every move allocates thousands of short-lived containers (each seat's view, its patch and message),
almost all freed at once by reference counting, yet with CPython's default thresholds (700
allocations) each one triggers young collections that traverse whatever survived, and now and then
a full one over every live table: ~30% of a move's CPU in ``bench/move_cost.py``. Nothing the
server keeps relies on the collector to be freed quickly, so collections of the young generation run
every ``YOUNG`` allocations instead, and the full ones rarely (cyclic garbage still goes, later).
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""Allocations (net of frees) between collections of the youngest generation (CPython's default: 700)."""
MIDDLE = 20
OLD = 100
"""Collections of the generation below between two of this one (CPython's defaults: 10 and 10)."""


def tune_for_serving() -> None:
    """Collect once, move every object alive now out of the collector's sight (``gc.freeze``: what
    start-up made stays for the process's life), and set the thresholds above. Once per server
    process, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
