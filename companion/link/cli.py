"""``companion lights``: check a light board by hand (handshake, commands, key events)."""

from __future__ import annotations

import argparse
import time

from companion.argtypes import seconds_within_a_day
from companion.i18n import _, ngettext
from companion.link import lightproto as lp
from companion.link.board import DEFAULT_PORT, LightBoard, colour_arg, status_text


def register(commands: argparse._SubParsersAction, bench_commands: object) -> None:
    p = commands.add_parser(
        "lights",
        help=_("talk to the light board: show its HELLO, send commands, print key events"),
        description=description(),
    )
    add_arguments(p)
    p.set_defaults(handler=cmd_lights)
    if bench_commands is not None:
        from companion.link import bench

        bench.register(bench_commands)


def description() -> str:
    return _("Open the light board, wait for its HELLO, send the commands given (base mode "
             "first, then effect, then buzz) and print key events until --watch runs out. Exit "
             "code 1 if the board does not answer or refuses a command. See "
             "docs/light-protocol.md.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--port", default=DEFAULT_PORT,
        help=_("serial port or URL (default {port})").format(port=DEFAULT_PORT)
    )
    base = p.add_mutually_exclusive_group()
    base.add_argument(
        "--steady",
        nargs="?",
        const=-1,
        type=int,
        metavar="LEVEL",
        help=_("steady white, LEVEL 0-255 (default: the board's)"),
    )
    base.add_argument("--off", action="store_true", help=_("all LEDs off"))
    base.add_argument("--turn", metavar="COLOUR", help=_("breathe a colour: rrggbb or a name"))
    p.add_argument("--effect", choices=lp.EFFECTS)
    p.add_argument("--colour", help=_("colour for --effect (default: the effect's own)"))
    p.add_argument("--buzz", nargs=2, type=int, metavar=("HZ", "MS"))
    p.add_argument(
        "--watch",
        type=seconds_within_a_day,
        default=0.0,
        metavar="SECONDS",
        help=_("print key events for this long (Ctrl-C stops)"),
    )
    p.add_argument("--timeout", type=seconds_within_a_day, default=5.0,
                   help=_("seconds to wait for the board"))


def cmd_lights(args: argparse.Namespace) -> int:
    from companion.cli import UserError

    for colour in (args.turn, args.colour):
        if colour is not None:
            try:
                colour_arg(colour)
            except ValueError as exc:
                raise UserError(str(exc)) from exc
    with LightBoard(args.port) as board:
        if not board.wait_ready(args.timeout):
            print(f"{args.port}: {status_text(board.status)} "
                  f"({board.last_error or _('no HELLO')})")
            return 1
        info = board.info
        assert info is not None
        features = ",".join(info.features) or _("none")
        print(_("{port}: firmware {firmware}, protocol {protocol}, {leds} LEDs, features "
                "{features}").format(port=args.port, firmware=info.firmware,
                                     protocol=info.protocol, leds=info.leds, features=features))
        if args.steady is not None:
            board.steady(None if args.steady < 0 else args.steady)
        elif args.off:
            board.off()
        elif args.turn:
            board.turn(args.turn)
        if args.effect:
            board.effect(args.effect, args.colour)
        if args.buzz:
            board.buzz(*args.buzz)
        end = time.monotonic() + max(args.watch, 0.5)  # time for the ACKs to come back
        try:
            while (left := end - time.monotonic()) > 0:
                key = board.wait_key(left)
                if key is not None:
                    print(_("key {key}").format(key=key.key), flush=True)
        except KeyboardInterrupt:
            pass
        naks = board.stats["naks"] + board.stats["unacked"]
        status = status_text(board.status)
        if naks:
            print(ngettext("{port}: {status}, {count} commands refused",
                           "{port}: {status}, {count} commands refused", naks).format(
                port=args.port, status=status, count=naks))
        else:
            print(f"{args.port}: {status}")
        return 0 if board.ready and not naks else 1
