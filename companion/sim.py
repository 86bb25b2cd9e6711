"""The simulated game night: the daemon's own table loop with bot players (and a rendered tray).

Nothing is short-cut: the bots act like people at the table. In a dice game they roll dice into
a rendered tray (the real dice reader reads the frames and waits for them to settle), take the
dice they use out of the tray (the camera sees them leave), answer the session's proposals with
CONFIRM when it read what they rolled (or nudge the dice when it did not); in every game they
pick from the OLED menus with NEXT and CONFIRM. Every action goes through the journal. The OLED
frames are shown live in the terminal (when there is one) and saved as PNG and GIF.

``companion demo`` with no title plays the game night: one bot game of each title in turn.
Each title's seat bots are ``TableBots`` in ``companion/titles/<key>/bots.py`` (a ``SeatBots``);
a title without its own plays through its menus with its ``bot``.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion import titles
from companion.content import demo_pack
from companion.i18n import _, ngettext
from companion.journal import Journal, JournalError
from companion.session import Session, unsure
from companion.table import Table
from companion.titles.api import CHANCE, TERMINAL, Action

BOT_NAMES = ["Marty", "Doc", "Jennifer", "Biff", "Lorraine", "George"]
# A title whose pieces carry those names (its characters, its movers) names its seats in its
# bots part (SEAT_NAMES), so the table never reads "Biff" for a player and a mover alike.


def register(commands, bench_commands) -> None:
    p = commands.add_parser(
        "demo",
        help=_("simulated game night: bots play a whole game of each title (no hardware)"),
        description=_("Whole games on this machine with the table daemon's own code: dice "
                      "rolled into a rendered tray and read by the real dice reader, the OLED "
                      "shown in the terminal and saved as PNG/GIF, bots pressing the buttons. "
                      "With no --title, one game of each title in turn (frames in a folder per "
                      "title); with --title, that title's game (frames in --out itself). Uses "
                      "the demo packs (invented contents). Ends by itself with exit code 0."),
    )
    p.add_argument("--title", choices=titles.keys(),
                   help=_("play only this title (default: the game night, every title)"))
    p.add_argument("--players", type=int, default=4,
                   help=_("players (default 4; in the game night, as near as each title "
                          "allows)"))
    p.add_argument("--seed", type=int, default=1985, help=_("dice seed (default 1985)"))
    p.add_argument("--journal",
                   help=_("journal file to record into (default: a temporary one)"))
    p.add_argument("--out", default="demo-out",
                   help=_("folder for the OLED frames (PNG) and screens.gif (default demo-out)"))
    p.add_argument("--keyboard", action="store_true",
                   help=_("you press the buttons (keys) for every player; dice roll by "
                          "themselves"))
    p.add_argument("--live", choices=("auto", "on", "off"), default="auto",
                   help=_("draw the OLED in this terminal as it changes, with the prompt, the "
                          "menu and the keys in words (auto: when a terminal; off: the prompts "
                          "and menus printed as lines of text)"))
    p.add_argument("--font", metavar="FILE",
                   help=_("a TrueType font for the words (default: the built-in one, English "
                          "letters only)"))
    p.set_defaults(handler=cmd_demo)
    register_bench(bench_commands)


class RenderedTray:
    """A camera over a rendered tray holding the dice the players rolled (a frame source).

    After every change there are a few frames of movement (tumbling dice, a hand moving dice
    away), then the dice lie still, as at a real table.
    """

    def __init__(self, seed: int, width: int = 640, height: int = 480, moving_frames: int = 2,
                 dice: str = "d6"):
        from companion.vision.synth import SyntheticTray

        self.tray = SyntheticTray(dice, width, height, seed=seed, keep_scene=True)
        self.faces: list[str] = []
        self.moving_frames = moving_frames
        self._moving = 0
        self._still, _scene = self.tray.render(faces=[])
        self.frames = 0

    def show(self, faces: list[str]) -> None:
        """Dice land (or are left) in the tray: these faces, at new places. A die of a set
        with colours may be given as "colour:face" (as the reader reports it)."""
        self.faces = list(faces)
        split = [f.split(":", 1) if ":" in f else [None, f] for f in self.faces]
        colours = [c for c, _f in split] if any(c for c, _f in split) else None
        self._still, _scene = self.tray.render(faces=[f for _c, f in split], colours=colours)
        self._moving = self.moving_frames

    @property
    def moving(self) -> bool:
        return self._moving > 0

    def read(self):
        from companion.vision.sources import Frame

        self.frames += 1
        if self._moving:
            self._moving -= 1
            # Tumbling dice: the still picture shifted and smeared (cheaper than a new render).
            image = cv2.blur(np.roll(self._still, 9 * (self._moving + 1), axis=1), (13, 1))
        else:
            image = self._still
        return Frame(image=image, index=self.frames, timestamp=time.time(), name="sim")

    def close(self) -> None:
        pass


class ScriptedPresses:
    """A buttons backend the bots press."""

    def __init__(self):
        self.pending: list[str] = []

    def press(self, *names: str) -> None:
        self.pending.extend(names)

    def poll(self) -> list[str]:
        out, self.pending = self.pending, []
        return out

    def close(self) -> None:
        pass


class SeatBots:
    """Every seat played by a bot that uses only what a player at the table has.

    This base plays a game through its menus: for each decision it asks the title's ``bot``
    which action to take and presses NEXT until that action's menu item is selected, then
    CONFIRM; a chance outcome the table asks for in a menu (a card revealed, a card drawn) is
    sampled the same way. It also answers proposals and picks the faces of unsure dice. A
    title's ``TableBots`` adds what players do with their hands (roll dice, move them).
    """

    def __init__(self, session: Session, tray: RenderedTray | None, presses: ScriptedPresses,
                 players: int, rng: random.Random, humans: bool = False):
        self.session, self.tray, self.presses = session, tray, presses
        self.players = players
        self.rng = rng
        self.humans = humans  # the decisions come from the keyboard; the bots only roll
        self.intent: dict[str, Any] | None = None  # what the bot did and waits to see recorded
        self.tries = 0  # camera looks at the current intent that gave no fitting proposal
        self.nudges = 0
        self.by_hand = 0
        self.rolls = 0
        self.picked = 0  # unsure dice whose face the bots picked with the buttons

    @property
    def title(self):
        return titles.get(self.session.title_key)

    def act(self) -> None:
        """One move for whoever is to act; the table loop then shows what the camera sees."""
        prompt = self.session.prompt()
        match = self.session.match
        if match is None:  # the players menu: pick the number of players
            self._pick(f"{self.players}:")
            return
        actor = match.actor()
        if actor == TERMINAL:
            return
        if self.humans:
            self.act_for_humans(prompt, actor)
            return
        if prompt.kind == "propose":
            self._answer_proposal()
            return
        if self.session.unknown is not None:
            self._pick_unknown(prompt)
            return
        if self.intent is not None and self._still_waiting(match):
            return
        self.decide(prompt, actor)

    # --- what a title's bots refine

    def act_for_humans(self, prompt, actor: str) -> None:
        """With --keyboard the people decide; the bots only do what hands do (roll dice)."""

    def decide(self, prompt, actor: str) -> None:
        """Take the actor's decision (or the chance outcome the table asks for) from the menu."""
        match = self.session.match
        if actor == CHANCE:
            action = match.engine.sample_chance(match.state, self.rng)
        else:
            action = self.title.bots.bot(match.engine, match.state, self.rng)
        self.choose(action)

    def choose(self, action: Action) -> None:
        """Select the menu item that confirms ``action`` and press CONFIRM."""
        menu = self.session.table.menu()
        if menu is None or not menu.labels:
            return
        index = next((i for i, a in enumerate(menu.actions) if a == [action]), None)
        if index is None:  # a menu in steps: its items are not actions; take the bot's label
            label = self.session.table.label(action)
            index = menu.labels.index(label) if label in menu.labels else 0
        steps = (index - menu.selected) % len(menu.labels)
        self.presses.press(*(["next"] * steps), "confirm")

    def fits(self, proposal: list[Action]) -> bool:
        """Does the session's proposal say what this bot did?"""
        wanted = self.intent or {}
        kinds = [a["type"] for a in proposal]
        if wanted.get("kind") == "roll" and "roll" in kinds:
            read = next(a["dice"] for a in proposal if a["type"] == "roll")
            return Counter(map(str, read)) == Counter(map(str, wanted["dice"]))
        return False

    # --- what players do with their hands

    def roll(self, faces: list[str], decision: str | None = None) -> None:
        """Roll dice showing ``faces`` into the tray; ``decision`` is the menu item that does
        the same with the buttons (ROLL AGAIN, ...), used if the camera cannot read the roll."""
        self.rolls += 1
        self.intent = {"kind": "roll", "dice": list(faces), "state": self._mark(),
                       "decision": decision}
        self.tries = 0
        self.tray.show(faces)

    def _mark(self) -> object:
        """The game's state now: the table makes a new one each time it records (or undoes)
        an action, so comparing marks tells whether anything was recorded, without reading
        the journal (which proves its whole chain each time)."""
        return self.session.match.state

    def _recorded_since(self, mark: object) -> bool:
        return self._mark() is not mark

    def _still_waiting(self, match) -> bool:
        """The camera looked but proposed nothing that fits: nudge, then use the buttons."""
        if self._recorded_since(self.intent["state"]):
            self.intent = None  # recorded: the bot's move is done
            return False
        self.tries += 1
        if self.tries <= 2:
            self.nudges += 1
            self.tray.show(self.tray.faces)
            return True
        self.by_hand += 1
        if self.intent["kind"] == "roll" and self.intent.get("decision"):
            # Say with the buttons that the dice are rolled again; that roll is read next.
            self._pick_option(self.session.prompt(), self.intent["decision"])
        elif self.intent["kind"] == "roll":  # enter the roll with the buttons, die by die
            self.presses.press("menu")
        else:
            self._pick_option(self.session.prompt(), self.intent["label"])
        self.tries = -10  # give the buttons time
        return True

    def _answer_proposal(self) -> None:
        if self.fits(self.session.proposal or []):
            self.presses.press("confirm")
        else:  # misread: say no, and nudge the dice so the camera looks again
            self.nudges += 1
            self.presses.press("back")
            if self.tray is not None:
                self.tray.show(self.tray.faces)

    def _pick_unknown(self, prompt) -> None:
        known = Counter(f for f in prompt.dice if not unsure(f))
        truth = self.intent["dice"] if self.intent else self.tray.faces
        missing = list((Counter(map(str, truth)) - known).elements())
        # the first die still missing that this picker offers (a die read with its colour is
        # offered only that colour's faces), in the words the picker shows
        words = self.session.table.dice_text
        offered = [m for m in missing if words([m]) in prompt.options]
        target = words(offered[:1]) if offered else prompt.options[0]
        self.picked += 1
        self._pick_option(prompt, target)

    def _pick(self, start: str) -> None:
        prompt = self.session.prompt()
        self._pick_option(prompt, next((o for o in prompt.options if o.startswith(start)),
                                       prompt.options[0]))

    def _pick_option(self, prompt, label: str) -> None:
        index = prompt.options.index(label) if label in prompt.options else 0
        steps = (index - prompt.selected) % len(prompt.options)
        self.presses.press(*(["next"] * steps), "confirm")


