"""Content packs: printed card contents as data, each entry with where it came from.

Most printed contents of these games are not public, so every entry carries a ``source``:

- ``rulebook``: stated in the rulebook itself;
- ``owner``: registered by the owner from the cards of their own box;
- ``demo``: invented for the simulator and tests, never the printed game.

A pack is a TOML file with a ``[pack]`` table and ``[[card]]`` entries. The built-in demo packs
live beside this file; the owner's cards live in ``<config dir>/cards/<title>.toml`` and are
edited with ``companion cards``.

    >>> pack = demo_pack("outatime")
    >>> pack.source, len(pack.cards)
    ('demo', 50)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from companion.paths import config_dir

SOURCES = ("rulebook", "owner", "demo")


class PackError(ValueError):
    """A content pack that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Pack:
    title: str
    name: str
    source: str  # the pack's overall provenance; each card has its own too
    cards: tuple[dict[str, Any], ...]
    note: str = ""
    path: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def card(self, card_id: str) -> dict[str, Any]:
        for card in self.cards:
            if card["id"] == card_id:
                return card
        raise KeyError(card_id)


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
    if not pack_title:
        raise PackError(f'{where}: [pack] needs title = "<title key>"')
    source = meta.get("source", "owner")
    if source not in SOURCES:
        raise PackError(f"{where}: [pack] source {source!r} must be one of {', '.join(SOURCES)}")
    cards = data.get("card", [])
    if not isinstance(cards, list):
        raise PackError(f"{where}: cards must be written as [[card]] tables")
    checked = []
    seen: set[str] = set()
    validate = _validator(pack_title)
    for index, card in enumerate(cards, start=1):
        label = f"{where}: card #{index}"
        if not isinstance(card, dict):
            raise PackError(f"{label} is not a table")
        card = dict(card)
        card.setdefault("source", source)
        if card["source"] not in SOURCES:
            raise PackError(f"{label}: source {card['source']!r} must be one of {SOURCES}")
        card_id = card.get("id")
        if not isinstance(card_id, str) or not card_id.strip():
            raise PackError(f'{label}: needs id = "<short name>"')
        if card_id in seen:
            raise PackError(f"{label}: id {card_id!r} is used twice; give each card its own id")
        seen.add(card_id)
        try:
            checked.append(validate(card))
        except ValueError as exc:
            raise PackError(f"{where}: card {card_id!r}: {exc}") from exc
    return Pack(
        title=pack_title,
        name=str(meta.get("name", where)),
        source=source,
        cards=tuple(checked),
        note=str(meta.get("note", "")),
        path=where,
    )


def _validator(title: str):
    if title == "outatime":
        from companion.games.outatime import validate_card

        return validate_card
    return lambda card: card


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
    name = f"{title}_demo.toml"
    try:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PackError(f"no demo pack for title {title!r}") from exc
    return parse_pack(text, f"built-in {name}", title)


def pack_named(title: str, name: str) -> Pack:
    """A pack by name: "demo", "owner" (which must hold cards) or a path to a pack TOML."""
    if name == "demo":
        return demo_pack(title)
    if name == "owner":
        pack = owner_pack(title)
        if not pack.cards:
            raise PackError(
                f"no cards registered for {title} yet ({owner_pack_path(title)}); register "
                'your box with `companion cards add`, or use the demo deck (pack "demo")'
            )
        return pack
    return load_pack(name, title)


def owner_pack_path(title: str) -> Path:
    return config_dir() / "cards" / f"{title}.toml"


def owner_pack(title: str) -> Pack:
    """The owner's registered cards (an empty pack if none are registered yet)."""
    path = owner_pack_path(title)
    if not path.exists():
        return Pack(title=title, name="owner's cards", source="owner", cards=(), path=str(path))
    return load_pack(path, title)


def save_owner_pack(title: str, cards: list[dict[str, Any]]) -> Path:
    """Write the owner's pack atomically (a crash never leaves half a file)."""
    path = owner_pack_path(title)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Cards registered by the owner from their own box ({title}).",
        "# Edit with `companion cards`; hand edits are checked when the file is loaded.",
        "",
        "[pack]",
        f'title = "{title}"',
        'name = "owner\'s cards"',
        'source = "owner"',
        "",
    ]
    for card in cards:
        lines.append("[[card]]")
        for key, value in card.items():
            lines.append(f"{key} = {_toml_value(value)}")
        lines.append("")
    text = "\n".join(lines)
    parse_pack(text, str(path), title)  # never write a file that would not load back
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'
