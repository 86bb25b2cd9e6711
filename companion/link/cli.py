"""``companion lights``: check a light board by hand (handshake, commands, key events)."""

from __future__ import annotations

import argparse
import time

from companion.argtypes import seconds_within_a_day, whole_number
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
        type=whole_number(0, 255),
        metavar="LEVEL",
        help=_("steady white, LEVEL 0-255 (default: the board's)"),
    )
    base.add_argument("--off", action="store_true", help=_("all LEDs off"))
    base.add_argument("--turn", metavar="COLOUR", help=_("breathe a colour: rrggbb or a name"))
    p.add_argument("--effect", choices=lp.EFFECTS)
    p.add_argument("--colour", help=_("colour for --effect (default: the effect's own)"))
    p.add_argument("--buzz", nargs=2, action=_Buzz, metavar=("HZ", "MS"),
                   help=_("a tone: HZ 20-20000, MS 1-5000 (ignored by a board without a "
                          "buzzer)"))
    p.add_argument(
        "--watch",
        type=seconds_within_a_day,
        default=0.0,
        metavar="SECONDS",
        help=_("print key events for this long (Ctrl-C stops)"),
    )
    p.add_argument("--timeout", type=seconds_within_a_day, default=5.0,
                   help=_("seconds to wait for the board"))


class _Buzz(argparse.Action):
    """``--buzz HZ MS``, each number checked against what the board takes (a usage error,
    exit 2, before the board is opened)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        numbers = []
        for what, text, lo, hi in zip(("HZ", "MS"), values, (20, 1), (20000, 5000),
                                      strict=True):
            try:
                numbers.append(whole_number(lo, hi)(text))
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentError(self, f"{what} {exc}") from None
        setattr(namespace, self.dest, numbers)


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
        # Each call is False when the host side refuses it (a bad argument, logged why):
        # a refused command, as one the board NAKs, ends with exit code 1.
        sent = []
        if args.steady is not None:
            sent.append(board.steady(None if args.steady < 0 else args.steady))
        elif args.off:
            sent.append(board.off())
        elif args.turn:
            sent.append(board.turn(args.turn))
        if args.effect:
            sent.append(board.effect(args.effect, args.colour))
        if args.buzz:
            sent.append(board.buzz(*args.buzz))
        refused = sent.count(False)
        end = time.monotonic() + max(args.watch, 0.5)  # time for the ACKs to come back
        try:
            while (left := end - time.monotonic()) > 0:
                key = board.wait_key(left)
                if key is not None:
                    print(_("key {key}").format(key=key.key), flush=True)
        except KeyboardInterrupt:
            pass
        naks = board.stats["naks"] + board.stats["unacked"] + refused
        status = status_text(board.status)
        if naks:
            print(ngettext("{port}: {status}, {count} commands refused",
                           "{port}: {status}, {count} commands refused", naks).format(
                port=args.port, status=status, count=naks))
        else:
            print(f"{args.port}: {status}")
        return 0 if board.ready and not naks else 1
