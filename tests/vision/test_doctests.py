"""The examples in the vision package's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.vision as vision

MODULES = [m.name for m in pkgutil.iter_modules(vision.__path__, "companion.vision.")
           if not m.name.endswith(".cli")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
