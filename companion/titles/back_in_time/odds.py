"""Exact odds for a challenge roll: the chance that the chosen dice meet a need, with the best use
of the one optional reroll, from the dice's face layout. Pure and exact (fractions of 6**n).

A roll meets ``need`` (symbol -> count) when the wilds cover every missing symbol. Biff faces are
locked at once and never rerolled; after the first roll the players may reroll any of the other
dice once. The best reroll is the one that gives the highest chance of meeting the need; among
equally good rerolls the one with fewest dice (fewer new Biffs), then the lowest positions.

    >>> layout = {c: (c, c, c, "wild", "wild", "biff")
    ...           for c in ("speed", "knowledge", "courage", "love")}
    >>> chance(layout, ["love", "love"], {"love": 1}) == 35 / 36  # fails only on two Biffs
    True
    >>> best_reroll(layout, [("courage", "courage"), ("love", "love")], {"love": 2})
    ((0,), 0.3333)

Power Tile and Item modifiers (Change to Wild, Reroll All) are not part of these odds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import factorial

WILD = "wild"
BIFF = "biff"

Layout = dict[str, tuple[str, ...]]


def _key(layout: Layout) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(sorted((c, tuple(f)) for c, f in layout.items()))


def _need_key(need: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((s, n) for s, n in need.items() if n > 0))


def meets(faces: list[str], need: dict[str, int]) -> bool:
    """True when ``faces`` (one per die) meet ``need``, wilds standing in for any symbol."""
    wild = faces.count(WILD)
    short = sum(max(0, n - faces.count(s)) for s, n in need.items())
    return short <= wild


def count(faces: list[str], symbol: str) -> int:
    """How many of ``faces`` count as ``symbol`` (its own faces and wilds)."""
    return sum(1 for f in faces if f == symbol or f == WILD)


# Categories for a need with symbols s_0..s_k-1: index i < k is s_i, then wild, biff, other.


def _category(face: str, symbols: tuple[str, ...]) -> int:
    if face in symbols:
        return symbols.index(face)
    k = len(symbols)
    return k if face == WILD else k + 1 if face == BIFF else k + 2


@lru_cache(maxsize=256)
def _die(faces: tuple[str, ...], symbols: tuple[str, ...]) -> tuple[int, ...]:
    """How many of the die's 6 faces fall in each category."""
    out = [0] * (len(symbols) + 3)
    for f in faces:
        out[_category(f, symbols)] += 1
    return tuple(out)


def _ok(counts: tuple[int, ...], needs: tuple[int, ...]) -> bool:
    """``counts`` = symbol counts then wilds."""
    short = 0
    for c, n in zip(counts, needs, strict=False):
        if c < n:
            short += n - c
    return short <= counts[len(needs)]


