"""Commands for the rules engines: replay, cards, journal, bench engine and journal."""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from companion import titles
from companion.argtypes import game_number, positive_seconds
from companion.cli import UserError
from companion.content import (
    PackError,
    PackWriteError,
    demo_pack,
    editing_owner_pack,
    load_pack,
    owner_pack,
    pack_named,
    save_owner_pack,
)
from companion.i18n import _, ngettext
from companion.journal import (
    GameCheck,
    Journal,
    JournalError,
    JournalWriteError,
    describe,
    stacks,
    write_backup,
)
from companion.paths import state_dir
from companion.replay import shorten
from companion.titles import keys as title_keys
from companion.titles.api import RuleError


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "replay",
        help=_("replay a JSON-lines script of actions and print the final state"),
        description=_("Replay SCRIPT (one JSON action per line, the first a setup line; see "
                      "docs/titles/<title>.md) and print the final state as JSON. A malformed "
                      "or illegal line stops the replay with exit code 2, naming the line and "
                      "the rule; the state reached before it is still printed."),
    )
    p.add_argument("--title", required=True, choices=title_keys())
    p.add_argument("script", help=_("the .jsonl script ('-' for standard input)"))
    p.set_defaults(handler=cmd_replay)

    first = title_keys()[0]
    c = commands.add_parser(
        "cards",
        help=_("register the cards (and other printed contents) of your own box"),
        description=_("Register, list and remove the printed contents of your own box for a "
                      "title (cards, and for some titles a board or a map). Each title's "
                      "entries and fields are described in docs/titles/<title>.md. --title may "
                      "be given before or after the action (default {title}).").format(
                          title=first),
    )
    title_flag = {"choices": title_keys(),
                  "help": _("title key (default {title})").format(title=first)}
    c.add_argument("--title", default=first, **title_flag)
    cc = c.add_subparsers(dest="cards_command", metavar="ACTION")
    cc.required = True
    lst = cc.add_parser("list", help=_("list registered entries (or the demo pack)"))
    lst.add_argument("--title", default=argparse.SUPPRESS, **title_flag)
    lst.add_argument("--demo", action="store_true",
                     help=_("list the built-in demo pack instead"))
    lst.set_defaults(handler=cmd_cards_list)
    fields = _title_fields()
    add = cc.add_parser(
        "add",
        help=_("register one entry (a card)"),
        description=_("Register one entry of your box, field by field; each title's fields "
                      "are listed below (docs/titles/<title>.md tells more). A whole set of "
                      "entries can be registered at once with `companion cards import`."),
    )
    add.add_argument("--title", default=argparse.SUPPRESS, **title_flag)
    add.add_argument("--id", required=True, help=_("a short name you can find the entry by"))
    add.add_argument("--section", help=_("which kind of entry (default: the field's own)"))
    for name, helps in fields.items():
        add.add_argument(f"--{name}", dest=f"field_{name}", metavar="VALUE",
                         help="; ".join(helps))
    add.set_defaults(handler=cmd_cards_add)
    imp = cc.add_parser(
        "import",
        help=_("register many entries at once from a TOML file"),
        description=_("Register every entry of FILE (a content pack in TOML: [[card]] and the "
                      "title's other sections; see docs/titles/<title>.md). The whole result is "
                      "checked before anything is written; an id already registered is refused "
                      "unless --replace."),
    )
    imp.add_argument("--title", default=argparse.SUPPRESS, **title_flag)
    imp.add_argument("file", help=_("the TOML file"))
    imp.add_argument("--replace", action="store_true",
                     help=_("replace registered entries that have the same id"))
    imp.set_defaults(handler=cmd_cards_import)
    rm = cc.add_parser("remove", help=_("remove a registered entry"))
    rm.add_argument("--title", default=argparse.SUPPRESS, **title_flag)
    rm.add_argument("--section", help=_("which kind of entry (default: wherever the id is)"))
    rm.add_argument("id")
    rm.set_defaults(handler=cmd_cards_remove)

    j = commands.add_parser(
        "journal", help=_("games recorded in the journal: list, export, check, repair, backup"))
    jc = j.add_subparsers(dest="journal_command", metavar="ACTION")
    jc.required = True
    jl = jc.add_parser("list", help=_("list recorded games (and any damage found)"))
    je = jc.add_parser(
        "export", help=_("print one game as JSON (default: the latest)"),
        description=_("Print one game as JSON. Every record is checked first: a damaged game "
                      "is refused with a message naming the game and the action (exit 2), or "
                      "with --mark printed as far as it is proven, the damage marked (exit 1)."))
    je.add_argument("--game", type=game_number)
    je.add_argument("--mark", action="store_true",
                    help="export a damaged game as far as it is proven, the damage marked")
    jk = jc.add_parser(
        "check", help="check every game's checksums, and the backup's (exit 1 if damaged)")
    jr = jc.add_parser(
        "repair", help="write a clean journal of what is proven; the damaged file is kept aside",
        description="Rebuild the journal from what its checksums prove, putting back damaged "
        "records the backup holds intact. A game damaged beyond that is kept up to its last "
        "good action and closed. The damaged file is kept beside the journal, untouched. Stop "
        "the table first (systemctl stop companion).")
    jb = jc.add_parser("backup", help="write the backup now (SQLite's online backup API)")
    for sub, handler in ((jl, cmd_journal_list), (je, cmd_journal_export),
                         (jk, cmd_journal_check), (jr, cmd_journal_repair),
                         (jb, cmd_journal_backup)):
        sub.add_argument("--journal", help="journal file (default: the state directory's)")
        sub.add_argument("--backup", help="backup file (default: the config's [journal] "
                         "backup, else beside the journal)")
        sub.set_defaults(handler=handler)

    bj = bench_commands.add_parser(
        "journal",
        help="journal speed and damage: append, resume, roll-to-screen, backup, bit flips",
        description="Append and resume times on a journal file, a simulated game night with "
        "its roll-to-screen time, the backup's size and time, and a bit-flip drill over the "
        "confirmed actions. The last line printed is one JSON object.")
    bj.add_argument("--flips", type=int, default=200, help="bits to flip (default 200)")
    bj.add_argument("--seed", type=int, default=1985)
    bj.add_argument("--journal", help="a recorded journal to drill (default: a demo night)")
    bj.add_argument("--quick", action="store_true",
                    help="no simulated table: bot games through the rules and journal only")
    bj.add_argument("--json", action="store_true", help="print only the JSON line")
    bj.set_defaults(handler=cmd_bench_journal)

    b = bench_commands.add_parser(
        "engine",
        help=_("rules engine speed: actions/s, exact odds, journal replay"),
        description=_("Random playouts, exact stall odds and a 2,000-action journal replay. "
                      "The last line printed is one JSON object (with --json, the only line)."),
    )
    b.add_argument("--title", default=first, choices=title_keys(),
                   help=_("title key (default {title})").format(title=first))
    b.add_argument("--seconds", type=positive_seconds, default=3.0,
                   help=_("time for the playouts"))
    b.add_argument("--json", action="store_true", help=_("print only the JSON line"))
    b.set_defaults(handler=cmd_bench_engine)


