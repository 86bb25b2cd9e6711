"""``python -m companion.link``: the same as ``companion lights``."""

from __future__ import annotations

import argparse
import sys

from companion.link.cli import add_arguments, cmd_lights, description


def main(argv: list[str] | None = None) -> int:
    from companion.cli import UserError, choose_language

    choose_language()
    parser = argparse.ArgumentParser(prog="python -m companion.link", description=description())
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return cmd_lights(args)
    except UserError as exc:
        print(f"companion.link: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