@lru_cache(maxsize=20000)
def _roll_dist(dice: tuple[tuple[int, ...], ...], k: int
               ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Distribution of (symbol counts + wild count) for rolling ``dice`` (category weights each),
    as (vector, weight out of 6**len(dice))."""
    dist: dict[tuple[int, ...], int] = {(0,) * (k + 1): 1}
    for die in dice:
        new: dict[tuple[int, ...], int] = {}
        for vec, w in dist.items():
            for cat, n in enumerate(die):
                if not n:
                    continue
                if cat <= k:
                    v = list(vec)
                    v[cat] += 1
                    key = tuple(v)
                else:
                    key = vec
                new[key] = new.get(key, 0) + w * n
        dist = new
    return tuple(dist.items())


@lru_cache(maxsize=200000)
def _reroll_value(kept: tuple[int, ...], dice: tuple[tuple[int, ...], ...],
                  needs: tuple[int, ...]) -> int:
    """Weight (out of 6**len(dice)) that kept counts plus a reroll of ``dice`` meet the need."""
    k = len(needs)
    total = 0
    for vec, w in _roll_dist(dice, k):
        if _ok(tuple(a + b for a, b in zip(kept, vec, strict=True)), needs):
            total += w
    return total


def best_reroll(layout: Layout, dice: list[tuple[str, str]], need: dict[str, int]
                ) -> tuple[tuple[int, ...], float]:
    """For rolled ``dice`` (colour, face), the positions best rerolled and the chance of then
    meeting ``need`` (rounded to 4 places). Biff faces are never rerolled."""
    nk = _need_key(need)
    exact = _best_reroll(_key(layout), tuple((c, f) for c, f in dice), nk)
    return exact[0], round(exact[1], 4)


@lru_cache(maxsize=4096)
def _best_reroll(layout_key, dice: tuple[tuple[str, str], ...], nk
                 ) -> tuple[tuple[int, ...], float]:
    layout = dict(layout_key)
    symbols = tuple(s for s, _n in nk)
    needs = tuple(n for _s, n in nk)
    k = len(symbols)
    candidates = [i for i, (_c, f) in enumerate(dice) if f != BIFF]
    # dice showing the same face on the same colour are interchangeable: try counts, not sets
    groups: dict[tuple[str, str], list[int]] = {}
    for i in candidates:
        groups.setdefault(dice[i], []).append(i)
    keys = sorted(groups)
    best: tuple[float, int, tuple[int, ...]] | None = None
    for choice in product(*(range(len(groups[g]) + 1) for g in keys)):
        chosen = tuple(sorted(i for g, n in zip(keys, choice, strict=True) for i in groups[g][:n]))
        chosen_set = set(chosen)
        kept = [0] * (k + 1)
        for i, (_c, f) in enumerate(dice):
            if i in chosen_set:
                continue
            cat = _category(f, symbols)
            if cat <= k:
                kept[cat] += 1
        rolled = tuple(sorted(_die(tuple(layout[dice[i][0]]), symbols) for i in chosen))
        p = _reroll_value(tuple(kept), rolled, needs) / 6 ** len(chosen)
        rank = (p, -len(chosen), tuple(-i for i in chosen))
        if best is None or rank > (best[0], -best[1], tuple(-i for i in best[2])):
            best = (p, len(chosen), chosen)
    assert best is not None
    return best[2], best[0]


def chance(layout: Layout, dice: list[str], need: dict[str, int], reroll: bool = True) -> float:
    """The exact chance that rolling ``dice`` (colours) meets ``need``, with the best use of the
    one reroll (``reroll=False``: without it)."""
    nk = _need_key(need)
    if not nk:
        return 1.0
    return _chance(_key(layout), tuple(sorted(dice)), nk, reroll)


@lru_cache(maxsize=4096)
def _chance(layout_key, dice: tuple[str, ...], nk, reroll: bool) -> float:
    layout = dict(layout_key)
    symbols = tuple(s for s, _n in nk)
    needs = tuple(n for _s, n in nk)
    k = len(symbols)
    ncat = k + 3
    groups: dict[str, int] = {}
    for c in dice:
        groups[c] = groups.get(c, 0) + 1
    colours = sorted(groups)
    weights = {c: _die(tuple(layout[c]), symbols) for c in colours}
    # every colour group's outcomes: category counts with their multinomial weight
    per_group = []
    for c in colours:
        m = groups[c]
        outs = []
        for counts in _compositions(m, ncat):
            w = factorial(m)
            for cat, n in enumerate(counts):
                w = w // factorial(n) * weights[c][cat] ** n
            if w:
                outs.append((counts, w))
        per_group.append(outs)
    total = 0
    for combo in product(*per_group):
        w = 1
        for _counts, cw in combo:
            w *= cw
        total += w * _best_value(combo, colours, weights, needs, k, reroll)
    n = len(dice)
    return total / 6 ** (2 * n) if reroll else total / 6**n


def _best_value(combo, colours, weights, needs, k, reroll) -> int:
    """Best weight, out of 6**n, of meeting the need after this first roll (``combo``)."""
    n = sum(sum(counts) for counts, _w in combo)
    kept_base = [0] * (k + 1)
    for counts, _w in combo:
        for cat in range(k + 1):
            kept_base[cat] += counts[cat]
    if _ok(tuple(kept_base), needs):
        return 6**n if reroll else 1
    if not reroll:
        return 0
    # "other" faces are always rerolled (no face is worse); wilds and Biffs never are.
    # Symbol faces may be given up for a better chance at another symbol: try each count.
    options = []
    for gi, (counts, _w) in enumerate(combo):
        for cat in range(k):
            if counts[cat] and k > 1:
                options.append((gi, cat, counts[cat]))
    best = 0
    for choice in product(*(range(o[2] + 1) for o in options)):
        kept = list(kept_base)
        rolled = []
        for gi, (counts, _w) in enumerate(combo):
            rolled += [weights[colours[gi]]] * counts[k + 2]
        for (gi, cat, _m), r in zip(options, choice, strict=True):
            kept[cat] -= r
            rolled += [weights[colours[gi]]] * r
        rolled_t = tuple(sorted(rolled))
        value = _reroll_value(tuple(kept), rolled_t, needs) * 6 ** (n - len(rolled_t))
        best = max(best, value)
    return best


def _compositions(m: int, parts: int):
    if parts == 1:
        yield (m,)
        return
    for first in range(m, -1, -1):
        for rest in _compositions(m - first, parts - 1):
            yield (first, *rest)


def at_least(layout: Layout, dice: list[str], symbol: str, most: int) -> list[float]:
    """P(at least k ``symbol``s or wilds) for k = 1..``most``, each with its best reroll."""
    return [chance(layout, dice, {symbol: k}) for k in range(1, most + 1)]
