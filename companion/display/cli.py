"""``companion screens --out DIR``: every screen the OLED can show, written to PNG files."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from companion import titles
from companion.display import screens as s
from companion.display.draw import PANELS, Panel, parse_panel, readability_problems, using
from companion.display.screens import screen_kind
from companion.i18n import _, ngettext

DEFAULT_PANEL = "ssd1309-2.42"
# One panel per size the screens are laid out for ("all"): the recommended one, else the
# largest on sale.
EVERY_SIZE = ("ssd1309-2.42", "ssd1322-3.12", "ssd1327-1.5")

NAMES = ["Ana", "Ben", "Clara", "Dmitri", "Esmeralda", "Fitzgerald"]


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "screens",
        help=_("write every OLED screen to PNG files"),
        description=_("Draw every screen of the OLED and write them as PNG files: the shared "
                      "screens (boot, menus, errors) into DIR, and each title's screens (each "
                      "kind with sample data, every animation frame, and the screens of a short "
                      "bot game) into DIR/<title>; with --title, that title's screens into DIR "
                      "itself. Then print what was written."),
    )
    p.add_argument("--out", required=True,
                   help=_("directory to write into (created if missing)"))
    p.add_argument("--title", choices=titles.keys(), help=_("only this title's screens"))
    p.add_argument("--scale", type=int, default=1,
                   help=_("enlarge the files N times (default 1)"))
    p.add_argument("--font", metavar="FILE",
                   help=_("a TrueType font for the words (default: the built-in one, English "
                          "letters only)"))
    p.add_argument("--panel", metavar="PANEL", default=None,
                   help=_("draw for this panel: a name ({names}), WIDTHxHEIGHT@PITCH (mm a "
                          "pixel), or \"all\": every size, each into DIR/<size> (default: the "
                          "recommended {default})").format(names=", ".join(PANELS),
                                                          default=DEFAULT_PANEL))
    p.set_defaults(handler=cmd_screens)


def use_font(path: str | None, flag: str | None = None) -> None:
    """Draw the screens' words with the TrueType file at ``path`` ("" or None: the built-in
    font); a file that cannot be used is a UserError naming ``flag`` (or the config key)."""
    from companion.cli import UserError
    from companion.display.draw import set_font

    try:
        set_font(path or None)
    except OSError as exc:
        raise UserError(_("{setting}: not a font Pillow can read ({reason})").format(
            setting=f"{flag or '[display] font'} = {path!r}", reason=exc)) from exc


def catalogue() -> list[tuple[str, Image.Image]]:
    """The shared screens with sample data, named."""
    out = [
        ("boot", s.boot()),
        ("menu_games", s.menu(_("CHOOSE GAME"),
                              [titles.get(k).facts.name for k in titles.keys()])),
        ("menu_players", s.menu(_("PLAYERS"), [str(n) for n in range(2, 7)], 3)),
        ("notice", s.notice(_("CAMERA"), _("BACK"), _("reading the dice again"))),
        ("winner", s.winner("Ana")),
        ("face_picker", s.face_picker(2, ["1", "2", "3", "4", "5", "6"], 4)),
    ]
    # The camera's reason comes from the dice reader, in its own words.
    lost = _("Camera lost ({reason}). Check its cable; buttons still work.").format(
        reason="no frame for 5 s")
    for i, img in enumerate(s.error(lost, _("CAMERA"))):
        out.append((f"error_{i}", img))
    return out


def game_screens(title: str, players: int = 4, seed: int = 1985, limit: int = 60):
    """Screens of the first ``limit`` actions of a bot game of ``title`` (demo pack), named."""
    from companion.content import demo_pack

    plugin = titles.get(title)
    engine = plugin.rules
    rng = random.Random(seed)
    players = min(max(players, engine.facts.min_players), engine.facts.max_players)
    state = engine.new_game(NAMES[:players], {}, demo_pack(title))
    out = []
    for step in range(limit):
        if engine.is_terminal(state):
            break
        actor = engine.actor(state)
        action = (
            engine.sample_chance(state, rng)
            if actor == "chance"
            else plugin.bots.bot(engine, state, rng)
        )
        state, effects = engine.apply(state, action)
        named = plugin.screens.named_screens_for(engine.view(state), effects)
        for k, (name, img) in enumerate(named):
            out.append((f"game_{step:03d}_{k:02d}_{name}", img))
    return out


def title_screens(title: str) -> list[tuple[str, Image.Image]]:
    """A title's sample screens and those of a short bot game, named."""
    return titles.get(title).screens.catalogue() + game_screens(title)


def panels_for(text: str | None) -> list[Panel]:
    """The panels ``--panel`` names; UserError for one that is not a panel."""
    from companion.cli import UserError

    if text is None:
        return [PANELS[DEFAULT_PANEL]]
    if text.strip().lower() == "all":
        return [PANELS[name] for name in EVERY_SIZE]
    try:
        return [parse_panel(text)]
    except ValueError as exc:
        raise UserError(_("--panel {value}: {reason}").format(value=text, reason=exc)) from exc


def cmd_screens(args) -> int:
    from companion.cli import UserError

    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(_("--out {path}: cannot create the directory ({reason})").format(
            path=out, reason=exc)) from exc
    if not 1 <= args.scale <= 16:
        raise UserError(_("--scale {scale}: use 1-16").format(scale=args.scale))
    use_font(args.font, "--font")
    panels = panels_for(args.panel)
    drawn = [key for key in titles.keys() if titles.get(key).part("screens")]
    if not args.title:
        for key in [k for k in titles.keys() if k not in drawn]:
            print(_("{title}: no screens yet (no {module})").format(
                title=key, module=f"{titles.get(key).package}.screens"), file=sys.stderr)
    count = 0
    for where in panels:
        base = out / f"{where.width}x{where.height}" if len(panels) > 1 else out
        with using(where):
            if args.title:
                batches = [(base, args.title, title_screens(args.title))]
            else:
                batches = [(base, None, catalogue())] + [(base / key, key, title_screens(key))
                                                         for key in drawn]
            for folder, key, items in batches:
                folder.mkdir(parents=True, exist_ok=True)
                for name, img in items:
                    path = folder / f"{name}.png"
                    if args.scale > 1:
                        img = img.resize((img.width * args.scale, img.height * args.scale),
                                         Image.NEAREST)
                    img.save(path)
                    print(path)
                    count += 1
                if key is not None:
                    _say_readability(key, items, where)
    print(ngettext("{count} screens written to {path}", "{count} screens written to {path}",
                   count).format(count=count, path=out), file=sys.stderr)
    return 0


def _say_readability(key: str, items, where: Panel) -> None:
    """How many of a title's screens the whole table reads are too small on ``where``."""
    table = getattr(titles.get(key).screens, "TABLE_SCREENS", ())
    shown = [(n, img) for n, img in items if screen_kind(n) in table or n in table]
    small = [n for n, img in shown if readability_problems(img, where)]
    print(_("{title}: {count} screens the whole table reads, {small} too small on {panel}").format(
        title=key, count=len(shown), small=len(small), panel=where.describe()), file=sys.stderr)