# --------------------------------------------------------------------------- replay


def pack_for(title: str, name: str):
    """A content pack by name: 'demo', 'owner' or a path to a TOML file."""
    try:
        return pack_named(title, name)
    except PackError as exc:
        raise UserError(str(exc)) from exc


MAX_SCRIPT_BYTES = 64 * 1024 * 1024  # a long game is a few hundred KB of JSON lines
MAX_REPLAY_WARNINGS = 10  # lines warned about one by one; a script typed wrong throughout


def cmd_replay(args) -> int:
    from companion.content import playable
    from companion.match import make_setup, setup_content
    from companion.replay import LineError, NotedAction, read_line, setup_fields, shorten

    engine = titles.rules(args.title)
    try:
        if args.script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            script = Path(args.script)
            # A pipe or a device never ends (/dev/zero): only a file of a game's size is read.
            if script.exists():
                if not script.is_file():
                    raise UserError(_("{script}: not a file (a folder, a pipe or a device); "
                                      "give the path of a replay script (JSON lines)").format(
                        script=args.script))
                size = script.stat().st_size
                if size > MAX_SCRIPT_BYTES:
                    raise UserError(_("{script}: {size:,} bytes, more than a replay script of "
                                      "{most:,}; give the path of a replay script (JSON "
                                      "lines)").format(script=args.script, size=size,
                                                       most=MAX_SCRIPT_BYTES))
            lines = script.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(_("{script}: cannot read the script ({reason})").format(
            script=args.script, reason=shorten(str(exc)))) from exc
    state = None
    done = warned = 0
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{args.script}:{number}"
        try:
            action = read_line(text)
        except LineError as exc:
            return _replay_stop(engine, state, done, where, str(exc))
        if not isinstance(action, dict):
            return _replay_stop(engine, state, done, where,
                                _("each line must be a JSON object"))
        if state is None:
            if action.get("type") != "setup":
                return _replay_stop(
                    engine, None, 0, where,
                    _("the first line must be the setup, e.g. {example}").format(
                        example='{"type": "setup", "players": ["Ana", "Ben"], "pack": "demo"}'),
                )
            try:
                players, pack_name, options = setup_fields(action, engine.facts.options)
                pack = pack_for(args.title, pack_name)
                why = playable(pack, len(players))
                if why:
                    raise UserError(why)
                setup = make_setup(args.title, players, options, pack)
                state = engine.new_game(setup["players"], setup["options"], setup_content(setup))
            except (LineError, UserError, RuleError) as exc:
                return _replay_stop(engine, None, 0, where, str(exc))
            continue
        action = NotedAction(action)
        try:
            state, _effects = engine.apply(state, action)
        except RuleError as exc:
            return _replay_stop(engine, state, done, where, str(exc))
        except Exception as exc:  # a bug in the rules, not in the script: said, not hidden
            _replay_stop(engine, state, done, where, _(
                "the {title} rules failed on this line ({error}); this is a bug in the "
                "companion: please report it with the script").format(
                    title=args.title, error=f"{type(exc).__name__}: {exc}"))
            return 1
        done += 1
        unread = action.unread()
        warned += bool(unread)
        if unread and warned <= MAX_REPLAY_WARNINGS:
            print("companion replay: " + _unread_fields(where, action.get("type"), unread),
                  file=sys.stderr)
        elif unread and warned == MAX_REPLAY_WARNINGS + 1:
            print("companion replay: " + _(
                "{where}: more lines have fields the rules did not read; only the first {most} "
                "are shown").format(where=where, most=MAX_REPLAY_WARNINGS), file=sys.stderr)
    if state is None:
        print("companion replay: " + _("{script}: no setup line and no actions").format(
            script=args.script), file=sys.stderr)
        return 2
    print(json.dumps(_final(engine, state, done), indent=2))
    return 0