def cmd_demo(args) -> int:
    from companion.cli import UserError

    keys = [args.title] if args.title else list(titles.keys())
    if args.title:
        facts = titles.get(args.title).facts
        if not facts.min_players <= args.players <= facts.max_players:
            raise UserError(_("--players {count}: {title} takes {low}-{high} players").format(
                count=args.players, title=facts.name, low=facts.min_players,
                high=facts.max_players))
    else:
        low = min(titles.get(k).facts.min_players for k in keys)
        high = max(titles.get(k).facts.max_players for k in keys)
        if not low <= args.players <= high:
            raise UserError(_("--players {count}: the game night takes {low}-{high} players "
                              "(each title as near as it allows)").format(
                count=args.players, low=low, high=high))
    if not 0 <= args.seed < 2**32:
        raise UserError(_("--seed {seed}: a seed is a whole number from 0 to {most}").format(
            seed=args.seed, most=f"{2**32 - 1:,}"))
    for out in [Path(args.out)] + ([] if args.title else [Path(args.out) / k for k in keys]):
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(_("--out {path}: cannot make the folder for the frames ({reason}); "
                              "give a folder you can write").format(
                path=args.out, reason=exc.strerror or exc)) from exc
    from companion.display.cli import use_font

    use_font(args.font, "--font")
    live = args.live == "on" or (args.live == "auto" and sys.stdout.isatty())
    ended = True
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.journal) if args.journal else Path(tmp) / "demo.sqlite3"
        try:
            journal = Journal(path)
        except JournalError as exc:
            raise UserError(str(exc)) from exc
        try:
            for key in keys:
                facts = titles.get(key).facts
                players = min(max(args.players, facts.min_players), facts.max_players)
                out = Path(args.out) if args.title else Path(args.out) / key
                result = run_demo(journal, players, args.seed, out, live=live,
                                  keyboard=args.keyboard, title=key)
                ended = ended and result["ended"]
        finally:
            journal.close()
    return 0 if ended else 1


