"""The examples in the link package's docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

import companion.link.board
import companion.link.lightproto


@pytest.mark.parametrize("module", [companion.link.board, companion.link.lightproto])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