def _unread_fields(where: str, kind: Any, unread: list[str]) -> str:
    """The warning for a line with fields no rule read: most likely misspelt, as the line was
    applied without them (the replay goes on)."""

    from companion.replay import quoted

    named = ", ".join(quoted(field) for field in unread[:5])
    if len(unread) > 5:
        named += _(" and {count} more").format(count=len(unread) - 5)
    return ngettext("{where}: warning: the rules did not read the field {fields} of this {kind} "
                    "action; the line was applied without it (misspelt?)",
                    "{where}: warning: the rules did not read the fields {fields} of this "
                    "{kind} action; the line was applied without them (misspelt?)",
                    len(unread)).format(where=where, fields=named, kind=quoted(kind))


def _final(engine, state, done: int) -> dict[str, Any]:
    out = engine.view(state)
    out["actions"] = done
    return out


def _replay_stop(engine, state, done: int, where: str, reason: str) -> int:
    """Print the state reached (if any) and ``where: reason``, the reason cut short."""

    if state is not None:
        print(json.dumps(_final(engine, state, done), indent=2))
    # Translators: where a problem is ("a file:a line"), then what it is.
    print("companion replay: " + _("{where}: {reason}").format(where=where,
                                                               reason=shorten(reason)),
          file=sys.stderr)
    return 2


# --------------------------------------------------------------------------- cards


def _title_fields() -> dict[str, list[str]]:
    """Every `cards add` flag any title declares, with each title's help for it."""
    fields: dict[str, list[str]] = {}
    for key in title_keys():
        for name, (_section, help_text, *_rest) in titles.get(key).content.FIELDS.items():
            fields.setdefault(name, []).append(f"{key}: {_(help_text)}")
    return fields


