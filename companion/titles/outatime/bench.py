"""OUTATIME's own numbers for `companion bench engine`: exact stall odds, a long journal replay,
and the button presses it takes to set up a game at the table."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.content import Pack
from companion.journal import Journal
from companion.titles.outatime import rules as outatime


def _dawdle(engine, state, rng: random.Random):
    """A player in no hurry (numbers only when nothing else goes), so a game lasts long."""
    actions = engine.legal_actions(state)
    locks = [a for a in actions if a["type"] == "lock"]
    flux_only = [a for a in locks if set(a["dice"]) == {"flux"}]
    no_numbers = [a for a in locks if not set(a["dice"]) & {"2", "3", "4", "5"}]
    ends = [a for a in actions if a["type"] == "end"]
    return rng.choice(ends or flux_only or no_numbers or actions)


NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")


def SAME_CARDS() -> str:  # noqa: N802 - the menu item, in the language of the table
    from companion.titles.outatime.table import OutatimeTable

    return OutatimeTable.same_cards_label()


def setup_presses(players: int, seed: int, rematch: bool = False) -> tuple[int, int]:
    """(presses, of which CONFIRM) from the title menu to the first roll prompt.

    The deal is made at random (seeded) from the demo pack, and each player wants two of their
    non-TD cards (at random) as Active and Next card. Each menu item is reached the shorter way
    round (NEXT or PREV), as a player who knows the menus would. ``rematch``: the same
    players played a game just before with those Active and Next cards.
    """
    from companion.content import demo_pack
    from companion.session import Session

    rng = random.Random(seed)
    names = list(NAMES[:players])
    pack = demo_pack("outatime")
    state = outatime.new_game(names, {}, pack)
    hands: dict[str, list[str]] = {}
    for _name in names:  # the deal at the table: what each player holds
        action = outatime.sample_chance(state, rng)
        state, _effects = outatime.apply(state, action)
        hands[action["player"]] = list(action["cards"])
    kinds = {c: v["kind"] for c, v in state.cards.items()}
    wants = {n: rng.sample([c for c in hands[n] if kinds[c] != outatime.TD], 2) for n in names}
    named: dict[str, list[str]] = {n: [] for n in names}  # cards entered in a deal menu
    journal = Journal(":memory:")
    if rematch:
        from companion.match import Match

        match = Match.new(journal, "outatime", names, {}, pack)
        for name in names:  # an old journal's way: five-card deals, then the choices
            match.push({"type": "deal", "player": name, "cards": hands[name]})
        for name in names:
            active, nxt = wants[name]
            match.push({"type": "choose", "player": name, "active": active, "next": nxt})
        journal.finish(match.game)
    session = Session(journal, names, lambda title: pack)  # from the title menu
    presses = confirms = 0
    for _step in range(2000):
        prompt = session.prompt()
        if session.match is not None and prompt.kind == "roll":
            journal.close()
            return presses, confirms
        index, card = _wanted(prompt, players, hands, wants, named, kinds)
        forward = (index - prompt.selected) % len(prompt.options)
        back = (prompt.selected - index) % len(prompt.options)
        for _ in range(min(forward, back)):
            session.press("next" if forward <= back else "prev")
        session.press("confirm")
        presses += min(forward, back) + 1
        confirms += 1
        if card is not None:
            named[card[0]].append(card[1])
    raise RuntimeError("the setup did not reach the first roll")


def _wanted(prompt, players: int, hands, wants, named, kinds) -> tuple[int, tuple | None]:
    """The menu item a player at the table picks now (the nearest when several would do), and
    (player, card) when it names a dealt card outside the Active/Next choice."""
    options = prompt.options
    if SAME_CARDS() in options:
        return options.index(SAME_CARDS()), None
    if "OUTATIME" in options:
        return options.index("OUTATIME"), None
    if any(o.startswith(f"{players}: ") for o in options):
        return next(i for i, o in enumerate(options) if o.startswith(f"{players}: ")), None
    who, _sep, what = prompt.title.partition(": ")
    player = next(n for n in hands if n.upper() == who)
    if "ACTIVE" in what:
        targets, dealing = [wants[player][0]], False
    elif "NEXT" in what:
        targets, dealing = [wants[player][1]], False
    else:
        targets, dealing = [c for c in hands[player] if c not in named[player]], True
    fits = []
    for i, option in enumerate(options):
        head = option.replace("\t", " ").split(" ")[0]
        if head in targets or any(kinds[c] == head for c in targets):
            fits.append(i)
    if not fits:
        raise RuntimeError(f"nothing to pick for {prompt.title!r} in {options}")
    index = min(fits, key=lambda i: min((i - prompt.selected) % len(options),
                                        (prompt.selected - i) % len(options)))
    head = options[index].replace("\t", " ").split(" ")[0]
    return index, ((player, head) if dealing and head in kinds else None)


def extras(say) -> dict[str, Any]:
    from companion.match import Match

    # Setting up a game at the table: button presses before the first roll.
    setups = {n: [setup_presses(n, seed) for seed in range(40)] for n in (2, 4, 6)}
    for n, counts in setups.items():
        say(f"setup, {n} players: median {statistics.median(p for p, _ in counts):g} presses "
            f"({statistics.median(c for _, c in counts):g} of them CONFIRM) from the title menu "
            f"to the first roll, over 40 random deals")
    again = [setup_presses(4, seed, rematch=True) for seed in range(10)]
    say(f"setup, 4 players, the same cards as last game: median "
        f"{statistics.median(p for p, _ in again):g} presses")

    # Exact stall odds, cold (cache cleared) for six dice: the worst case.
    times = []
    for _ in range(20):
        outatime.reroll_odds.cache_clear()
        t0 = time.perf_counter()
        outatime.reroll_odds(6, (3, 4, 2, 5, 5, 2))
        times.append((time.perf_counter() - t0) * 1000)
    odds_ms = statistics.median(times)
    say(f"exact reroll odds, 6 dice, uncached: median {odds_ms:.3f} ms")

    # A 2,000-action journal: one long game (long invented cards so it lasts), then replayed.
    long_cards = [
        {"id": f"bench-{kind}-{i}", "kind": kind, "steps": [2, 3, 4, 5] * 3, "source": "demo"}
        for kind, count in (("0.2", 6), ("0.3", 12), ("0.4", 6), ("td", 6))
        for i in range(count)
    ]

    pack = Pack("outatime", "bench", "demo", cards=long_cards)  # for the benchmark only

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        journal = Journal(path)
        n = 0
        while n < 2000:  # as many recorded games as it takes to reach 2,000 actions
            match = Match.new(journal, "outatime", [f"P{i}" for i in range(6)], {}, pack)
            while match.actor() != "terminal":
                if match.actor() == "chance":
                    action = outatime.sample_chance(match.state, rng)
                else:
                    action = _dawdle(outatime, match.state, rng)
                match.state, _ = outatime.apply(match.state, action)
                journal.append(match.game, action)  # journal only: the replay is what is timed
                n += 1
        journal.close()
        t0 = time.perf_counter()
        journal = Journal(path)
        games = [Match(journal, g["id"]) for g in journal.games()]
        replay_ms = (time.perf_counter() - t0) * 1000
        n = sum(len(journal.actions(g.game)) for g in games)
        journal.close()
    say(
        f"journal replay: {n} actions in {len(games)} games read and replayed in {replay_ms:.1f} ms"
    )
    return {
        **{f"setup_presses_{n}p": statistics.median(p for p, _ in c) for n, c in setups.items()},
        **{f"setup_confirms_{n}p": statistics.median(k for _, k in c)
           for n, c in setups.items()},
        "setup_presses_4p_rematch": statistics.median(p for p, _ in again),
        "stall_odds_ms": round(odds_ms, 3),
        "replay_actions": n,
        "replay_ms": round(replay_ms, 1),
    }