def run_demo(journal: Journal, players: int, seed: int, out: Path | None, live: bool = False,
             keyboard: bool = False, stream=None, max_steps: int = 100_000,
             title: str | None = None, reader=None) -> dict[str, Any]:
    """Play one bot game of ``title`` (default: the first title) into ``journal``; returns a
    summary with the winner and numbers. ``reader``: the ``DiceReader`` to read the tray
    with (a new one by default; a daemon keeps one for its life, game after game)."""
    from companion.buttons import KEY_HELP, KeyboardButtons
    from companion.display.backends import Display, RecorderDisplay, TerminalDisplay
    from companion.display.words import words
    from companion.vision.reader import DiceReader
    from companion.vision.settle import Settler, SettleWatcher

    title = title or titles.keys()[0]
    plugin = titles.get(title)
    facts = plugin.facts
    stream = stream or sys.stdout
    started = time.perf_counter()
    rng = random.Random(seed)
    names = list(getattr(plugin.bots, "SEAT_NAMES", BOT_NAMES))[:players]
    session = Session(journal, names, lambda key: demo_pack(key), title=title)
    tray = RenderedTray(seed, dice=facts.dice) if facts.dice else None
    presses = ScriptedPresses()
    bots_class = getattr(plugin.bots, "TableBots", SeatBots)
    bots = bots_class(session, tray, presses, players, rng, humans=keyboard)
    displays: list[Display] = []
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for old in [*out.glob("frame_*.png"), out / "screens.gif"]:  # only our own files
            old.unlink(missing_ok=True)
        displays.append(RecorderDisplay(out))
    terminal = TerminalDisplay(stream, style="auto") if live else None
    if terminal is not None:
        displays.append(terminal)
    buttons: list[Any] = [presses]
    if keyboard:
        buttons.append(KeyboardButtons())
    clock = _SimClock()
    watcher = SettleWatcher(reader or DiceReader(facts.dice), Settler(emit_empty=True)) \
        if tray else None
    table = Table(session, camera=tray, watcher=watcher,
                  buttons=buttons, display=_Fanout(displays), fps=10,
                  dwell_s=0.6 if live else 0.0, clock=clock)
    if keyboard:
        table.keys = KEY_HELP
    if terminal is not None:  # the words of the prompt and the keys beside the panel
        terminal.footer = table.words
    print(_("{title} - {players} - demo deck (invented cards, not the printed ones)").format(
        title=facts.name, players=", ".join(names)), file=stream)
    if keyboard and not live:
        print(_(KEY_HELP), file=stream)
    table.boot()
    said_prompt: list[str] = []
    first_frame_s = time.perf_counter() - started
    announced = 0
    latencies: list[float] = []
    for _step in range(max_steps):
        match = session.match
        if match is not None and match.actor() == TERMINAL:
            break
        if not presses.pending and _quiet(table, tray) and not table.announcing(clock()):
            bots.act()  # a player waits for the announcements before answering the panel
        before = len(table.updates)
        t0 = time.perf_counter()
        table.step()
        if table.readings and len(table.updates) > before and not (tray and tray.moving):
            latencies.append((time.perf_counter() - t0) * 1000)
        # live, the announcements the bots wait for pass three times faster than play
        clock.advance(0.3 if live and table.announcing(clock()) else 0.1)
        if session.write_error is not None:  # a full disk: the bots would only try again
            from companion.cli import UserError

            table.close()
            raise UserError(str(session.write_error))
        if live:
            time.sleep(0.02)
        else:
            table.flush()
        if not live:  # the announcements, refusals and prompts as lines of text
            for update in table.updates[announced:]:
                for effect in update.effects:
                    print(f"  {effect['text']}", file=stream)
                if update.error:
                    print(f"  ! {update.error}", file=stream)
            if len(table.updates) > announced:
                # a person sees the whole menu; the bots' games only what is asked
                said_prompt = _print_prompt(table, said_prompt, stream, words,
                                            22 if keyboard else 2)
        announced = len(table.updates)
    table.flush()
    table.close()
    match = session.match
    ended = match is not None and match.actor() == TERMINAL
    winner = match.engine.winners(match.state) if match else []
    actions = len(journal.actions(match.game)) if match else 0
    summary = {
        "title": title,
        "ended": ended,
        "winner": winner[0] if winner else None,
        "winners": list(winner),
        "actions": actions,
        "rolls": bots.rolls,
        "nudges": bots.nudges,
        "by_hand": bots.by_hand,
        "picked": bots.picked,
        "frames_read": tray.frames if tray else 0,
        "screens": table.frames_shown,
        "first_screen_s": round(first_frame_s, 3),
        "reading_to_screen_ms_median": round(float(np.median(latencies)), 1) if latencies else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    who = ", ".join(winner) if winner else _("nobody")
    if tray is not None:
        print(ngettext(
            "Game over: {winner} wins after {actions} recorded actions; the camera read {rolls} "
            "rolls and moves ({nudges} nudged after a misread, {picked} unsure dice picked and "
            "{by_hand} rolls entered with the buttons).",
            "Game over: {winner} win after {actions} recorded actions; the camera read {rolls} "
            "rolls and moves ({nudges} nudged after a misread, {picked} unsure dice picked and "
            "{by_hand} rolls entered with the buttons).", max(1, len(winner))).format(
            winner=who, actions=actions, rolls=bots.rolls, nudges=bots.nudges,
            picked=bots.picked, by_hand=bots.by_hand), file=stream)
    else:
        print(ngettext("Game over: {winner} wins after {actions} recorded actions.",
                       "Game over: {winner} win after {actions} recorded actions.",
                       max(1, len(winner))).format(winner=who, actions=actions), file=stream)
    if out is not None:
        print(_("OLED frames: {frames} and {gif}").format(frames=f"{out}/frame_*.png",
                                                           gif=f"{out}/screens.gif"), file=stream)
    return summary


def _print_prompt(table: Table, before: list[str], stream, words, rows: int) -> list[str]:
    """Print what the table asks now, as lines of text, when it changed (``--live off``)."""
    title_table = table.session.table
    lines = words(table.session.prompt(), 100, rows,
                  dice_text=title_table.dice_text if title_table is not None else None)
    if lines == before:
        return lines
    unmarked = [line[2:] for line in lines[1:]]
    if before and lines[0] == before[0] and unmarked == [line[2:] for line in before[1:]] \
            and any(line.startswith("> ") for line in lines[1:]):
        # the same menu, another item selected: only the item now selected
        print(f"   {next(line for line in lines[1:] if line.startswith('> '))}", file=stream)
        return lines
    head, *rest = lines
    print(f"-> {head}", file=stream)
    for line in rest:
        print(f"   {line}", file=stream)
    return lines


def _quiet(table: Table, tray: RenderedTray | None) -> bool:
    """The bots wait until the camera has looked at the tray as it is now."""
    if tray is None:
        return True
    return not tray.moving and table.watcher.settler.state in ("settled", "empty", "waiting")


class _SimClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class _Fanout:
    """Show each frame on every display (the terminal and the recorder)."""

    def __init__(self, displays):
        self.displays = displays
        self.last_error = None

    def show(self, image) -> bool:
        shown = [d.show(image) for d in self.displays]
        failed = [d for d, ok in zip(self.displays, shown, strict=True) if not ok]
        self.last_error = getattr(failed[0], "last_error", None) if failed else None
        return not failed

    def close(self) -> None:
        for d in self.displays:
            d.close()


# --------------------------------------------------------------------------- bench table


def register_bench(bench_commands) -> None:
    b = bench_commands.add_parser(
        "table",
        help=_("the table daemon: cold start, roll-to-screen time, idle CPU, RSS, soak"),
        description=_("Measures the table loop on this machine. The last line printed is one "
                      "JSON object (with --json, the only line)."),
    )
    from companion.argtypes import positive_hours, positive_seconds

    b.add_argument("--soak-hours", type=positive_hours, default=8.0,
                   help=_("hours of table time to simulate for the memory soak (default 8)"))
    b.add_argument("--idle-seconds", type=positive_seconds, default=10.0,
                   help=_("real seconds to measure the idle CPU (default 10)"))
    b.add_argument("--json", action="store_true", help=_("print only the JSON line"))
    b.set_defaults(handler=cmd_bench_table)


def _dice_title() -> str:
    """The first title whose dice the camera reads: the table's camera path is measured on it."""
    return next(k for k in titles.keys() if titles.get(k).facts.dice)


def _rss_mb() -> float:
    from companion.vision.bench import memory_mb

    mb = memory_mb("VmRSS")
    return float("nan") if mb is None else mb


def cmd_bench_table(args) -> int:
    # The measurements print in English, like the logs: they are compared across machines
    # and copied into the docs.
    import json
    import os
    import subprocess

    say = (lambda *a: None) if args.json else print
    result: dict[str, Any] = {}

    dice_title = _dice_title()
    # Cold start: a fresh `companion run` until its first OLED frame is on disk.
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "frames"
        config = Path(tmp) / "config.toml"
        config.write_text(
            f'[table]\ntitle = "{dice_title}"\npack = "demo"\n[camera]\nsource = "synthetic"\n'
            f'[display]\ndriver = "recorder"\nout = "{out}"\n[buttons]\nbackend = "none"\n'
            '[lights]\nport = ""\n')
        env = {**os.environ, "COMPANION_HOME": tmp}
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                                 str(config), "--seconds", "4"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        first = None
        while proc.poll() is None and first is None:
            if (out / "frame_0001.png").exists():
                first = time.perf_counter() - t0
            time.sleep(0.005)
        proc.wait(timeout=60)
    result["cold_start_s"] = round(first, 3) if first else None
    say(f"cold start to the first OLED frame: {result['cold_start_s']} s")

    # One bot game night in this process: roll-to-screen time and frames read.
    journal = Journal(":memory:")
    summary = run_demo(journal, 4, 1985, None, stream=open(os.devnull, "w"), title=dice_title)
    journal.close()
    result["settled_roll_to_screen_ms_median"] = summary["reading_to_screen_ms_median"]
    result["demo_game_s"] = summary["seconds"]
    say(f"settled reading to screen updated: median {summary['reading_to_screen_ms_median']} ms"
        f" (a whole 4-player game in {summary['seconds']} s)")

    # Idle: a still tray at the configured frame rate, in real time.
    result["idle_cpu_percent"] = round(_idle_cpu(args.idle_seconds), 1)
    say(f"idle CPU with a still tray at 8 fps: {result['idle_cpu_percent']} % of one core")

    # Soak: hours of table time, rolls every half minute, idle frames in between.
    rss = _soak(args.soak_hours, say)
    result.update(rss)
    result["rss_mb"] = round(_rss_mb(), 1)
    print(json.dumps(result))
    return 0


def _idle_cpu(seconds: float) -> float:
    from companion.display.backends import DummyDisplay
    from companion.vision.faces import face_set
    from companion.vision.reader import DiceReader
    from companion.vision.settle import Settler, SettleWatcher

    title = _dice_title()
    dice = titles.get(title).facts.dice
    tray = RenderedTray(5, 1280, 720, dice=dice)
    tray.show(list(face_set(dice).faces)[:6])
    session = Session(Journal(":memory:"), ["Ana", "Ben"], demo_pack, title=title)
    table = Table(session, camera=tray, display=DummyDisplay(), fps=8,
                  watcher=SettleWatcher(DiceReader(dice), Settler(emit_empty=True)))
    table.boot()
    end = time.monotonic() + 2
    while time.monotonic() < end:  # let the dice settle and be read once
        table.step()
        time.sleep(0.02)
    cpu0, wall0 = time.process_time(), time.monotonic()
    while time.monotonic() - wall0 < seconds:
        table.step()
        time.sleep(0.02)
    return 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)