def cmd_cards_list(args) -> int:
    try:
        pack = demo_pack(args.title) if args.demo else owner_pack(args.title)
    except PackError as exc:
        raise UserError(str(exc)) from exc
    where = pack.path
    content = titles.get(args.title).content
    total = sum(len(entries) for entries in pack.sections.values())
    if not total:
        print(_("no cards registered for {title} ({where}); add one with {command}").format(
            title=args.title, where=where, command="`companion cards add`"))
        return 0
    counts = ", ".join(_count(k, len(v)) for k, v in pack.sections.items() if v)
    print(f"{pack.name} ({where}): {counts}")
    if pack.source == "demo":
        print(_("DEMO: invented contents for the simulator, not the printed cards"))
    for section, entries in pack.sections.items():
        if len(pack.sections) > 1 and entries:
            print(f"[{section}]")
        for entry in entries:
            note = f"  # {entry['note']}" if entry.get("note") else ""
            line = content.describe(section, entry)
            print(_one_line(f"  {entry['id']:<16} {line} {entry['source']}{note}"))
    return 0


def _one_line(text: str) -> str:
    """``text`` with its control characters escaped (a note of two lines, a tab): an entry is
    listed on one line, as typed."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _count(section: str, n: int) -> str:
    """How many entries of a section: "5 cards"."""
    if section == "card":
        return ngettext("{count} cards", "{count} cards", n).format(count=n)
    # Translators: entries of another section of a content pack; {section} is its name in the
    # pack file (place, event, ...), which stays as it is.
    return _("[{section}] {count}").format(count=n, section=section)


def _owner_sections(title: str) -> dict[str, list[dict[str, Any]]]:
    try:
        pack = owner_pack(title)
    except PackError as exc:
        raise UserError(str(exc)) from exc
    return {name: [dict(e) for e in entries] for name, entries in pack.sections.items()}


def _save(title: str, sections: dict[str, list[dict[str, Any]]], nothing: str = ""):
    """Save the owner's pack; a failure is told with ``nothing`` ("nothing was registered")."""
    try:
        return save_owner_pack(title, sections)
    except PackError as exc:
        said = f"{exc}; {nothing}" if nothing else str(exc)
        raise UserError(said) from exc


def _nothing_registered() -> str:
    return _("nothing was registered")


def _section_of(content, given: dict[str, str]) -> str | None:
    """The one section every given field can belong to (None: not one)."""
    if hasattr(content, "section_of"):
        try:
            return content.section_of(given)
        except ValueError:
            return None
    candidates = set(content.SECTIONS)
    for name in given:
        sections = content.FIELDS[name][0]
        if sections is None:
            continue
        candidates &= {sections} if isinstance(sections, str) else set(sections)
    return candidates.pop() if len(candidates) == 1 else None


def cmd_cards_add(args) -> int:
    content = titles.get(args.title).content
    given = {name[len("field_"):]: value for name, value in vars(args).items()
             if name.startswith("field_") and value is not None}
    foreign = sorted(set(given) - set(content.FIELDS))
    if foreign:
        known = ", ".join(f"--{f}" for f in content.FIELDS)
        raise UserError(_("--{field} is not a field of {title} entries; known: {known}").format(
            field=foreign[0], title=args.title, known=known))
    section = args.section or _section_of(content, given)
    if section is None:
        raise UserError(_("say which kind of entry this is with --section ({sections})").format(
            sections=", ".join(content.SECTIONS)))
    if section not in content.SECTIONS:
        raise UserError(_("--section {section}: {title} has {sections}").format(
            section=repr(section), title=args.title, sections=", ".join(content.SECTIONS)))
    for flag, text in (("id", args.id), *given.items()):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # bytes of another encoding in the arguments
            raise UserError(_("--{flag} {value}: not UTF-8 text (the terminal sent bytes of "
                              "another encoding); type it again; nothing was registered").format(
                flag=flag, value=ascii(text)[:60])) from None
    if not args.id.strip() or not args.id.isprintable():
        raise UserError(_("--id {id}: write a short name on one line, without control "
                          "characters; nothing was registered").format(id=shorten(repr(args.id))))
    entry: dict[str, Any] = {"id": args.id}
    for name, text in given.items():
        try:
            entry[name] = content.parse_field(name, text)
        except ValueError as exc:
            raise UserError(str(exc)) from exc
    entry["source"] = "owner"
    try:  # the entry alone first: its fault is then told as the flags' (not the file's)
        content.SECTIONS[section](dict(entry))
    except ValueError as exc:
        raise UserError(_("{section} {id}: {reason}; nothing was registered").format(
            section=section, id=shorten(repr(args.id)), reason=shorten(str(exc)))) from exc
    with editing_owner_pack(args.title):  # another `cards` command waits: none is lost
        registered = _owner_sections(args.title)
        entries = registered.setdefault(section, [])
        if any(e["id"] == args.id for e in entries):
            raise UserError(_("a card with id {id} is already registered; remove it first")
                            .format(id=repr(args.id)))
        entries.append(entry)
        path = _save(args.title, registered, _nothing_registered())
    shown = content.describe(section, content.SECTIONS[section](dict(entry))).strip()
    print(_("registered {id} ({entry}) in {path}").format(id=args.id, entry=shown, path=path))
    return 0


