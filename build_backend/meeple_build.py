"""The build backend: setuptools', asking for mypy too when ``MEEPLE_COMPILE=1`` compiles the engines.

The engines' rules modules are plain typed Python; with ``MEEPLE_COMPILE=1`` set, ``pip install`` compiles
them with mypyc into C extensions that import in their place (docs/compiled.md). Without it nothing is
compiled and nothing more is needed, which is the default and what the README's commands do.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517/660 interface, unchanged but for the below)

#: What the compiled build needs beside setuptools: mypyc comes with mypy.
COMPILER = "mypy>=1.11"


def compiling() -> bool:
    """Whether this build compiles the engines (``MEEPLE_COMPILE`` set to anything but empty or 0)."""
    return os.environ.get("MEEPLE_COMPILE", "") not in ("", "0")


# setuptools' own answers run setup.py first (for its ``setup_requires``, which meeple has none of), and
# setup.py needs mypyc when compiling: so the compiled build's answer is given without running it.


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    if compiling():
        return ["wheel", COMPILER]
    return list(_setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    if compiling():
        # The extensions would sit beside the sources and import in their place: edits would not run.
        raise RuntimeError("MEEPLE_COMPILE=1 makes a regular install (pip install .), not an editable one: "
                           "in an editable install the compiled engines would run instead of your edits")
    return list(_setuptools.get_requires_for_build_editable(config_settings))
