"""Every word a player reads goes through gettext: the catalogue is complete, the English one
loads, and a much longer language still fits every screen."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import i18n, titles
from companion.display.cli import catalogue, game_screens

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "catalogue.py"
HAS_BABEL = importlib.util.find_spec("babel") is not None
needs_babel = pytest.mark.skipif(not HAS_BABEL, reason="Babel (dev extra) extracts the catalogue")



def _load_script():
    spec = importlib.util.spec_from_file_location("catalogue", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_babel
def test_the_catalogue_is_up_to_date_with_the_code():
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_english_catalogue_loads():
    i18n.set_language("en")
    try:
        translation = i18n._current()
        assert type(translation).__name__ == "GNUTranslations"
        assert i18n._("CONFIRM or BACK") == "CONFIRM or BACK"
    finally:
        i18n.set_language(None)


def _pseudo(message: str) -> str:
    """A pseudo-translation half as long again, with accents, every {field} kept."""
    parts = re.split(r"(\{[^{}]*\})", message)
    out = []
    for part in parts:
        if part.startswith("{"):
            out.append(part)
        else:
            accented = part.translate(str.maketrans("aeiouAEIOU", "àéîöüÀÉÎÖÜ"))
            out.append(re.sub(r"([A-Za-zÀ-ÿ]{3,})", lambda m: m.group(1) + m.group(1)[:2],
                              accented))
    return "".join(out)


@needs_babel
def test_a_language_with_longer_words_still_fits_every_screen(tmp_path):
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    script = _load_script()
    template = script.extract()
    catalog = Catalog(locale="de", **script.HEADER)
    for message in template:
        if message.id and isinstance(message.id, str):
            catalog.add(message.id, _pseudo(message.id))
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "companion.mo").open("wb") as handle:
        write_mo(handle, catalog)
    i18n.set_language("de", localedir=tmp_path)
    try:
        assert i18n._("CONFIRM or BACK") == _pseudo("CONFIRM or BACK")
        images = list(catalogue())
        for key in titles.keys():
            images += titles.get(key).screens.catalogue()
            images += game_screens(key, seed=3, limit=80)
        from conformance import check_screens_fit

        check_screens_fit(images)
    finally:
        i18n.set_language(None)