def cmd_cards_import(args) -> int:
    try:
        incoming = load_pack(args.file, args.title)
    except PackError as exc:
        raise UserError(str(exc)) from exc
    with editing_owner_pack(args.title):  # another `cards` command waits: none is lost
        registered = _owner_sections(args.title)
        added = 0
        for section, entries in incoming.sections.items():
            mine = registered.setdefault(section, [])
            for entry in entries:
                clash = [i for i, e in enumerate(mine) if e["id"] == entry["id"]]
                if clash and not args.replace:
                    raise UserError(
                        _("{file}: {section} {id} is already registered; remove it first or "
                          "import with --replace").format(file=args.file, section=section,
                                                          id=repr(entry["id"]))
                    )
                if clash:
                    mine[clash[0]] = dict(entry)
                else:
                    mine.append(dict(entry))
                added += 1
        path = _save(args.title, registered, _nothing_registered())
    print(ngettext("registered {count} entries from {file} in {path}",
                   "registered {count} entries from {file} in {path}", added).format(
        count=added, file=args.file, path=path))
    return 0


def cmd_cards_remove(args) -> int:
    content = titles.get(args.title).content
    with editing_owner_pack(args.title):  # another `cards` command waits: none is lost
        registered = _owner_sections(args.title)
        for section, entries in registered.items():
            if args.section not in (None, section):
                continue
            kept = [e for e in entries if e["id"] != args.id]
            if len(kept) == len(entries):
                continue
            what = f"{section} {args.id!r}"
            users = _users_of(content, registered, section, args.id)
            if len(users) == 1:  # told as what to remove first, not as a place the pack lacks
                raise UserError(_("{entry} is used by {user}; remove {user} first; nothing was "
                                  "removed").format(entry=what, user=shorten(users[0])))
            if users:
                raise UserError(_("{entry} is used by {users}; remove (or change) those first; "
                                  "nothing was removed").format(
                    entry=what, users=shorten(", ".join(users))))
            registered[section] = kept
            try:
                save_owner_pack(args.title, registered)
            except PackWriteError as exc:
                raise UserError(_("{reason}; nothing was removed").format(reason=exc)) from exc
            except PackError as exc:  # the rest needs it in a way no hook told
                raise UserError(_("{entry} cannot be removed: the other entries need it "
                                  "({reason}); nothing was removed").format(
                    entry=what, reason=shorten(str(exc)))) from exc
            print(_("removed {id}").format(id=args.id))
            return 0
    raise UserError(_("no registered card {id}; see {command}").format(
        id=repr(args.id), command="`companion cards list`"))


def _users_of(content, registered: dict[str, list[dict[str, Any]]], section: str,
              entry_id: str) -> list[str]:
    """The entries that use ``entry_id`` of ``section``, as the title tells them (a title
    whose entries name each other has ``users_of``)."""
    users_of = getattr(content, "users_of", None)
    return list(users_of(registered, section, entry_id)) if users_of is not None else []


# --------------------------------------------------------------------------- journal


def _journal_file(args) -> Path:
    return Path(args.journal) if args.journal else state_dir() / "journal.sqlite3"


