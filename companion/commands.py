"""Commands for the rules engines: replay, cards, journal, bench engine."""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from companion import titles
from companion.cli import UserError
from companion.content import (
    PackError,
    demo_pack,
    owner_pack,
    pack_named,
    save_owner_pack,
)
from companion.journal import Journal, JournalError
from companion.paths import state_dir
from companion.titles import keys as title_keys
from companion.titles.api import RuleError


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "replay",
        help="replay a JSON-lines script of actions and print the final state",
        description="Replay SCRIPT (one JSON action per line, the first a setup line; see "
        "docs/titles/<title>.md) and print the final state as JSON. A malformed or illegal line "
        "stops the replay with exit code 2, naming the line and the rule; the state reached "
        "before it is still printed.",
    )
    p.add_argument("--title", required=True, choices=title_keys())
    p.add_argument("script", help="the .jsonl script ('-' for standard input)")
    p.set_defaults(handler=cmd_replay)

    c = commands.add_parser("cards", help="register the cards of your own box")
    cc = c.add_subparsers(dest="cards_command", metavar="ACTION")
    cc.required = True
    lst = cc.add_parser("list", help="list registered cards (or the demo deck)")
    lst.add_argument("--title", default="outatime", choices=title_keys())
    lst.add_argument("--demo", action="store_true", help="list the built-in demo deck instead")
    lst.set_defaults(handler=cmd_cards_list)
    add = cc.add_parser(
        "add",
        help="register one card",
        description="Register one Power card of your box. Steps are the die numbers in the order "
        "they are completed: left to right, or bottom to top on a Temporal Displacement card.",
    )
    add.add_argument("--title", default="outatime", choices=title_keys())
    add.add_argument("--id", required=True, help="a short name you can find the card by")
    add.add_argument("--kind", required=True, help='"0.2", "0.3", "0.4" or "td"')
    add.add_argument("--steps", required=True, help="die numbers, e.g. 3,4,2,5")
    add.add_argument("--note", default="", help="anything to remember about the card")
    add.set_defaults(handler=cmd_cards_add)
    rm = cc.add_parser("remove", help="remove a registered card")
    rm.add_argument("--title", default="outatime", choices=title_keys())
    rm.add_argument("id")
    rm.set_defaults(handler=cmd_cards_remove)

    j = commands.add_parser("journal", help="games recorded in the journal")
    jc = j.add_subparsers(dest="journal_command", metavar="ACTION")
    jc.required = True
    jl = jc.add_parser("list", help="list recorded games")
    jl.add_argument("--journal", help="journal file (default: the state directory's)")
    jl.set_defaults(handler=cmd_journal_list)
    je = jc.add_parser("export", help="print one game as JSON (default: the latest)")
    je.add_argument("--journal", help="journal file (default: the state directory's)")
    je.add_argument("--game", type=int)
    je.set_defaults(handler=cmd_journal_export)

    b = bench_commands.add_parser(
        "engine",
        help="rules engine speed: actions/s, exact odds, journal replay",
        description="Random playouts, exact stall odds and a 2,000-action journal replay. "
        "The last line printed is one JSON object (with --json, the only line).",
    )
    b.add_argument("--title", default="outatime", choices=title_keys())
    b.add_argument("--seconds", type=float, default=3.0, help="time for the playouts")
    b.add_argument("--json", action="store_true", help="print only the JSON line")
    b.set_defaults(handler=cmd_bench_engine)


# --------------------------------------------------------------------------- replay


def pack_for(title: str, name: str):
    """A content pack by name: 'demo', 'owner' or a path to a TOML file."""
    try:
        return pack_named(title, name)
    except PackError as exc:
        raise UserError(str(exc)) from exc


def cmd_replay(args) -> int:
    from companion.match import make_setup, setup_content

    engine = titles.rules(args.title)
    try:
        if args.script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = Path(args.script).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{args.script}: cannot read the script ({exc})") from exc
    state = None
    done = 0
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{args.script}:{number}"
        try:
            action = json.loads(text)
        except json.JSONDecodeError as exc:
            return _replay_stop(engine, state, done, f"{where}: not valid JSON ({exc.msg})")
        if not isinstance(action, dict):
            return _replay_stop(engine, state, done, f"{where}: each line must be a JSON object")
        if state is None:
            if action.get("type") != "setup":
                return _replay_stop(
                    engine,
                    None,
                    0,
                    f'{where}: the first line must be the setup, e.g. {{"type": "setup", '
                    '"players": ["Ana", "Ben"], "pack": "demo"}',
                )
            try:
                pack = pack_for(args.title, action.get("pack", "demo"))
                setup = make_setup(
                    args.title, action.get("players", []), action.get("options", {}), pack
                )
                state = engine.new_game(setup["players"], setup["options"], setup_content(setup))
            except (UserError, RuleError) as exc:
                return _replay_stop(engine, None, 0, f"{where}: {exc}")
            continue
        try:
            state, _ = engine.apply(state, action)
        except RuleError as exc:
            return _replay_stop(engine, state, done, f"{where}: {exc}")
        done += 1
    if state is None:
        return _replay_stop(engine, None, 0, f"{args.script}: no setup line and no actions")
    print(json.dumps(_final(engine, state, done), indent=2))
    return 0


