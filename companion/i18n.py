"""Every word a player reads goes through gettext: another language is a catalogue, not a rewrite.

Mark text with ``_()`` and fill values in afterwards with named fields, so a translator can move
them: ``_("{player} rolled {dice}").format(player=..., dice=...)``. The English catalogue lives in
``companion/locale`` (``docs/translating.md`` tells how to extract, translate and compile it).
The language is chosen by ``set_language`` (the config's ``[table] language``), else by the
usual ``LANGUAGE`` / ``LC_ALL`` / ``LANG`` variables; an unknown language falls back to English.

Looking up a message reads no clock and draws no chance: the rules engines may use ``_``.

    >>> set_language("en")
    >>> _("CONFIRM or BACK")
    'CONFIRM or BACK'
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")

_translation: gettext.NullTranslations | None = None


def set_language(language: str | None, localedir: str | Path | None = None) -> None:
    """Use ``language`` (e.g. "fr"; None: from the environment) from now on."""
    global _translation
    languages = [language] if language else None
    _translation = gettext.translation(
        DOMAIN, str(localedir or LOCALE_DIR), languages=languages, fallback=True
    )


def _current() -> gettext.NullTranslations:
    if _translation is None:
        set_language(None)
    return _translation


def _(message: str) -> str:
    """``message`` in the table's language."""
    return _current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the table's language."""
    return _current().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (tables of words)."""
    return message