@contextlib.contextmanager
def _open_journal(args, reading: bool = False, existing: bool = False):
    """The journal the command names (default: the state directory's). A reading command
    never makes one, and reads a journal it cannot write (a read-only card) as it is; an
    ``existing`` one (repair, backup) never makes one either."""
    path = _journal_file(args)
    backup = args.backup or _configured_backup()
    if not (path.exists() or path.is_symlink()):  # a link to nowhere: the journal says so
        if reading or existing:
            raise UserError(_("no journal at {journal}: no game has been recorded there (give "
                              "another file with --journal)").format(journal=path))
        if not args.journal:
            path.parent.mkdir(parents=True, exist_ok=True)
    try:
        try:
            journal = Journal(path, backup=backup)
        except JournalWriteError:
            if not reading:
                raise
            journal = Journal(path, backup=backup, read_only=True)
            print(_("companion: {journal} cannot be written; reading it as it is").format(
                journal=path), file=sys.stderr)
    except JournalError as exc:
        raise UserError(str(exc)) from exc
    try:
        yield journal
    finally:
        journal.close()


def _configured_backup() -> str | None:
    """The config's [journal] backup, if the config says one (a broken config: the default)."""
    from companion import config

    try:
        return config.load()["journal"]["backup"] or None
    except config.ConfigError:
        return None


def _check(journal: Journal, game: int) -> GameCheck:
    try:
        return journal.check(game)
    except JournalError as exc:
        raise UserError(str(exc)) from exc


def _status(check: GameCheck, finished: Any, closed: bool) -> str:
    status = _("finished") if finished and check.finish_proven else _("unfinished")
    if closed:
        status = _("closed")
    if check.damage is not None:
        return _("{status}, DAMAGED at action {seq}").format(status=status, seq=check.damage.seq)
    if check.problems:
        return _("{status}, damage found, all proven").format(status=status)
    return status


def cmd_journal_list(args) -> int:
    path = _journal_file(args)
    if not (path.exists() or path.is_symlink()):
        print(_("no games recorded yet ({journal} does not exist)").format(journal=path))
        return 0
    with _open_journal(args, reading=True) as journal:
        closed = journal.closed()
        damaged = False
        listed = {g["id"]: g for g in journal.games()}
        # a game whose row is gone from the list is still listed, by its actions: damaged
        games = [listed.get(game, {"id": game, "title": "?", "created": None, "finished": None})
                 for game in journal.game_ids()]
        if not games:
            print(_("no games recorded yet in {journal}").format(journal=journal.path))
        for g in games:
            check = _check(journal, g["id"])
            damaged = damaged or bool(check.problems)
            when = _when(g["created"])
            actions = len(stacks(check.records)[0])
            print(_("{game:>5}  {title:<12} {when}  {n:>5} actions  {status}").format(
                game=g["id"], title=g["title"], when=when, n=actions,
                status=_status(check, g["finished"], g["id"] in closed)))
        if damaged:
            print(_("companion: damage found; `companion journal check` tells where"),
                  file=sys.stderr)
        return 1 if damaged else 0


def cmd_journal_export(args) -> int:
    with _open_journal(args, reading=True) as journal:
        games = journal.games()
        if not games:
            raise UserError(_("the journal {journal} has no games yet").format(
                journal=journal.path))
        game = args.game if args.game is not None else games[-1]["id"]
        check = _check(journal, game)
        if check.fully_proven:
            for problem in check.problems:  # proven all the same: said, not hidden
                print(_("companion: {what} (`companion journal repair` writes it back)").format(
                    what=describe(check, problem)), file=sys.stderr)
            print(json.dumps(journal.export(game), indent=2))
            return 0
        blocking = check.damage or next(p for p in check.problems if p.what == "time")
        message = describe(check, blocking)
        if not args.mark:
            raise UserError(message + " " + _(
                "Nothing was exported: `companion journal export --mark` prints what is proven "
                "with the damage marked; `companion journal repair` keeps what can be proven "
                "and the damaged file aside."))
        print(json.dumps(journal.export(game, mark=True), indent=2))
        print(f"companion: {message}", file=sys.stderr)
        return 1


