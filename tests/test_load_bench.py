"""``bench/load_server.py`` runs end to end: a few seconds of 2 Citadels tables against a real ``meeple serve``
on a temporary SQLite file, printing its figures with moves made and no errors, with either WebSocket client
library (picows decodes permessage-deflate itself: every socket must have it and every message must read)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import IN_CI

ROOT = Path(__file__).resolve().parent.parent
KEYS = (
    "tables", "moves/s", "sender latency p50 ms", "sender latency p95 ms", "sender latency p99 ms",
    "fan-out latency p50 ms", "fan-out latency p95 ms", "fan-out latency p99 ms", "errors", "refusals",
    "disconnects", "timeouts", "bytes per message mean", "bytes per message p99", "bytes per move",
    "client cpu % max", "client loop lag p99 ms", "client-bound",
)


@pytest.mark.parametrize("client", ["websockets", "picows"])
def test_load_benchmark_plays_two_tables_without_errors(tmp_path: Path, client: str) -> None:
    if client == "picows" and importlib.util.find_spec("picows") is None:
        if IN_CI:
            pytest.fail("picows is required in CI (scripts/test.sh installs the bench extra)")
        pytest.skip("picows is not installed (pip install -e '.[bench]')")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
    env.update(TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load_server.py"), "--tables", "2", "--duration", "3",
         "--warmup", "1", "--think", "0.2", "--client-procs", "1", "--timeout", "5", "--ws-client", client],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    figures: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, sep, value = line.rpartition(": ")
        if sep:
            figures.setdefault(key, value)
    missing = [key for key in KEYS if key not in figures]
    assert not missing, f"missing {missing} in:\n{result.stdout}"
    assert any(key.startswith("server0 pid") and key.endswith("cpu %") for key in figures), result.stdout
    assert figures["tables"] == "2"
    assert f"client processes: 1 ({client})" in result.stdout
    assert int(figures["sockets opened"]) >= 8
    assert figures["sockets opened with permessage-deflate"] == figures["sockets opened"], result.stdout
    assert float(figures["moves/s"]) > 0, result.stdout
    assert figures["errors"] == "0", result.stdout
    assert float(figures["fan-out latency p99 ms"]) >= float(figures["fan-out latency p50 ms"]) > 0
    assert result.stdout.splitlines()[-1].startswith("summary: "), result.stdout
    assert not list(tmp_path.glob("meeple-bench-*")), "the temporary database folder is removed"


def quota_possible() -> bool:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from cpu_quota import CpuQuota, QuotaUnavailable

        try:
            CpuQuota(0.5)
        except QuotaUnavailable:
            return False
        return os.geteuid() == 0
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_a_cpu_quota_caps_a_spinning_process_and_counts_its_throttling() -> None:
    """What ``--cpu-quota`` rests on: a process that would use a whole core gets its quota and no more."""
    if not quota_possible():
        import pytest

        pytest.skip("making a CPU-limited cgroup needs root and a cgroup CPU controller")
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from cpu_quota import CpuQuota
    finally:
        sys.path.remove(str(ROOT / "bench"))
    quota = CpuQuota(0.2)
    spinner = subprocess.Popen([sys.executable, "-c", "import sys, time\nsys.stdin.readline()\n"
                                "t = time.monotonic()\nwhile time.monotonic() - t < 2: pass\n"
                                "print(time.process_time())"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        quota.add(spinner.pid)
        output, _ = spinner.communicate("go\n", timeout=30)
        used = float(output)
        periods, throttled = quota.throttling(spinner.pid) or (0, 0)
    finally:
        quota.close()
    assert 0.2 <= used <= 0.2 * 2 * 1.5 + 0.1, used  # ~0.4 s of CPU in 2 s, not 2 s
    assert periods >= 15 and throttled >= periods // 2, (periods, throttled)


def test_the_load_benchmark_runs_its_servers_under_a_cpu_quota(tmp_path: Path) -> None:
    if not quota_possible():
        import pytest

        pytest.skip("making a CPU-limited cgroup needs root and a cgroup CPU controller")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")}
    env.update(TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load_server.py"), "--tables", "2", "--duration", "3",
         "--warmup", "1", "--think", "0.2", "--client-procs", "1", "--timeout", "5", "--cpu-quota", "0.5"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=90,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "each capped at 0.5 of a core" in result.stdout, result.stdout
    assert any(line.startswith("server0 quota: 0.5 core, throttled in ") for line in result.stdout.splitlines()), \
        result.stdout
    roots = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
    assert not [group for root in roots for group in root.glob("meeple-bench-*")], "the groups are removed"
