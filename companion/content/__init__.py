"""Content packs: printed contents as data, each entry with where it came from.

Most printed contents of these games are not public, so every entry carries a ``source``:

- ``rulebook``: stated in the rulebook itself;
- ``owner``: registered by the owner from the cards of their own box;
- ``demo``: invented for the simulator and tests, never the printed game.

A pack is a TOML file with a ``[pack]`` table and entries in the sections its title declares
(``[[card]]`` for cards; a title may declare more, such as ``[[event]]`` or ``[[place]]``). Each
title's ``content`` module names its sections, checks every entry, and checks the pack as a
whole. The built-in demo pack of a title lives in its folder (``demo.toml``); the owner's
entries live in ``<config dir>/cards/<title>.toml`` and are edited with ``companion cards``.

    >>> from companion.titles import keys
    >>> pack = demo_pack(keys()[0])
    >>> pack.source, all(e["source"] == "demo" for e in pack.cards)
    ('demo', True)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from companion import toml_text
from companion.files import write_atomically
from companion.i18n import _
from companion.paths import config_dir
from companion.replay import shorten

SOURCES = ("rulebook", "owner", "demo")
# The keys of a pack's own [pack] table; any other key is a typo (``titel``) and refused.
HEADER_KEYS = ("title", "name", "source", "note")


class PackError(ValueError):
    """A content pack that cannot be used; the message names the file, the entry and the fix."""


class PackWriteError(PackError):
    """The owner's pack could not be written (a full disk, no permission); the file as it was
    before is kept and no temporary file is left behind."""


class Pack:
    """A title's content: entries by section, each entry a dict with ``id`` and ``source``.

    ``cards`` is a shorthand for the ``card`` section (``Pack(..., cards=[...])``).
    """

    def __init__(self, title: str, name: str, source: str, cards=(), note: str = "",
                 path: str = "", sections: dict[str, Any] | None = None):
        self.title = title
        self.name = name
        self.source = source  # the pack's overall provenance; each entry has its own too
        self.sections = {k: tuple(v) for k, v in (sections or {}).items()}
        if cards or "card" not in self.sections:
            self.sections["card"] = tuple(cards)
        self.note = note
        self.path = path

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}: {len(v)}" for k, v in self.sections.items())
        return f"Pack({self.title!r}, {self.name!r}, {self.source!r}, {counts})"

    @property
    def cards(self) -> tuple[dict[str, Any], ...]:
        """The ``[[card]]`` entries."""
        return self.sections.get("card", ())

    def entries(self, section: str = "card") -> tuple[dict[str, Any], ...]:
        return self.sections.get(section, ())

    def card(self, card_id: str, section: str = "card") -> dict[str, Any]:
        for card in self.entries(section):
            if card["id"] == card_id:
                return card
        raise KeyError(card_id)

    def to_setup(self) -> dict[str, list[dict[str, Any]]]:
        """Every entry, by section, as JSON-ready lists (what a game's setup copies in)."""
        return {name: [dict(e) for e in entries] for name, entries in self.sections.items()}


def title_content(title: str) -> ModuleType:
    """The ``content`` module of a registered title (its sections and checks)."""
    from companion.titles import REGISTRY, get

    if title not in REGISTRY:
        raise PackError(_("unknown title {title}; known: {known}").format(
            title=repr(title), known=", ".join(REGISTRY)))
    return get(title).content


def sections_of(title: str) -> dict[str, Any]:
    """Section name -> entry validator, as the title declares them."""
    return dict(title_content(title).SECTIONS)


def parse_pack(text: str, where: str, title: str | None = None) -> Pack:
    """Parse and check a pack's TOML text; ``where`` names it in error messages."""
    text = text.removeprefix("\ufeff")  # a byte-order mark (Notepad's UTF-8) is not text
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError(_("{where}: not valid TOML ({reason}); fix the syntax and try again")
                        .format(where=where, reason=exc)) from exc
    except RecursionError as exc:
        raise PackError(_("{where}: not valid TOML ({reason}); fix the syntax and try again")
                        .format(where=where, reason=_("nested too deeply"))) from exc
    meta = data.get("pack", {})
    if not isinstance(meta, dict):
        raise PackError(_("{where}: [pack] must be a table").format(where=where))
    typos = sorted(set(meta) - set(HEADER_KEYS))
    if typos:
        raise PackError(_("{where}: [pack] has unknown key(s) {keys}; known: {known}").format(
            where=where, keys=shorten(", ".join(typos)), known=", ".join(HEADER_KEYS)))
    pack_title = meta.get("title", title)
    if title is not None and pack_title != title:
        raise PackError(_("{where}: pack is for title {title}, expected {expected}").format(
            where=where, title=shorten(repr(pack_title)), expected=repr(title)))
    if not pack_title or not isinstance(pack_title, str):
        raise PackError(_("{where}: [pack] needs {example}").format(
            where=where, example='title = "<title key>"'))
    source = meta.get("source", "owner")
    if source not in SOURCES:
        raise PackError(_("{where}: [pack] source {source} must be one of {known}").format(
            where=where, source=shorten(repr(source)), known=", ".join(SOURCES)))
    declared = sections_of(pack_title)
    unknown = sorted(set(data) - set(declared) - {"pack"})
    if unknown:
        raise PackError(
            _("{where}: unknown section(s) {sections} for {title}; known: {known}").format(
                where=where, sections=shorten(", ".join(unknown)), title=pack_title,
                known=", ".join(declared))
        )
    sections = {
        name: _entries(data.get(name, []), name, validate, where, source)
        for name, validate in declared.items()
    }
    pack = Pack(
        title=pack_title,
        name=str(meta.get("name", where)),
        source=source,
        sections=sections,
        note=str(meta.get("note", "")),
        path=where,
    )
    check = getattr(title_content(pack_title), "check_pack", None)
    if check is not None:
        try:
            check(pack)
        except ValueError as exc:
            # Translators: where a problem is ("a file: an entry"), then what it is.
            raise PackError(_("{where}: {reason}").format(where=where, reason=shorten(str(exc)))) \
                from exc
    return pack


def _entries(raw: Any, section: str, validate, where: str, source: str) -> tuple[dict, ...]:
    if not isinstance(raw, list):
        raise PackError(_("{where}: {section} entries must be written as {example} tables")
                        .format(where=where, section=section, example=f"[[{section}]]"))
    checked = []
    seen: set[str] = set()
    for index, entry in enumerate(raw, start=1):
        label = f"{where}: {section} #{index}"
        if not isinstance(entry, dict):
            raise PackError(_("{entry} is not a table").format(entry=label))
        entry = dict(entry)
        entry.setdefault("source", source)
        if entry["source"] not in SOURCES:
            raise PackError(_("{entry}: source {source} must be one of {known}").format(
                entry=label, source=shorten(repr(entry["source"])), known=", ".join(SOURCES)))
        entry_id = entry.get("id")
        if not isinstance(entry_id, str) or not entry_id.strip():
            raise PackError(_("{entry}: needs {example}").format(
                entry=label, example='id = "<short name>"'))
        if not entry_id.isprintable():  # ids are shown on screens and typed in commands
            raise PackError(_("{entry}: id {id} holds a line break or a control character; "
                              "write it on one line, e.g. {example}").format(
                entry=label, id=shorten(repr(entry_id)), example='id = "<short name>"'))
        # An entry's values are echoed cut short: a value of megabytes is not printed whole.
        shown_id = shorten(repr(entry_id))
        if entry_id in seen:
            raise PackError(
                _("{entry}: id {id} is used twice; give each {section} its own id").format(
                    entry=label, id=shown_id, section=section)
            )
        seen.add(entry_id)
        try:
            checked.append(validate(entry))
        except ValueError as exc:
            raise PackError(_("{where}: {reason}").format(
                where=f"{where}: {section} {shown_id}", reason=shorten(str(exc)))) from exc
    return tuple(checked)


def playable(pack: Pack, players: int) -> str | None:
    """Why ``pack`` cannot serve a game of ``players`` players (None: it can)."""
    from companion.titles import get
    from companion.titles.api import player_count_problem

    content = title_content(pack.title)
    # said as the rules say it, not as a pack lacking what no box holds
    wrong_count = player_count_problem(get(pack.title).facts, players)
    if wrong_count:
        return wrong_count
    check = getattr(content, "playable", None)
    return check(pack, players) if check is not None else None


MAX_PACK_BYTES = 4 * 2**20  # a whole box of cards is a few hundred KB of TOML at most


def load_pack(path: str | Path, title: str | None = None) -> Pack:
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
            raise PackError(_("{path}: not a regular file (a device or a pipe); a content pack "
                              "is a TOML file").format(path=path))
        if info.st_size > MAX_PACK_BYTES:
            raise PackError(_("{path}: {size} MB is more than a content pack holds (at most "
                              "{most} MB); check the path").format(
                path=path, size=f"{info.st_size / 2**20:,.0f}", most=MAX_PACK_BYTES // 2**20))
        text = _pack_text(path.read_bytes(), path)
    except FileNotFoundError as exc:
        raise PackError(_("{path}: no such content pack file").format(path=path)) from exc
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, PackError):
            raise
        raise PackError(_("{path}: cannot read the pack ({reason})").format(
            path=path, reason=exc)) from exc
    return parse_pack(text, str(path), title)


def _pack_text(raw: bytes, path: Path) -> str:
    """A pack file's text (``toml_text.decode``: a byte-order mark dropped, other bytes than
    UTF-8 refused naming the line)."""
    try:
        return toml_text.decode(raw)
    except toml_text.TextFileError as exc:
        raise PackError(_("{path}: {reason}").format(path=path, reason=exc)) from exc


def demo_pack(title: str) -> Pack:
    """The built-in demo pack of a title (invented contents, labelled as such)."""
    from companion.titles import REGISTRY

    if title not in REGISTRY:
        raise PackError(_("no demo pack for title {title}; known: {known}").format(
            title=repr(title), known=", ".join(REGISTRY)))
    try:
        text = resources.files(REGISTRY[title]).joinpath("demo.toml").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PackError(_("no demo pack for title {title}").format(title=repr(title))) from exc
    return parse_pack(text, f"built-in {title} demo.toml", title)


def pack_named(title: str, name: str) -> Pack:
    """A pack by name: "demo", "owner" (which must hold entries) or a path to a pack TOML."""
    if name == "demo":
        return demo_pack(title)
    if name == "owner":
        pack = owner_pack(title)
        if not any(pack.sections.values()):
            raise PackError(
                _("no cards registered for {title} yet ({path}); register your box with "
                  "{command}, or use the demo deck ({setting})").format(
                    title=title, path=owner_pack_path(title), command="`companion cards add`",
                    setting='pack "demo"')
            )
        return pack
    return load_pack(name, title)


def owner_pack_path(title: str) -> Path:
    return config_dir() / "cards" / f"{title}.toml"


def owner_pack(title: str) -> Pack:
    """The owner's registered entries (an empty pack if none are registered yet)."""
    path = owner_pack_path(title)
    if not path.exists():
        sections = {name: () for name in sections_of(title)}
        return Pack(title=title, name="owner's cards", source="owner", sections=sections,
                    path=str(path))
    return load_pack(path, title)


_HELD: dict[str, int] = {}  # lock files this process holds, and how many times over


@contextlib.contextmanager
def editing_owner_pack(title: str) -> Iterator[Path]:
    """Hold the owner's pack of ``title`` for a read-modify-write: another ``companion cards``
    waits until this one has written its result (two at once would each write what they read,
    and one's entries would be lost). An advisory lock (``flock``) on ``<title>.toml.lock``
    beside the pack; the operating system lets it go when the process ends, however it ends.
    Re-entrant within a process. Yields the pack's path."""
    path = owner_pack_path(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = str(path.with_name(path.name + ".lock"))
    if lock in _HELD:
        _HELD[lock] += 1
        try:
            yield path
        finally:
            _HELD[lock] -= 1
        return
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _HELD[lock] = 1
        try:
            yield path
        finally:
            del _HELD[lock]
    finally:
        os.close(fd)  # closing the file lets the lock go


def save_owner_pack(title: str, cards: list[dict[str, Any]] | dict[str, list[dict[str, Any]]]
                    ) -> Path:
    """Write the owner's pack atomically (a crash never leaves half a file).

    ``cards`` is the ``[[card]]`` list, or every section's entries by section name. A field
    whose value is None (an optional field left out, as the validators fill it in) is not
    written: TOML has no "nothing". A pack file that is a symbolic link is written through to
    the file it points to. To change what was read, hold :func:`editing_owner_pack` across the
    reading and the saving.
    """
    sections = cards if isinstance(cards, dict) else {"card": cards}
    with editing_owner_pack(title) as path:
        meta = {"name": "owner's cards", **_kept_meta(path)}
        lines = [
            f"# Entries registered by the owner from their own box ({title}).",
            "# Edit with `companion cards`; hand edits are checked when the file is loaded.",
            "# `companion cards` writes this file anew: the pack's name and note are kept, "
            "comments",
            "# are not.",
            "",
            "[pack]",
            f'title = "{title}"',
            *(f"{key} = {toml_text.quoted(value)}" for key, value in meta.items()),
            'source = "owner"',
            "",
        ]
        for section, entries in sections.items():
            for entry in entries:
                lines.append(f"[[{section}]]")
                for key, value in entry.items():
                    if value is not None:
                        lines.append(f"{toml_text.key(key)} = {_toml_value(value)}")
                lines.append("")
        text = "\n".join(lines)
        parse_pack(text, str(path), title)  # never write a file that would not load back
        _write_atomically(path, text.encode("utf-8"))
    return path


def _write_atomically(path: Path, data: bytes) -> None:
    """``write_atomically``, its failure told as the owner's pack not written."""
    try:
        write_atomically(path, data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            reason = _("{reason}: the disk is full").format(reason=reason)
        where = f"{path} -> {os.path.realpath(path)}" if path.is_symlink() else str(path)
        raise PackWriteError(_("{path}: cannot write the owner's pack ({reason}); the entries "
                               "registered before are kept as they were").format(
            path=where, reason=reason)) from exc


def _kept_meta(path: Path) -> dict[str, str]:
    """The owner's own name and note of their pack file (typed by hand), kept when the file is
    written anew; nothing when it is missing or unreadable (it is then checked on loading)."""
    try:
        meta = tomllib.loads(path.read_text(encoding="utf-8-sig")).get("pack", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return {}
    if not isinstance(meta, dict):
        return {}
    return {key: meta[key] for key in ("name", "note") if isinstance(meta.get(key), str)}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{toml_text.key(k)} = {_toml_value(v)}" for k, v in value.items()
                 if v is not None)
        return "{" + ", ".join(pairs) + "}"
    return toml_text.quoted(value)