def cmd_journal_check(args) -> int:
    with _open_journal(args, reading=True) as journal:
        lines = check_lines(journal)
        for line, _damaged in lines:
            print(line)
        return 1 if any(damaged for _line, damaged in lines) else 0


def check_lines(journal: Journal) -> list[tuple[str, bool]]:
    """Lines for every game and one for the backup (the last), each with: is it damage?"""
    # the file's own tables first; the games are checked all the same
    lines: list[tuple[str, bool]] = [(problem, True) for problem in journal.table_problems()]
    for game in journal.game_ids():
        check = _check(journal, game)
        if check.ok:
            lines.append((_("game {game}: {n} actions, every checksum holds").format(
                game=game, n=check.total), False))
        for problem in check.problems:
            lines.append((describe(check, problem), True))
    lines.append(backup_line(journal))
    return lines


def backup_line(journal: Journal) -> tuple[str, bool]:
    """The backup in one line, and whether it is damaged."""
    from companion.journal import check_game, open_source

    if journal.backup_path is None:
        return _("backup: none (an in-memory journal)"), False
    source = open_source(journal.backup_path)
    if source is None:
        return _("backup: none yet at {backup}").format(backup=journal.backup_path), False
    try:
        games = [g for (g,) in source.db.execute("SELECT id FROM games")]
        damaged = [g for g in games if not check_game(source, g, journal.backup_path).ok]
    except (sqlite3.DatabaseError, JournalError) as exc:  # reported, not raised
        return _("backup: DAMAGED, {backup} cannot be read ({error})").format(
            backup=journal.backup_path, error=exc), True
    finally:
        source.db.close()
    age = time.time() - Path(journal.backup_path).stat().st_mtime
    refused = journal.backup_refused()
    if refused:  # no backup is written any more: said, with both ways out
        return _("backup: NOT WRITTEN: {why}. If this journal lost those games (emptied or "
                 "replaced), stop the table and copy the backup over the journal.").format(
            why=refused), True
    if damaged:
        return _("backup: DAMAGED in games {games} ({backup}); the next backup replaces "
                 "it").format(games=", ".join(map(str, damaged)), backup=journal.backup_path), True
    return _("backup: {backup}, {n} games, {age:.0f} minutes old").format(
        backup=journal.backup_path, n=len(games), age=age / 60), False


def cmd_journal_repair(args) -> int:
    with _open_journal(args, existing=True) as journal:
        checks = [_check(journal, g) for g in journal.game_ids()]
        # a damaged list of games, or a table or column gone: a rebuild writes them anew
        if not journal.table_problems() and all(c.ok for c in checks):
            print(_("nothing to repair: every game's checksums hold"))
            return 0
        try:
            done = journal.rebuild()
        except JournalError as exc:
            raise UserError(str(exc)) from exc
        for line in done.lines():
            print(line)
        print(_("the damaged file is kept as {aside}").format(aside=done.aside))
        return 0


def _when(created: Any) -> str:
    """A game's start as the list shows it; "?" for a time no clock can show (a damaged cell)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(created))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def cmd_journal_backup(args) -> int:
    with _open_journal(args, existing=True) as journal:
        try:
            result = write_backup(journal.path, journal.backup_path)
        except JournalError as exc:
            raise UserError(str(exc)) from exc
        if result.skipped:
            raise UserError(result.skipped)
        print(_("backup written: {backup} ({kib:.0f} KiB in {ms:.0f} ms)").format(
            backup=result.path, kib=result.written / 1024, ms=result.seconds * 1000))
        return 0


def cmd_bench_journal(args) -> int:
    from companion.journal_bench import run

    return run(args)


# --------------------------------------------------------------------------- bench


def cmd_bench_engine(args) -> int:
    # The measurements print in English, like the logs (see cmd_bench_table).
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
    while not games or time.perf_counter() - start < args.seconds:  # one game at least
        players = [f"P{i}" for i in range(rng.randint(facts.min_players, facts.max_players))]
        state = engine.new_game(players, {}, pack)
        n = 0
        while engine.actor(state) != "terminal":
            who = engine.actor(state)
            if who == "chance":
                action = engine.sample_chance(state, rng)
            else:
                action = random_bot(engine, state, rng)
            state, _effects = engine.apply(state, action)
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
