"""The titles the companion knows, each a folder of its own, found through one registry.

A title's folder holds everything that title knows and nothing else does:

==============  ===========================================================================
``rules``       the pure rules engine (the State API of ``companion.titles.api``)
``content``     its content-pack sections, their validation, and the owner's ``cards`` fields
``table``       how a camera reading or a button press becomes a proposed action, its menus
``screens``     its OLED screens, drawn from its view and effects
``bots``        its bot players for the simulator and the playouts
``dice``        (titles read by the camera) the face set the dice reader learns
``bench``       (optional) the title's own numbers for ``companion bench engine``
``demo.toml``   its demo content pack (invented contents, labelled as such)
==============  ===========================================================================

Adding a title is one new folder and one line in ``REGISTRY`` (see ``docs/adding-a-title.md``).
The parts are imported only when used, so the pure rules never pull in the camera or the panel.

    >>> title = get("outatime")
    >>> title.facts.name, title.rules.facts.min_players
    ('OUTATIME', 2)
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from companion.i18n import _
from companion.titles.api import Facts, RuleError

# key -> package. The order is the order of the title menu and of the game night.
REGISTRY: dict[str, str] = {
    "outatime": "companion.titles.outatime",
    "back_in_time": "companion.titles.back_in_time",
    "timeline": "companion.titles.timeline",
    "eras": "companion.titles.eras",
}

PARTS = ("rules", "content", "table", "screens", "bots", "dice", "bench")


class Title:
    """One registered title: its key and its parts, each imported on first use."""

    def __init__(self, key: str, package: str):
        self.key = key
        self.package = package
        self._parts: dict[str, ModuleType | None] = {}

    def part(self, name: str) -> ModuleType | None:
        """The title's ``name`` module, or None when the title has no such part."""
        if name not in self._parts:
            module = f"{self.package}.{name}"
            found = importlib.util.find_spec(module) is not None
            self._parts[name] = importlib.import_module(module) if found else None
        return self._parts[name]

    def _required(self, name: str) -> ModuleType:
        module = self.part(name)
        if module is None:
            raise RuleError(_("title {title} has no {part} module ({module})").format(
                title=repr(self.key), part=name, module=f"{self.package}.{name}"))
        return module

    @property
    def rules(self) -> ModuleType:
        return self._required("rules")

    @property
    def content(self) -> ModuleType:
        return self._required("content")

    @property
    def table(self) -> ModuleType:
        return self._required("table")

    @property
    def screens(self) -> ModuleType:
        return self._required("screens")

    @property
    def bots(self) -> ModuleType:
        return self._required("bots")

    @property
    def dice(self) -> ModuleType | None:
        return self.part("dice")

    @property
    def facts(self) -> Facts:
        return self.rules.facts

    def __repr__(self) -> str:
        return f"Title({self.key!r})"


_TITLES: dict[str, Title] = {}


def keys() -> tuple[str, ...]:
    """Every registered title key, in menu order."""
    return tuple(REGISTRY)


def get(key: str) -> Title:
    """The registered title ``key``; a RuleError names the known keys otherwise."""
    if key not in REGISTRY:
        raise RuleError(_("unknown title {title}; known: {known}").format(
            title=repr(key), known=", ".join(REGISTRY)))
    if key not in _TITLES or _TITLES[key].package != REGISTRY[key]:
        _TITLES[key] = Title(key, REGISTRY[key])
    return _TITLES[key]


def rules(key: str) -> ModuleType:
    """The pure rules engine of a title (its State API module)."""
    return get(key).rules


def all_titles() -> list[Title]:
    return [get(key) for key in REGISTRY]
