"""The exact challenge odds against brute force: every face of every die, every reroll."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest
from bit_table import add, arrange, attempt, challenge, play, table

from companion.titles.back_in_time import odds, rules

DEMO = {c: (c, c, c, "wild", "wild", "biff") for c in ("speed", "knowledge", "courage", "love")}
# A lopsided layout, as an owner's box might have: other symbols on a die, one wild.
ODD = {
    "love": ("love", "love", "wild", "biff", "speed", "knowledge"),
    "speed": ("speed", "speed", "speed", "love", "biff", "courage"),
    "knowledge": ("knowledge", "wild", "biff", "biff", "courage", "love"),
    "courage": ("courage", "courage", "wild", "wild", "biff", "speed"),
}


def meets_by_assignment(faces: tuple[str, ...], need: dict[str, int]) -> bool:
    """Independent of the engine: try every way of calling each wild one of the symbols."""
    symbols = list(need) or ["love"]
    wilds = faces.count("wild")
    for calls in product(symbols, repeat=wilds):
        if all(faces.count(s) + calls.count(s) >= n for s, n in need.items()):
            return True
    return False


def brute_force(layout, colours: list[str], need: dict[str, int]) -> Fraction:
    """Enumerate every first roll (6**n equally likely face tuples) and, for each, every set of
    non-Biff dice to reroll with every outcome; keep the best set. Exact fractions."""
    key = tuple(sorted(need.items()))

    @cache
    def best_after(first: tuple[str, ...]) -> Fraction:
        best = Fraction(0)
        free = [i for i, f in enumerate(first) if f != "biff"]
        for r in range(len(free) + 1):
            for subset in combinations(free, r):
                hits = 0
                for out in product(*(layout[colours[i]] for i in subset)):
                    faces = list(first)
                    for i, f in zip(subset, out, strict=True):
                        faces[i] = f
                    hits += meets_by_assignment(tuple(faces), dict(key))
                best = max(best, Fraction(hits, 6 ** len(subset)))
        return best

    total = sum(best_after(first) for first in product(*(layout[c] for c in colours)))
    return total / 6 ** len(colours)


CASES = [
    (DEMO, ["love"], {"love": 1}),
    (DEMO, ["love", "love"], {"love": 2}),
    (DEMO, ["knowledge", "knowledge", "speed"], {"knowledge": 3}),
    (DEMO, ["love", "courage", "speed"], {"love": 1, "courage": 1}),
    (ODD, ["love", "speed"], {"love": 1, "speed": 1}),
    (ODD, ["knowledge", "courage", "love"], {"courage": 2}),
    (ODD, ["love", "love", "speed"], {"knowledge": 1, "love": 1}),
    (ODD, ["courage", "speed", "speed"], {"speed": 2, "courage": 1}),
]


@pytest.mark.parametrize(("layout", "colours", "need"), CASES)
def test_chance_with_the_best_reroll_equals_brute_force(layout, colours, need):
    exact = brute_force(layout, colours, need)
    assert odds.chance(layout, colours, need) == pytest.approx(float(exact), abs=1e-12)


def test_chance_without_the_reroll_equals_counting_faces():
    colours = ["love", "knowledge", "courage"]
    for layout in (DEMO, ODD):
        for need in ({"love": 1}, {"courage": 1, "knowledge": 1}, {"love": 2}):
            hits = sum(meets_by_assignment(f, need)
                       for f in product(*(layout[c] for c in colours)))
            assert odds.chance(layout, colours, need, reroll=False) == pytest.approx(
                hits / 216, abs=1e-12)


def test_four_dice_with_two_symbols_needed_match_brute_force():
    colours = ["love", "speed", "courage", "knowledge"]
    need = {"love": 1, "speed": 1}
    exact = brute_force(ODD, colours, need)
    assert odds.chance(ODD, colours, need) == pytest.approx(float(exact), abs=1e-12)


ROLLED = [
    (DEMO, [("love", "biff"), ("love", "love"), ("courage", "courage")], {"love": 2}),
    (ODD, [("love", "speed"), ("speed", "speed"), ("courage", "courage")],
     {"love": 1, "speed": 1}),
    (ODD, [("love", "love"), ("speed", "love"), ("knowledge", "biff"), ("courage", "speed")],
     {"love": 2, "courage": 1}),
    (DEMO, [("love", "love"), ("love", "wild")], {"love": 2}),
]


@pytest.mark.parametrize(("layout", "rolled", "need"), ROLLED)
def test_best_reroll_of_a_roll_equals_brute_force(layout, rolled, need):
    free = [i for i, (_c, f) in enumerate(rolled) if f != "biff"]
    best = Fraction(-1)
    for r in range(len(free) + 1):
        for subset in combinations(free, r):
            hits = 0
            for out in product(*(layout[rolled[i][0]] for i in subset)):
                faces = [f for _c, f in rolled]
                for i, f in zip(subset, out, strict=True):
                    faces[i] = f
                hits += meets_by_assignment(tuple(faces), need)
            best = max(best, Fraction(hits, 6 ** len(subset)))
    dice, p = odds.best_reroll(layout, rolled, need)
    assert p == round(float(best), 4)
    assert all(rolled[i][1] != "biff" for i in dice)  # Biff dice are never proposed


def test_best_reroll_keeps_a_met_roll_and_rerolls_only_the_useless_dice():
    assert odds.best_reroll(DEMO, [("love", "love"), ("love", "wild")], {"love": 2}) == ((),
                                                                                        1.0)
    dice, p = odds.best_reroll(DEMO, [("love", "love"), ("speed", "speed"), ("love", "biff")],
                               {"love": 2})
    assert dice == (1,) and p == round(2 / 6, 4)


def test_the_view_carries_the_odds_before_and_after_the_roll():
    state = arrange(table(2), Ana="hill-valley-high")
    state = play(state, challenge("part", part="cable"), add("marty-5"), add("marty-3"))
    before = rules.view(state)["challenge"]["odds"]
    assert before["chance"] == round(odds.chance(state.content.faces, ["knowledge", "love"],
                                                 {"knowledge": 2}), 4)
    state, _ = attempt(arrange(table(2), Ana="oak-st", george="oak-st", lorraine="oak-st"),
                       "love", ["marty-3", "marty-1"], ["love:love", "speed:speed"])
    after = rules.view(state)["challenge"]["odds"]
    assert after["met"] is True and after["reroll"] == [1]  # the speed die can still add one
    assert {"type": "reroll", "dice": [1]} in rules.legal_actions(state)


def test_count_challenges_show_the_chance_of_each_number_of_symbols():
    state = arrange(table(2), Ana="oak-st", george="oak-st", lorraine="oak-st")
    state = play(state, challenge("love"), add("marty-3"), add("marty-4"))
    shown = rules.view(state)["challenge"]["odds"]
    layout = state.content.faces
    assert shown["at_least"] == [round(odds.chance(layout, ["love", "love"], {"love": k}), 4)
                                 for k in (1, 2)]
