"""The message catalogue: every player-facing string marked with ``_()``, ``N_()`` or
``ngettext()`` in ``companion/``, as a gettext template and the English catalogue.

    python scripts/catalogue.py          # extract companion/locale/companion.pot, update the
                                         # English .po (msgstr = msgid) and compile its .mo
    python scripts/catalogue.py --check  # exit 1 if any of those files is out of date
    python scripts/catalogue.py --init fr  # start companion/locale/fr/LC_MESSAGES/companion.po

Extraction uses Babel (a dev dependency). A translator copies the template to a language's
folder (``--init``), fills in ``msgstr`` (keeping every ``{field}``), and runs this script
again to compile it; see docs/translating.md.
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "companion"
LOCALE = SOURCE / "locale"
DOMAIN = "companion"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
# Fixed dates, so the files change only when the messages do.
STAMP = datetime(2026, 1, 1, tzinfo=UTC)
HEADER = {"project": "companion", "charset": "utf-8", "fuzzy": False, "creation_date": STAMP,
          "revision_date": STAMP, "copyright_holder": "the companion authors",
          "msgid_bugs_address": "", "last_translator": "", "language_team": ""}
METHODS = [("**.py", "python")]


def extract() -> Catalog:
    """Every marked message of the package, with where it is used."""
    catalog = Catalog(**HEADER)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE), METHODS, keywords=KEYWORDS, comment_tags=("Translators:",)
    ):
        where = (f"companion/{filename}", lineno)
        catalog.add(message, locations=[where], auto_comments=comments, context=context)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=True, no_location=True)
    # Which Babel wrote it is no part of the catalogue (and differs between machines).
    lines = out.getvalue().splitlines(keepends=True)
    return b"".join(line for line in lines if not line.startswith(b'"Generated-By:'))


def _mo_bytes(catalog: Catalog) -> bytes:
    # The header names the Babel that wrote it, which differs between machines: name none.
    import babel.messages.catalog as babel_catalog

    version, babel_catalog.VERSION = babel_catalog.VERSION, "(any)"
    try:
        out = io.BytesIO()
        write_mo(out, catalog)
    finally:
        babel_catalog.VERSION = version
    return out.getvalue()


def english(template: Catalog) -> Catalog:
    """The English catalogue: every message is its own translation."""
    catalog = Catalog(locale="en", **HEADER)
    for message in template:
        if message.id:
            string = message.id if isinstance(message.id, str) else tuple(message.id)
            catalog.add(message.id, string, context=message.context)
    return catalog


def merged(language: str, template: Catalog) -> Catalog:
    """A language's catalogue brought up to date with the template (new messages empty)."""
    po = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    catalog.update(template, no_fuzzy_matching=True)
    return catalog


def outputs() -> dict[Path, bytes]:
    """Every catalogue file as it should be now."""
    template = extract()
    files = {LOCALE / f"{DOMAIN}.pot": _po_bytes(template)}
    for folder in sorted(p for p in LOCALE.iterdir() if p.is_dir()):
        language = folder.name
        catalog = english(template) if language == "en" else merged(language, template)
        base = folder / "LC_MESSAGES" / DOMAIN
        files[base.with_suffix(".po")] = _po_bytes(catalog)
        files[base.with_suffix(".mo")] = _mo_bytes(catalog)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether files are stale")
    parser.add_argument("--init", metavar="LANG", help="start the catalogue of a new language")
    args = parser.parse_args(argv)
    (LOCALE / "en" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    if args.init:
        po = LOCALE / args.init / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            print(f"{po} exists already", file=sys.stderr)
            return 2
        po.parent.mkdir(parents=True)
        template = extract()
        catalog = Catalog(locale=args.init, **HEADER)
        for message in template:
            if message.id:
                catalog.add(message.id, context=message.context)
        po.write_bytes(_po_bytes(catalog))
        print(f"wrote {po}: translate each msgstr, then run this script again")
    stale = []
    for path, data in outputs().items():
        if not path.exists() or path.read_bytes() != data:
            stale.append(path)
            if not args.check:
                path.write_bytes(data)
    if args.check:
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)} (run python scripts/catalogue.py)")
        return 1 if stale else 0
    for path in stale:
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
