"""Compiled engines, only when asked: ``MEEPLE_COMPILE=1 pip install .`` (docs/compiled.md).

Everything else about the package is in pyproject.toml; this file only adds the C extensions that mypyc
makes from the engines' rules modules, which then import in place of the Python source.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))
from meeple_build import compiling  # the one statement of when the engines are compiled

#: The modules compiled: each game's state, where a game's rules run (the hot path of playouts and
#: search), and its data, whose constants the state reads on every move: compiled together, a ``Final``
#: constant of either is a C value (a module dictionary lookup by name otherwise). They stay plain typed
#: Python; tests/test_compiled.py checks a compiled build plays the same.
ENGINES = [
    f"meeple/games/{game}/{module}.py"
    for game in ("burgundy", "caylus", "citadels", "palais_royal")
    for module in ("data", "state")
]


def ext_modules() -> list[object]:
    if not compiling():
        return []
    from mypyc.build import mypycify

    # Imports outside the engines (the web stack, say) need not be installed in the build's environment.
    return list(mypycify(["--ignore-missing-imports", *ENGINES], opt_level="3", group_name="meeple_engines"))


setup(ext_modules=ext_modules())
