"""A CPU quota for benchmarked processes: each gets at most a fixed share of one core (a Linux cgroup).

Why: on a machine of few cores, the load clients, the database and Redis take the same cores as the
servers, so "how many moves a second one server process carries, and two" cannot be read off a run
where every process grabs what it can: two server processes simply get less each. Capping every server
process at the same share of a core (``--cpu-quota 0.25``: a quarter) makes each one's capacity a
fixed amount of CPU, the same whether it runs alone or beside another, with the rest of the machine
left to the clients. Two processes then saturate at what two such cores would carry; the quota's
``nr_throttled`` periods show that the cap, not the machine, was what stopped a process.

cgroup v2 (``cpu.max`` under the unified hierarchy, with the ``cpu`` controller enabled) or v1 (the
``cpu`` controller's ``cpu.cfs_quota_us``); root is needed to make a group. A process's threads and
the children it starts afterwards are in its group too.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

PERIOD_US = 100_000
V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))


class QuotaUnavailable(RuntimeError):
    """This machine (or user) cannot make CPU-limited groups."""


def _v2_root() -> Path | None:
    for root in V2_ROOTS:
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return root
    return None


class CpuQuota:
    """One cgroup per process added, each capped at ``cores`` of one core; ``close()`` removes them."""

    def __init__(self, cores: float) -> None:
        if not 0.01 <= cores <= 64:
            raise ValueError(f"a CPU quota is a share of one core between 0.01 and 64, not {cores!r}")
        self.cores = cores
        self.groups: dict[int, Path] = {}
        v2 = _v2_root()
        if v2 is not None:
            self.root, self.version = v2, 2
        elif (V1_ROOT / "cpu.cfs_quota_us").exists():
            self.root, self.version = V1_ROOT, 1
        else:
            raise QuotaUnavailable("no cgroup CPU controller found (cgroup v2 cpu.max or v1 cpu.cfs_quota_us)")

    def add(self, pid: int) -> Path:
        """Put process ``pid`` (all its threads) into a group of its own with the quota."""
        group = self.root / f"meeple-bench-{os.getpid()}-{pid}"
        quota_us = round(self.cores * PERIOD_US)
        try:
            group.mkdir(exist_ok=True)
            if self.version == 2:
                (group / "cpu.max").write_text(f"{quota_us} {PERIOD_US}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(quota_us))
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as error:
            with contextlib.suppress(OSError):
                group.rmdir()
            raise QuotaUnavailable(f"cannot make a CPU-limited group in {self.root} ({error}): it needs root") \
                from error
        self.groups[pid] = group
        return group

    def throttling(self, pid: int) -> tuple[int, int] | None:
        """``(periods, throttled periods)`` of ``pid``'s group so far: how often the quota held it back."""
        group = self.groups.get(pid)
        if group is None:
            return None
        try:
            stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines() if line.strip())
        except OSError:
            return None
        return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0))

    def close(self, wait: float = 5.0) -> None:
        """Remove the groups: processes still in one go back to the root group; a group whose last
        process is still exiting is busy for a moment, so removing it is retried for up to ``wait`` s."""
        deadline = time.monotonic() + wait
        for group in self.groups.values():
            while True:
                with contextlib.suppress(OSError):
                    for pid in (group / "cgroup.procs").read_text().split():
                        (self.root / "cgroup.procs").write_text(pid)
                try:
                    group.rmdir()
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
                else:
                    break
        self.groups.clear()
