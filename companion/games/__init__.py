"""Pure rules engines, one module per title, all with the State API of ``api``."""

from __future__ import annotations

import importlib
from types import ModuleType

TITLES = ("outatime",)  # titles whose engine is complete


def get_title(key: str) -> ModuleType:
    """The engine module of a title, e.g. ``get_title("outatime")``."""
    if key not in TITLES:
        from companion.games.api import RuleError

        raise RuleError(f"unknown title {key!r}; known: {', '.join(TITLES)}")
    return importlib.import_module(f"companion.games.{key}")
