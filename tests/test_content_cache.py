"""Restoring recorded states compiles a content pack's sections once, and only the same ones."""

from __future__ import annotations

import copy

import pytest

from companion import titles
from companion.content import demo_pack
from companion.titles.api import ContentCache


@pytest.mark.parametrize("key", ["back_in_time", "timeline"])
def test_states_restored_from_the_same_sections_share_their_compiled_content(key):
    engine = titles.rules(key)
    data = engine.to_json(engine.new_game(["Ana", "Ben"], {}, demo_pack(key)))
    first, again = engine.from_json(data), engine.from_json(copy.deepcopy(data))
    assert first.content is again.content
    assert engine.to_json(again) == data


def test_other_sections_compile_apart_and_the_cache_stays_small():
    built = []
    cache = ContentCache(lambda s: built.append(s) or len(built), size=2)
    assert cache({"a": [1]}) == cache({"a": [1]}) == 1
    assert cache({"a": [2]}) == 2 and len(built) == 2
    cache({"a": [3]})  # a third: the cache starts over rather than grow
    assert len(cache._found) == 1 and cache({"a": [1]}) == 4
