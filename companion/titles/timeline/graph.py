"""The TimeLine as a dependency graph: Linchpins are flipped, Ripplepoints follow them.

A Linchpin's side is whatever players last flipped it to. A Ripplepoint's side is a function of
the events it depends on (the events whose ``ripples`` list names it): with one, it shows the
altered side exactly when that one does; with a pair, ``and`` means both must be altered,
``or`` means either. So restoring a Linchpin restores its ripples, and an AND/OR pair changes
only when its condition does (the rulebook's A-2/A-3/A-5 example). Owner packs may chain
Ripplepoints (a Ripplepoint listing ripples of its own); the graph must then be acyclic.

Pure: no I/O. Event ids are Time Indexes, "A-1" to "D-6"; B-1 (the stack that ends the game)
is not an event of the graph but a Linchpin of the rules.

    >>> g = Graph([
    ...     {"id": "A-2", "kind": "linchpin", "ripples": ["A-6", "A-5"]},
    ...     {"id": "A-3", "kind": "linchpin", "ripples": ["A-4", "A-5"]},
    ...     {"id": "A-4", "kind": "ripple"},
    ...     {"id": "A-5", "kind": "ripple", "pair": "and"},
    ...     {"id": "A-6", "kind": "ripple"},
    ... ])
    >>> altered, changed = g.flip(frozenset(), "A-2")
    >>> changed
    ['A-2', 'A-6']
    >>> g.flip(frozenset({"A-3"}), "A-2")[1]
    ['A-2', 'A-6', 'A-5']
"""

from __future__ import annotations

from itertools import product
from typing import Any

from companion.i18n import _

ROWS = "ABCD"
COLUMNS = 6
B1 = "B-1"
POSITIONS = tuple(f"{row}-{col}" for row in ROWS for col in range(1, COLUMNS + 1))
LINCHPIN = "linchpin"
RIPPLE = "ripple"
PAIRS = ("and", "or")


class GraphError(ValueError):
    """A TimeLine that cannot work; the message names the events and the fix."""


