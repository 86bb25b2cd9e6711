"""The ``companion`` command line.

Each part of the package registers its own subcommands, so this file only wires them together.
A subcommand's handler returns the process exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion import i18n
from companion.i18n import _

# Modules that add subcommands: each has register(commands, bench_commands).
COMMAND_MODULES = (
    "companion.commands",
    "companion.sim",
    "companion.config",
    "companion.daemon",
    "companion.vision.cli",
    "companion.display.cli",
    "companion.link.cli",
)


class UserError(Exception):
    """A mistake the user can fix; printed without a traceback, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description=_("Raspberry Pi table companion for Back to the Future tabletop games."),
    )
    parser.add_argument("--version", action="version", version=f"companion {version()}",
                        help=_("print the companion's version and exit"))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bench = commands.add_parser("bench", help=_("benchmarks that print measured numbers"))
    bench_commands = bench.add_subparsers(dest="bench_command", metavar="WHAT")
    bench_commands.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands, bench_commands)
    return parser


def version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib import metadata

    from companion import __version__

    try:
        return metadata.version("companion")
    except metadata.PackageNotFoundError:
        return __version__


def choose_language() -> None:
    """The language of every command: ``COMPANION_LANG``, else the locale's (English when
    there is no catalogue for it)."""
    wanted = i18n.use()
    if wanted and not i18n.available(wanted):
        print(_("companion: {variable}={language}: no catalogue for that language (there are: "
                "{languages}); using English. docs/translating.md tells how to add one.").format(
            variable=i18n.ENV, language=wanted, languages=", ".join(i18n.languages())),
            file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    choose_language()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