def _soak(hours: float, say) -> dict[str, Any]:
    """Simulated table time: a bot game after another, 8 frames a second while dice move and
    a still tray in between, with RSS sampled along the way."""
    from companion.vision.reader import DiceReader

    table_seconds = hours * 3600
    simulated = 0.0
    samples = []
    games = 0
    seed = 0
    started = time.perf_counter()
    title = _dice_title()
    # One reader for the whole soak, as the daemon's table keeps one per face set: a reader
    # made for each game measured the native heap's churn of loading its networks again.
    reader = DiceReader(titles.get(title).facts.dice)
    while simulated < table_seconds:
        journal = Journal(":memory:")
        summary = run_demo(journal, 4, 7000 + seed, None, stream=open("/dev/null", "w"),
                           title=title, reader=reader)
        journal.close()
        games += 1
        seed += 1
        # Each physical move of a game stands for about half a minute at a real table.
        simulated += max(summary["rolls"], 1) * 30.0
        samples.append(_rss_mb())
    first = samples[min(1, len(samples) - 1)]
    say(f"soak: {games} games = {simulated / 3600:.1f} h of table time in "
        f"{time.perf_counter() - started:.0f} s; RSS {first:.1f} -> {samples[-1]:.1f} MB")
    return {"soak_hours": round(simulated / 3600, 2), "soak_games": games,
            "soak_rss_start_mb": round(first, 1), "soak_rss_end_mb": round(samples[-1], 1)}
