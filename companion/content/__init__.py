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

import tomllib
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.paths import config_dir

SOURCES = ("rulebook", "owner", "demo")


class PackError(ValueError):
    """A content pack that cannot be used; the message names the file, the entry and the fix."""


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
        raise PackError(f"unknown title {title!r}; known: {', '.join(REGISTRY)}")
    return get(title).content


def sections_of(title: str) -> dict[str, Any]:
    """Section name -> entry validator, as the title declares them."""
    return dict(title_content(title).SECTIONS)


def parse_pack(text: str, where: str, title: str | None = None) -> Pack:
    """Parse and check a pack's TOML text; ``where`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{where}: not valid TOML ({exc}); fix the syntax and try again") from exc
    meta = data.get("pack", {})
    if not isinstance(meta, dict):
        raise PackError(f"{where}: [pack] must be a table")
    pack_title = meta.get("title", title)
    if title is not None and pack_title != title:
        raise PackError(f"{where}: pack is for title {pack_title!r}, expected {title!r}")
    if not pack_title or not isinstance(pack_title, str):
        raise PackError(f'{where}: [pack] needs title = "<title key>"')
    source = meta.get("source", "owner")
    if source not in SOURCES:
        raise PackError(f"{where}: [pack] source {source!r} must be one of {', '.join(SOURCES)}")
    declared = sections_of(pack_title)
    unknown = sorted(set(data) - set(declared) - {"pack"})
    if unknown:
        raise PackError(
            f"{where}: unknown section(s) {', '.join(unknown)} for {pack_title}; "
            f"known: {', '.join(declared)}"
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
            raise PackError(f"{where}: {exc}") from exc
    return pack


def _entries(raw: Any, section: str, validate, where: str, source: str) -> tuple[dict, ...]:
    if not isinstance(raw, list):
        raise PackError(f"{where}: {section} entries must be written as [[{section}]] tables")
    checked = []
    seen: set[str] = set()
    for index, entry in enumerate(raw, start=1):
        label = f"{where}: {section} #{index}"
        if not isinstance(entry, dict):
            raise PackError(f"{label} is not a table")
        entry = dict(entry)
        entry.setdefault("source", source)
        if entry["source"] not in SOURCES:
            raise PackError(f"{label}: source {entry['source']!r} must be one of {SOURCES}")
        entry_id = entry.get("id")
        if not isinstance(entry_id, str) or not entry_id.strip():
            raise PackError(f'{label}: needs id = "<short name>"')
        if entry_id in seen:
            raise PackError(
                f"{label}: id {entry_id!r} is used twice; give each {section} its own id"
            )
        seen.add(entry_id)
        try:
            checked.append(validate(entry))
        except ValueError as exc:
            raise PackError(f"{where}: {section} {entry_id!r}: {exc}") from exc
    return tuple(checked)


def playable(pack: Pack, players: int) -> str | None:
    """Why ``pack`` cannot serve a game of ``players`` players (None: it can)."""
    check = getattr(title_content(pack.title), "playable", None)
    return check(pack, players) if check is not None else None


def load_pack(path: str | Path, title: str | None = None) -> Pack:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PackError(f"{path}: no such content pack file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError(f"{path}: cannot read the pack ({exc})") from exc
    return parse_pack(text, str(path), title)


def demo_pack(title: str) -> Pack:
    """The built-in demo pack of a title (invented contents, labelled as such)."""
    from companion.titles import REGISTRY

    if title not in REGISTRY:
        raise PackError(f"no demo pack for title {title!r}; known: {', '.join(REGISTRY)}")
    try:
        text = resources.files(REGISTRY[title]).joinpath("demo.toml").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PackError(f"no demo pack for title {title!r}") from exc
    return parse_pack(text, f"built-in {title} demo.toml", title)


def pack_named(title: str, name: str) -> Pack:
    """A pack by name: "demo", "owner" (which must hold entries) or a path to a pack TOML."""
    if name == "demo":
        return demo_pack(title)
    if name == "owner":
        pack = owner_pack(title)
        if not any(pack.sections.values()):
            raise PackError(
                f"no cards registered for {title} yet ({owner_pack_path(title)}); register "
                'your box with `companion cards add`, or use the demo deck (pack "demo")'
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


def save_owner_pack(title: str, cards: list[dict[str, Any]] | dict[str, list[dict[str, Any]]]
                    ) -> Path:
    """Write the owner's pack atomically (a crash never leaves half a file).

    ``cards`` is the ``[[card]]`` list, or every section's entries by section name.
    """
    sections = cards if isinstance(cards, dict) else {"card": cards}
    path = owner_pack_path(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Entries registered by the owner from their own box ({title}).",
        "# Edit with `companion cards`; hand edits are checked when the file is loaded.",
        "",
        "[pack]",
        f'title = "{title}"',
        'name = "owner\'s cards"',
        'source = "owner"',
        "",
    ]
    for section, entries in sections.items():
        for entry in entries:
            lines.append(f"[[{section}]]")
            for key, value in entry.items():
                lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
            lines.append("")
    text = "\n".join(lines)
    parse_pack(text, str(path), title)  # never write a file that would not load back
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _toml_key(key: str) -> str:
    if key and all(c.isalnum() or c in "_-" for c in key):
        return key
    return _toml_value(str(key))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'
