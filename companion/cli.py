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
    except OSError as exc:  # a path the command could not use: said with the path, no traceback
        print("companion: " + os_problem(exc), file=sys.stderr)
        return 2
    except Exception as exc:
        if not said_as_is(exc):
            raise  # a bug: its traceback is what a report needs
        print(f"companion: {exc}", file=sys.stderr)
        return 2


# Errors whose message already says what is wrong, where and what to do. Their modules are
# looked up only when a command loaded them (the camera's and the display's are heavy).
SAID_AS_IS = (("companion.journal", "JournalError"),
              ("companion.pins", "PinMapError"),
              ("companion.display.backends", "DisplayConfigError"),
              ("companion.vision.sources", "CameraUnavailable"))


def said_as_is(exc: BaseException) -> bool:
    return any(isinstance(exc, cls) for module, name in SAID_AS_IS
               if (cls := getattr(sys.modules.get(module), name, None)) is not None)


def os_problem(exc: OSError) -> str:
    """An operating-system error as a line: the path, what went wrong, what to check."""
    paths = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
    return _("{path}: {reason}; check that path (given, or from the config): a file where a "
             "folder is needed or the other way round, a name too long, no room or no "
             "permission").format(path=" -> ".join(paths) or "?",
                                  reason=exc.strerror or exc)


if __name__ == "__main__":
    sys.exit(main())
