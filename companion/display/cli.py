"""``companion screens --out DIR``: every screen the OLED can show, written to PNG files."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from companion import titles
from companion.display import screens as s
from companion.i18n import _, ngettext

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
    if args.title:
        batches = [(out, title_screens(args.title))]
    else:
        batches = [(out, catalogue())] + [(out / key, title_screens(key))
                                          for key in titles.keys()]
    count = 0
    for folder, items in batches:
        folder.mkdir(parents=True, exist_ok=True)
        for name, img in items:
            path = folder / f"{name}.png"
            if args.scale > 1:
                img = img.resize((img.width * args.scale, img.height * args.scale),
                                 Image.NEAREST)
            img.save(path)
            print(path)
            count += 1
    print(ngettext("{count} screens written to {path}", "{count} screens written to {path}",
                   count).format(count=count, path=out), file=sys.stderr)
    return 0