def _final(engine, state, done: int) -> dict[str, Any]:
    out = engine.view(state)
    out["actions"] = done
    return out


def _replay_stop(engine, state, done: int, message: str) -> int:
    if state is not None:
        print(json.dumps(_final(engine, state, done), indent=2))
    print(f"companion replay: {message}", file=sys.stderr)
    return 2


# --------------------------------------------------------------------------- cards


def cmd_cards_list(args) -> int:
    try:
        pack = demo_pack(args.title) if args.demo else owner_pack(args.title)
    except PackError as exc:
        raise UserError(str(exc)) from exc
    where = pack.path
    if not pack.cards:
        print(f"no cards registered for {args.title} ({where}); add one with `companion cards add`")
        return 0
    print(f"{pack.name} ({where}): {len(pack.cards)} cards")
    if pack.source == "demo":
        print("DEMO: invented contents for the simulator, not the printed cards")
    for card in pack.cards:
        steps = "-".join(str(s) for s in card.get("steps", []))
        note = f"  # {card['note']}" if card.get("note") else ""
        print(f"  {card['id']:<16} {card.get('kind', ''):<4} {steps:<16} {card['source']}{note}")
    return 0


def cmd_cards_add(args) -> int:
    try:
        steps = [int(s) for s in args.steps.replace("-", ",").replace(" ", ",").split(",") if s]
    except ValueError as exc:
        raise UserError(f"--steps {args.steps!r}: write die numbers like 3,4,2,5") from exc
    card = {"id": args.id, "kind": args.kind, "steps": steps, "source": "owner"}
    if args.note:
        card["note"] = args.note
    try:
        cards = [dict(c) for c in owner_pack(args.title).cards]
        if any(c["id"] == args.id for c in cards):
            raise UserError(f"a card with id {args.id!r} is already registered; remove it first")
        path = save_owner_pack(args.title, cards + [card])
    except PackError as exc:
        raise UserError(str(exc)) from exc
    print(f"registered {args.id} ({args.kind}: {'-'.join(map(str, steps))}) in {path}")
    return 0


def cmd_cards_remove(args) -> int:
    try:
        cards = [dict(c) for c in owner_pack(args.title).cards]
    except PackError as exc:
        raise UserError(str(exc)) from exc
    kept = [c for c in cards if c["id"] != args.id]
    if len(kept) == len(cards):
        raise UserError(f"no registered card {args.id!r}; see `companion cards list`")
    save_owner_pack(args.title, kept)
    print(f"removed {args.id}")
    return 0


# --------------------------------------------------------------------------- journal


def _open_journal(path: str | None) -> Journal:
    try:
        return Journal(path or state_dir() / "journal.sqlite3")
    except JournalError as exc:
        raise UserError(str(exc)) from exc


def cmd_journal_list(args) -> int:
    journal = _open_journal(args.journal)
    for g in journal.games():
        status = "finished" if g["finished"] else "unfinished"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["created"]))
        print(
            f"{g['id']:>5}  {g['title']:<12} {when}  {len(journal.actions(g['id'])):>5} "
            f"actions  {status}"
        )
    return 0


def cmd_journal_export(args) -> int:
    journal = _open_journal(args.journal)
    games = journal.games()
    if not games:
        raise UserError(f"the journal {journal.path} has no games yet")
    game = args.game if args.game is not None else games[-1]["id"]
    try:
        print(json.dumps(journal.export(game), indent=2))
    except JournalError as exc:
        raise UserError(str(exc)) from exc
    return 0


# --------------------------------------------------------------------------- bench


def cmd_bench_engine(args) -> int:
    from companion.bots import random_bot

    engine = titles.rules(args.title)
    say = (lambda *a: None) if args.json else print
    pack = demo_pack(args.title)

    # Random playouts, every player count the title takes, for the given time.
    facts = engine.facts
    rng = random.Random(1)
    actions = games = 0
    lengths = []
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        players = [f"P{i}" for i in range(rng.randint(facts.min_players, facts.max_players))]
        state = engine.new_game(players, {}, pack)
        n = 0
        while engine.actor(state) != "terminal":
            who = engine.actor(state)
            if who == "chance":
                action = engine.sample_chance(state, rng)
            else:
                action = random_bot(engine, state, rng)
            state, _ = engine.apply(state, action)
            n += 1
        actions += n
        games += 1
        lengths.append(n)
    elapsed = time.perf_counter() - start
    actions_per_s = actions / elapsed
    say(
        f"playouts: {games} games, {actions} actions in {elapsed:.2f} s "
        f"= {actions_per_s:,.0f} actions/s (median game {statistics.median(lengths)} actions)"
    )

    result: dict[str, Any] = {"title": args.title, "games": games, "actions": actions}
    bench = titles.get(args.title).part("bench")
    if bench is not None:  # the title's own measurements (odds, long journals, ...)
        result.update(bench.extras(say))
    result["actions_per_s"] = round(actions_per_s)
    print(json.dumps(result))
    return 0
