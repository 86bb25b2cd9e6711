"""Every word a player reads goes through gettext: another language is a catalogue, not a rewrite.

Mark text with ``_()`` and fill values in afterwards with named fields, so a translator can move
them: ``_("{player} rolled {dice}").format(player=..., dice=...)``. The English catalogue lives in
``companion/locale`` (``docs/translating.md`` tells how to extract, translate and compile it).
The language is chosen by ``use``: ``COMPANION_LANG`` (every command), else the config's
``[table] language`` (``companion run`` and ``companion doctor``), else the usual ``LANGUAGE`` /
``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` variables; a language without a catalogue is English.

Looking up a message reads no clock and draws no chance: the rules engines may use ``_``.

    >>> set_language("en")
    >>> _("CONFIRM or BACK")
    'CONFIRM or BACK'
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")
ENV = "COMPANION_LANG"  # the language for every command, over the config and the locale

_translation: gettext.NullTranslations | None = None
_lookup = None  # the catalogue's gettext, bound once: the engines look up on every action


def set_language(language: str | None, localedir: str | Path | None = None) -> None:
    """Use ``language`` (e.g. "fr"; None: from the environment) from now on."""
    global _translation, _lookup
    languages = [language] if language else None
    _translation = gettext.translation(
        DOMAIN, str(localedir or LOCALE_DIR), languages=languages, fallback=True
    )
    _lookup = _translation.gettext


def available(language: str, localedir: str | Path | None = None) -> bool:
    """Whether ``language`` ("fr", "fr_CA", "fr_FR.UTF-8") has a catalogue (English always).

    >>> available("en"), available("xx")
    (True, False)
    """
    if language.split(".")[0].split("_")[0] in ("en", "C", "POSIX"):
        return True
    return gettext.find(DOMAIN, str(localedir or LOCALE_DIR), [language]) is not None


def languages(localedir: str | Path | None = None) -> list[str]:
    """The languages that have a compiled catalogue."""
    folder = Path(localedir or LOCALE_DIR)
    return sorted(p.name for p in folder.iterdir()
                  if (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file())


def use(configured: str = "") -> str | None:
    """Choose the language: ``COMPANION_LANG``, else ``configured`` (the config's
    ``[table] language``), else the environment's locale. Returns what was asked for by name
    (None: the locale's choice)."""
    chosen = os.environ.get(ENV, "").strip() or configured.strip() or None
    set_language(chosen)
    return chosen


def _current() -> gettext.NullTranslations:
    if _translation is None:
        set_language(None)
    return _translation


def _(message: str) -> str:
    """``message`` in the table's language."""
    if _lookup is None:
        set_language(None)
    return _lookup(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the table's language."""
    return _current().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (tables of words)."""
    return message
