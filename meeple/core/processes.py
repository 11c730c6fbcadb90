"""How worker pools start their processes."""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.context import BaseContext


def pool_context() -> BaseContext:
    """``fork`` in a process with one thread (quick, and the workers share what is already imported);
    ``spawn`` beside other threads: a fork copies every lock another thread holds at that instant (a
    logging handler's, a database driver's, an interpreter's internal one), and a child that then needs
    one waits forever. A CI run lost its 90 minutes that way, a tournament's pool forked inside a test
    process whose earlier tests had left threads behind. (``forkserver`` would outlive the main process
    for a moment, and its children are not the main process's own.)"""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")
