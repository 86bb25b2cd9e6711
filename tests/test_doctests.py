"""The examples in the docstrings of the shared layer and the titles run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion

# The vision, light-link and pin-map packages run their own doctests (tests/vision, tests/link,
# tests/test_hardware.py); the CLI entry points only wire commands together.
ELSEWHERE = ("companion.vision", "companion.link", "companion.pins", "companion.__main__")


def modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(companion.__path__, "companion.")]
    return sorted(n for n in names if not n.startswith(ELSEWHERE))


@pytest.mark.parametrize("name", modules())
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
