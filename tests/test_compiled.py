"""A compiled build (``MEEPLE_COMPILE=1``, docs/compiled.md) plays exactly as the Python source does.

The wheel is built with mypyc from a copy of the sources (no build isolation: this environment's
setuptools and mypy, the test extra's, so nothing is downloaded), unpacked, and the four games' golden
playouts and the engine contract's tests run against it in a subprocess whose ``meeple`` is the compiled
one (checked first: each game's state and data modules must be extension modules there, or the run proves
nothing).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from meeple.core.registry import GAME_CLASSES

ROOT = Path(__file__).resolve().parents[1]
#: Every game meeple ships (tests may register a toy game of their own beside them, which is not built):
#: one missing from setup.py's list would run as Python and fail the check below.
GAMES = tuple(name for name, target in GAME_CLASSES.items() if target.startswith("meeple.games."))


def _why_not_compile() -> str | None:
    """Why this machine cannot build the compiled engines, or None if it can."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) to build the compiled engines"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "no Python headers (Debian: python3-dev) to build the compiled engines"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypy (with mypyc) is not installed: pip install -e '.[test]'"
    return None


#: Prints each game's ``engine_is_compiled`` on stdout, where meeple was imported from on stderr.
_REPORT = ("import sys, meeple; from meeple.core.registry import engine_is_compiled; "
           f"print(*(f'{{g}}:{{engine_is_compiled(g)}}' for g in {GAMES!r})); print(meeple.__file__, file=sys.stderr)")


def _module_bindings_not_final(path: Path) -> list[str]:
    """The module-level names of ``path`` bound without ``Final`` (or ``TypeAlias``, for a type)."""
    loose = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            loose += [ast.unparse(target) for target in node.targets if ast.unparse(target) != "__all__"]
        elif isinstance(node, ast.AnnAssign) and not re.match(r"(Final|TypeAlias)\b", ast.unparse(node.annotation)):
            loose.append(ast.unparse(node.target))
    return loose


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_modules_bind_their_constants_final(game: str) -> None:
    # Compiled, a Final constant is a C value; any other module-level name is looked up by name in the
    # module's dictionary at every use (docs/compiled.md). A constant left without Final plays the same
    # and is only slower, so nothing but this check would notice.
    for module in ("data", "state"):
        path = ROOT / "meeple" / "games" / game / f"{module}.py"
        assert _module_bindings_not_final(path) == [], f"{path.relative_to(ROOT)}: annotate these Final"


def test_the_source_tree_runs_python_engines() -> None:
    ran = subprocess.run([sys.executable, "-c", _REPORT], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=120, check=True)
    assert ran.stdout.split() == [f"{game}:False" for game in GAMES]


@pytest.fixture(scope="module")
def compiled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the compiled build of meeple, unpacked from its wheel."""
    reason = _why_not_compile()
    if reason is not None:
        pytest.skip(reason)
    work = tmp_path_factory.mktemp("compiled")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("meeple", "build_backend"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    wheels = work / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps", "--wheel-dir",
         str(wheels), str(source)],
        env={**os.environ, "MEEPLE_COMPILE": "1"}, capture_output=True, text=True, timeout=1200, check=False)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = wheels.glob("meeple-*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def test_a_compiled_build_plays_the_golden_games_and_keeps_the_contract(compiled_site: Path, tmp_path: Path) -> None:
    # The tests run from a copy, so that no meeple source sits beside them to be imported instead.
    shutil.copytree(ROOT / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(compiled_site)}
    imported = subprocess.run([sys.executable, "-c", _REPORT], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.split() == [f"{game}:True" for game in GAMES], "not the compiled engines"
    assert "meeple" in imported.stderr and str(compiled_site) in imported.stderr  # where meeple came from
    tests = [f"tests/games/{game}/test_golden_playouts.py" for game in GAMES] + ["tests/test_engine_contract.py"]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=1800, check=False)
    assert ran.returncode == 0, ran.stdout[-5000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout and " failed" not in ran.stdout