class Graph:
    """The events of a TimeLine with their dependencies, checked and ready to evaluate."""

    def __init__(self, events: list[dict[str, Any]] | tuple[dict[str, Any], ...]):
        self.events: dict[str, dict[str, Any]] = {}
        for event in events:
            self.events[event["id"]] = event
        self.linchpins = tuple(e for e in POSITIONS if self.kind(e) == LINCHPIN)
        self.parents: dict[str, list[str]] = {e: [] for e in self.events}
        for eid, event in self.events.items():
            for child in event.get("ripples", ()):
                if child not in self.events:
                    raise GraphError(
                        _(
                            "{event} lists {child} as a ripple, but there is no event {child}; "
                            "register {child} or correct the list"
                        ).format(event=eid, child=child)
                    )
                if child == eid:
                    raise GraphError(_("{event} lists itself as its own ripple").format(event=eid))
                self.parents[child].append(eid)
        self._check()
        self.order = self._topological()
        self._reach = {lp: self._reachable(lp) for lp in self.linchpins}
        self._sides: dict[frozenset[str], frozenset[str]] = {}

    # ------------------------------------------------------------------ checks

    def kind(self, eid: str) -> str | None:
        event = self.events.get(eid)
        return event.get("kind") if event else None

    def _check(self) -> None:
        for eid, event in self.events.items():
            parents = self.parents[eid]
            if event["kind"] == LINCHPIN:
                if parents:
                    raise GraphError(
                        _(
                            "{event} is a Linchpin but {parents} lists it as a ripple; "
                            "Linchpins change only when a player flips them"
                        ).format(event=eid, parents=", ".join(parents))
                    )
                if not event.get("ripples"):
                    raise GraphError(
                        _(
                            "Linchpin {event} lists no ripples; every Linchpin flips at least one "
                            "Ripplepoint (copy the list printed on the card)"
                        ).format(event=eid)
                    )
                continue
            if not parents:
                raise GraphError(
                    _(
                        "Ripplepoint {event} is not listed as a ripple of any event, so it could "
                        "never change; add it to the ripple list of its Linchpin"
                    ).format(event=eid)
                )
            if len(parents) > 2:
                raise GraphError(
                    _(
                        "Ripplepoint {event} is listed by {n} events ({parents}); a Ripplepoint "
                        "depends on one event or on a pair"
                    ).format(event=eid, n=len(parents), parents=", ".join(parents))
                )
            pair = event.get("pair")
            if len(parents) == 2 and pair not in PAIRS:
                raise GraphError(
                    _(
                        "Ripplepoint {event} depends on the pair {first} and {second}: "
                        'say pair = "and" or pair = "or", as printed on the card'
                    ).format(event=eid, first=parents[0], second=parents[1])
                )
            if len(parents) == 1 and pair is not None:
                raise GraphError(
                    _(
                        'Ripplepoint {event} says pair = "{pair}" but only {parent} lists it; '
                        "add it to the other event's ripple list or drop the pair"
                    ).format(event=eid, pair=pair, parent=parents[0])
                )

    def _topological(self) -> tuple[str, ...]:
        """Events in an order where every event comes after those it depends on."""
        waiting = {e: len(p) for e, p in self.parents.items()}
        ready = [e for e in POSITIONS if e in self.events and waiting[e] == 0]
        order: list[str] = []
        while ready:
            eid = ready.pop(0)
            order.append(eid)
            for child in self.events[eid].get("ripples", ()):
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)
        if len(order) < len(self.events):
            raise GraphError(
                _("the ripples go round in a circle: {loop}; a Ripplepoint cannot depend on itself")
                .format(loop=self._cycle(set(order)))
            )
        return tuple(order)

    def _cycle(self, done: set[str]) -> str:
        """One loop among the events not ordered, written "C-2 -> C-3 -> C-2"."""
        start = next(e for e in POSITIONS if e in self.events and e not in done)
        path = [start]
        seen = {start: 0}
        while True:
            here = path[-1]
            nxt = next(p for p in self.parents[here] if p not in done)
            if nxt in seen:
                loop = path[seen[nxt]:] + [nxt]
                return " -> ".join(reversed(loop))
            seen[nxt] = len(path)
            path.append(nxt)

    def _reachable(self, linchpin: str) -> tuple[str, ...]:
        """The events a flip of ``linchpin`` may change, in the order to turn them over:
        the Linchpin, then its ripples in the order its card lists them, then theirs."""
        out = [linchpin]
        queue = [linchpin]
        while queue:
            eid = queue.pop(0)
            for child in self.events[eid].get("ripples", ()):
                if child not in out:
                    out.append(child)
                    queue.append(child)
        return tuple(out)

    # ------------------------------------------------------------------ evaluation

    def sides(self, altered: frozenset[str]) -> frozenset[str]:
        """Every event showing its altered side, given the altered Linchpins."""
        known = self._sides.get(altered)
        if known is not None:
            return known
        out = set()
        for eid in self.order:
            event = self.events[eid]
            if event["kind"] == LINCHPIN:
                if eid in altered:
                    out.add(eid)
                continue
            parents = self.parents[eid]
            if len(parents) == 1:
                on = parents[0] in out
            elif event["pair"] == "and":
                on = parents[0] in out and parents[1] in out
            else:
                on = parents[0] in out or parents[1] in out
            if on:
                out.add(eid)
        result = frozenset(out)
        if len(self._sides) < 4096:
            self._sides[altered] = result
        return result

    def flip(self, altered: frozenset[str], linchpin: str) -> tuple[frozenset[str], list[str]]:
        """Flip ``linchpin``: the new altered Linchpins and the cards to turn over, in order."""
        before = self.sides(altered)
        after_altered = altered ^ {linchpin}
        after = self.sides(after_altered)
        changed = before ^ after
        return after_altered, [e for e in self._reach[linchpin] if e in changed]

    def preview(self, altered: frozenset[str], linchpin: str) -> list[str]:
        """The cards a flip of ``linchpin`` would turn over, in order (nothing changes)."""
        return self.flip(altered, linchpin)[1]

    def ancestors(self, eid: str) -> set[str]:
        """The Linchpins whose side decides the side of ``eid``."""
        out: set[str] = set()
        stack = [eid]
        while stack:
            here = stack.pop()
            if self.kind(here) == LINCHPIN:
                out.add(here)
            stack.extend(self.parents.get(here, ()))
        return out

    def wrong(self, altered: frozenset[str], requires: dict[str, str]) -> list[str]:
        """The required events not showing the required side, in Time Index order."""
        shown = self.sides(altered)
        return [
            eid
            for eid in POSITIONS
            if eid in requires and (eid in shown) != (requires[eid] == "altered")
        ]

    def distance(self, altered: frozenset[str], requires: dict[str, str]) -> int | None:
        """The fewest Linchpin flips that meet ``requires`` from ``altered`` (None: never)."""
        best = None
        for flips in self.solutions(requires, altered):
            if best is None or len(flips) < best:
                best = len(flips)
        return best

    def solutions(self, requires: dict[str, str], altered: frozenset[str] = frozenset()):
        """Every set of Linchpins to flip (among those that matter) that meets ``requires``."""
        relevant = sorted(set().union(*(self.ancestors(e) for e in requires)) if requires else [])
        if len(relevant) > 16:  # far beyond any printed TimeLine; do not enumerate
            return
        for choice in product((False, True), repeat=len(relevant)):
            flips = frozenset(lp for lp, flip in zip(relevant, choice, strict=True) if flip)
            if not self.wrong(altered ^ flips, requires):
                yield flips

    def satisfiable(self, requires: dict[str, str]) -> bool:
        return next(iter(self.solutions(requires)), None) is not None
