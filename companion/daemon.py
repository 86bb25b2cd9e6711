"""`companion run` (the table daemon) and `companion doctor` (checks for a maker).

The daemon builds each part from the config, falls back to a working stand-in when a part is
missing (the game goes on without the panel or the light board), resumes the unfinished game,
and speaks to systemd (READY, WATCHDOG) when systemd started it.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

from companion import config as configuration
from companion import i18n
from companion.argtypes import seconds_or_zero
from companion.i18n import N_, _
from companion.journal import Journal, JournalError, JournalWriteError, recover_unreadable
from companion.paths import config_dir, state_dir

log = logging.getLogger("companion")


def register(commands, bench_commands) -> None:
    run = commands.add_parser(
        "run",
        help=_("the table daemon: camera, buttons, OLED and lights (what systemd starts)"),
        description=_("Run the table: read the dice, take button presses, show the game on the "
                      "OLED, light the ring. Resumes the unfinished game. Stop with Ctrl-C or "
                      "SIGTERM."),
    )
    run.add_argument("--config", help=_("config file (default: {path})").format(
        path=configuration.default_path()))
    run.add_argument("--journal", help=_("journal file (default: the state directory's)"))
    run.add_argument("--seconds", type=seconds_or_zero, default=0,
                     help=_("stop after this many seconds (0: run until stopped)"))
    run.set_defaults(handler=cmd_run)

    doctor = commands.add_parser(
        "doctor",
        help=_("check the config, camera, display, buttons, light board, disk, state, journal "
               "and content pack"),
        description=_("One line per part, PASS or FAIL and what to do about a failure: the "
                      "config, the state directory (writable), the journal (every game's "
                      "checksums, and the backup's), free disk space, the camera, the display, "
                      "the buttons (the pin map), the light board, the config directory and the "
                      "content pack (which titles and player counts it serves). Exit code 1 if "
                      "any part fails."))
    doctor.add_argument("--config", help=_("config file"))
    doctor.add_argument("--journal", help=_("journal file (default: the state directory's)"))
    doctor.set_defaults(handler=cmd_doctor)


# --------------------------------------------------------------------------- building parts


def journal_path(path: str | None) -> Path:
    return Path(path) if path else state_dir() / "journal.sqlite3"


def open_journal(cfg: dict[str, Any], path: str | None) -> tuple[Journal, str | None]:
    """The table's journal, with rolling backups as the config says, and a notice to show.

    A file SQLite cannot open at all never stops the table (no restart loop): it is kept
    aside, the backup is put in its place if it checks, else a new journal starts.
    """
    j = cfg["journal"]
    where = journal_path(path)
    backup = j["backup"] or None
    every = j["backup_minutes"] * 60.0
    if not path:
        where.parent.mkdir(parents=True, exist_ok=True)  # the state directory, made once
    try:
        return Journal(where, backup=backup, backup_every=every), None
    except JournalWriteError:
        raise  # whole but not writable now: never set aside (see wait_for_journal)
    except JournalError as exc:
        if where.exists() and not where.is_file():  # a folder, a pipe: nothing to set aside
            raise
        log.error("%s", exc)
        aside, now = recover_unreadable(where, backup)
        notice = _("The journal could not be read; it is kept as {aside}. Playing on from "
                   "{now}.").format(aside=Path(aside).name, now=now)
        log.error("%s", notice)
        return Journal(where, backup=backup, backup_every=every), notice


def wait_for_journal(cfg: dict[str, Any], path: str | None, display, notify, stop: list,
                     end: float | None, retry_s: float = 5.0):
    """The journal, once it can be written. A full disk or a read-only card is shown on the
    panel and in the log, and tried again every ``retry_s`` while systemd's watchdog is fed:
    exiting would only restart the daemon into the same fault, over and over.
    Returns (journal, notice), or None when stopped first."""
    from companion.display import screens

    said = None
    while True:
        try:
            return open_journal(cfg, path)
        except JournalWriteError as exc:
            if str(exc) != said:
                said = str(exc)
                log.error("%s", exc)
                if display is not None:
                    display.show(screens.error(said, _("JOURNAL"))[0])
                if notify is not None:  # up and saying why: no start timeout, no restarts
                    notify.notify("READY=1\nSTATUS=" + said[:200])
        wake = time.monotonic() + retry_s
        while time.monotonic() < wake:
            if stop or (end is not None and time.monotonic() >= end):
                return None
            if notify is not None:
                notify.notify("WATCHDOG=1")
            time.sleep(0.2)


def pack_loader(cfg: dict[str, Any]):
    """title -> content pack, as the config says; the demo deck only if asked for."""
    from companion.content import pack_named

    return lambda title: pack_named(title, cfg["table"]["pack"])


def open_camera(cfg: dict[str, Any]):
    from companion.vision import sources

    cam = cfg["camera"]
    kind = cam["source"]
    if kind == "none":
        return None
    if kind == "picamera2":
        return sources.Picamera2Source(cam["width"], cam["height"])
    if kind == "opencv":
        return sources.OpenCVSource(cam["device"], cam["width"], cam["height"])
    if kind == "files":
        return sources.FileSource(cam["path"], loop=True)
    # A rendered tray that rolls when the game expects a roll and otherwise lies still, so a
    # game can be played with the keyboard and no camera.
    return sources.SyntheticSource(_synthetic_dice(cfg), follow=True)


def _synthetic_dice(cfg: dict[str, Any]) -> str:
    """The dice a synthetic camera renders: the configured title's, else the first title's
    that has dice."""
    from companion import titles

    key = cfg["table"]["title"]
    if key != "menu" and titles.get(key).facts.dice:
        return titles.get(key).facts.dice
    return next(titles.get(k).facts.dice for k in titles.keys() if titles.get(k).facts.dice)


def open_readers(cfg: dict[str, Any], camera=None):
    """A function making the reader and settle logic for a face set; with markers, the tray is
    found in the camera's frames (once)."""
    from companion.vision.reader import DiceReader
    from companion.vision.settle import Settler, SettleWatcher
    from companion.vision.zones import Zones

    cam = cfg["camera"]
    zones = None
    if cam["delorean_zone"]:
        zones = Zones.from_config({"default": "tray",
                                   "zone": [{"name": "delorean", "rect": cam["delorean_zone"]}]})
    tray = find_tray(camera) if cam["markers"] and camera is not None else None
    profile = cam["profile"] or None

    def reader_for(dice: str):
        # The owner's profile serves the dice it was taught on; other sets use built-in faces.
        own = profile if profile and _profile_dice(profile) == dice else None
        reader = DiceReader(dice, profile=own, tray=tray, zones=zones,
                            nadir=tuple(cam["nadir"]) or None)
        # An empty tray is a reading too: all dice moved off it.
        return SettleWatcher(reader, Settler(emit_empty=True))

    return reader_for


def _profile_dice(path: str) -> str | None:
    from companion.vision.profile import DiceProfile, ProfileError

    try:
        return DiceProfile.load(path).dice
    except (ProfileError, OSError) as exc:
        log.error("dice profile %s: %s", path, exc)
        return None


def find_tray(camera, tries: int = 20):
    """The tray's top-down view from the printed markers (None: the whole frame is read)."""
    from companion.vision.sources import CameraUnavailable, EndOfStream, FrameError
    from companion.vision.tray import TrayNotFound, TrayView

    reason = "no frame"
    for _attempt in range(tries):
        try:
            return TrayView.from_frame(camera.read().image)
        except (TrayNotFound, CameraUnavailable, FrameError, EndOfStream) as exc:
            reason = str(exc)
            time.sleep(0.1)
    log.error("tray markers not found (%s): reading the whole frame", reason)
    return None


def open_display(cfg: dict[str, Any], fallback: str | None = "dummy"):
    from companion.display.backends import open_display as open_backend

    d = cfg["display"]
    if d["driver"] == "none":
        return None
    spec = {"backend": d["driver"], "rotation": d["rotate"], "contrast": d["contrast"],
            "out": d["out"]}
    from companion.display.backends import PANELS, DisplayUnavailable

    if d["driver"] in PANELS:  # how the panel is wired: the pin map's
        from companion.pins import load

        oled = load().oled
        spec.update(port=oled.bus, address=oled.address, interface=oled.interface,
                    spi_device=oled.spi_device, dc=oled.dc, reset=oled.reset)

    try:
        return open_backend(spec)
    except DisplayUnavailable as exc:
        if not fallback:
            raise
        log.error("%s; the game goes on without the panel", exc)
        return open_backend({**spec, "backend": fallback})


def uses_pin_map(cfg: dict[str, Any]) -> bool:
    """Whether a part the config asks for is wired as the pin map says: a panel driver (its bus,
    address or SPI pins) or the GPIO buttons."""
    from companion.display.backends import PANELS

    return cfg["display"]["driver"] in PANELS or cfg["buttons"]["backend"] == "gpiozero"


def check_pin_map(cfg: dict[str, Any]) -> None:
    """A pin map the config needs, read and checked before anything is opened: a mistake in it
    is a configuration error, said like one (UserError: the message names the file, the key
    and the fix; exit code 2, as for a bad config.toml)."""
    from companion.cli import UserError
    from companion.pins import PinMapError, load

    if not uses_pin_map(cfg):
        return
    try:
        load()
    except PinMapError as exc:
        raise UserError(str(exc)) from exc


def open_buttons(cfg: dict[str, Any]):
    from companion.buttons import GpioButtons, KeyboardButtons, NoButtons

    b = cfg["buttons"]
    if b["backend"] == "none":
        return NoButtons()
    if b["backend"] == "keyboard":
        return KeyboardButtons()
    from companion.buttons import ButtonError
    from companion.pins import PinMapError, load

    try:
        p = load().buttons
    except PinMapError as exc:
        raise ButtonError(str(exc)) from exc
    pins = {"confirm": p.confirm, "end": p.end_turn, "back": p.undo, "next": p.next,
            "prev": p.prev}
    return GpioButtons(pins, bounce_s=b["bounce_ms"] / 1000, hold_s=b["hold_s"])


def open_lights(cfg: dict[str, Any]):
    from companion.link.board import open_light_board

    return open_light_board(cfg["lights"]["port"])


def notifier(cfg: dict[str, Any]):
    if not cfg["daemon"]["notify"] or not os.environ.get("NOTIFY_SOCKET"):
        return None
    import sdnotify

    return sdnotify.SystemdNotifier()


def pack_report(cfg: dict[str, Any]) -> str:
    """What the configured pack can serve: the table's title (or every title of the menu),
    for the player counts the table's names allow. Raises RuntimeError when nothing can be
    played, saying what is missing."""
    from companion import titles
    from companion.content import PackError, pack_named, playable

    t = cfg["table"]
    keys = titles.keys() if t["title"] == "menu" else (t["title"],)
    served, refused = [], []
    for key in keys:
        facts = titles.get(key).facts
        counts = range(facts.min_players, min(facts.max_players, len(t["players"])) + 1)
        if not counts:
            refused.append(_("{title}: takes {low}-{high} players and [table] players names "
                             "{count}").format(title=key, low=facts.min_players,
                                               high=facts.max_players, count=len(t["players"])))
            continue
        try:
            pack = pack_named(key, t["pack"])
        except PackError as exc:
            refused.append(f"{key}: {exc}")
            continue
        ok = [n for n in counts if playable(pack, n) is None]
        if not ok:
            refused.append(f"{key}: {playable(pack, counts[0])}")
        else:
            served.append(_("{title} {low}-{high} players").format(title=key, low=ok[0],
                                                                    high=ok[-1]))
    if not served:
        raise RuntimeError(_("pack {pack} cannot start a game: {reasons}").format(
            pack=repr(t["pack"]), reasons="; ".join(refused)))
    said = _("pack {pack} serves {titles}").format(pack=repr(t["pack"]), titles=", ".join(served))
    if refused:
        said += " " + _("(not: {reasons})").format(reasons="; ".join(refused))
    return said


# --------------------------------------------------------------------------- run


def cmd_run(args) -> int:
    from companion.buttons import ButtonError
    from companion.cli import UserError
    from companion.link.board import KnobButtons
    from companion.session import Session
    from companion.table import Table

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = configuration.load(args.config)
    except configuration.ConfigError as exc:
        raise UserError(str(exc)) from exc
    i18n.use(cfg["table"]["language"])  # the table's words; the log stays English
    from companion.display.cli import use_font
    from companion.display.draw import set_panel

    use_font(cfg["display"]["font"])
    set_panel(configuration.display_panel(cfg))  # every screen is drawn for this panel
    check_pin_map(cfg)  # the wiring is configuration too: a mistake stops here, said
    if args.journal and not Path(args.journal).parent.is_dir():
        raise UserError(_("--journal {path}: the folder {folder} does not exist; create it "
                          "first or give another path").format(
            path=args.journal, folder=Path(args.journal).parent))
    if journal_path(args.journal).is_dir():
        raise UserError(_("{journal} is a folder; a journal is a file: give its path, e.g. "
                          "{example}").format(journal=journal_path(args.journal),
                                              example=journal_path(args.journal) /
                                              "journal.sqlite3"))
    stop: list[str] = []
    signal.signal(signal.SIGTERM, lambda *_args: stop.append("SIGTERM"))
    end = time.monotonic() + args.seconds if args.seconds else None
    display = open_display(cfg)
    notify = notifier(cfg)
    opened = wait_for_journal(cfg, args.journal, display, notify, stop, end)
    if opened is None:  # stopped while the journal could not be written
        if display is not None:
            display.close()
        return 0
    journal, notice = opened
    t = cfg["table"]
    session = Session(journal, t["players"], pack_loader(cfg), title=t["title"],
                      options=configuration.title_options(cfg))
    if notice:
        session.last_error = notice
    try:  # a pack that can start no game: said at start, not first when a game is chosen
        pack_report(cfg)
    except RuntimeError as exc:
        log.error("%s", exc)
        if session.match is None and session.last_error is None:
            session.last_error = str(exc)
    lights = open_lights(cfg)
    try:
        buttons = [open_buttons(cfg)]
    except ButtonError as exc:
        log.error("%s; playing with the light board's knob only", exc)
        buttons = []
    buttons.append(KnobButtons(lights))
    camera = open_camera(cfg)
    table = Table(session, camera=camera, readers=open_readers(cfg, camera), buttons=buttons,
                  display=display, lights=lights, notifier=notify,
                  fps=cfg["camera"]["fps"],
                  zone="tray" if cfg["camera"]["delorean_zone"] else None)
    from companion.buttons import KEY_HELP
    from companion.display.backends import TerminalDisplay

    if isinstance(display, TerminalDisplay):  # the prompt in words (and the keys) by the panel
        display.footer = table.words
        if cfg["buttons"]["backend"] == "keyboard":
            table.keys = KEY_HELP
    table.boot()
    try:
        while not stop and (end is None or time.monotonic() < end):
            table.step()
            time.sleep(0.02)
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
        journal.close()
    return 0


# --------------------------------------------------------------------------- doctor


def cmd_doctor(args) -> int:
    """One line per part: PASS or FAIL, and what to do about a failure."""
    # The parts' own log lines (the light board's "disconnected") would say again, before
    # the table, what its FAIL line says: the table alone speaks here.
    quiet = logging.NullHandler()
    logging.getLogger("companion").addHandler(quiet)
    try:
        return _doctor(args)
    finally:
        logging.getLogger("companion").removeHandler(quiet)


def _doctor(args) -> int:
    results: list[tuple[bool, str, str]] = []

    def check(name: str, func) -> None:
        try:
            detail = func()
            results.append((True, name, detail or ""))
        except Exception as exc:  # every failure is reported, none stops the others
            results.append((False, name, str(exc)))

    try:
        cfg = configuration.load(args.config)
        results.append((True, N_("config"), configuration.described(args.config)))
    except configuration.ConfigError as exc:
        results.append((False, N_("config"), f"{exc}"))
        cfg = configuration.defaults()
    i18n.use(cfg["table"]["language"])

    def state() -> str:
        path = state_dir()
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor"
        probe.write_text("ok")
        probe.unlink()
        return _("{path} writable").format(path=path)

    def journal() -> str:
        """Every game's checksums, and the backup's: the SD card hands back what was written."""
        from companion.commands import check_lines

        where = journal_path(args.journal)
        if not (where.exists() or where.is_symlink()):
            if args.journal and not where.parent.is_dir():
                raise RuntimeError(_("the folder {folder} does not exist").format(
                    folder=where.parent))
            return _("no journal yet at {journal}: the first game starts it").format(
                journal=where)
        j = Journal(where, backup=cfg["journal"]["backup"] or None)
        try:
            lines = check_lines(j)
            games = len(j.games())
        finally:
            j.close()
        bad = [line for line, damaged in lines if damaged]
        if bad:
            raise RuntimeError(" ".join(bad) + " " + _(
                "The SD card may be failing: copy the state directory off it. With the table "
                "stopped, `companion journal repair` keeps what can be proven."))
        return _("{games} games, every checksum holds; {backup}").format(
            games=games, backup=lines[-1][0])

    def disk() -> str:
        path = state_dir()
        path.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(path).free / 2**20
        if free < 50:
            raise RuntimeError(_("only {size} MB free under {path}: free some space").format(
                size=f"{free:.0f}", path=path))
        return _("{size} MB free").format(size=f"{free:,.0f}")

    def camera() -> str:
        cam = open_camera(cfg)
        if cam is None:
            return _("no camera configured ({setting})").format(
                setting='[camera] source = "none"')
        try:
            frame = cam.read()
        except Exception as exc:
            raise RuntimeError(
                _("{source}: {reason}. Check the ribbon cable and that the camera is enabled "
                  "(see docs/pi-install.md)").format(source=cfg["camera"]["source"], reason=exc)
            ) from exc
        finally:
            if hasattr(cam, "close"):
                cam.close()
        h, w = frame.image.shape[:2]
        return _("{source} gives {width}x{height} frames").format(
            source=cfg["camera"]["source"], width=w, height=h)

    def display() -> str:
        from companion.display.cli import use_font
        from companion.display.draw import cap_height, rule_sizes, using

        use_font(cfg["display"]["font"])
        where = configuration.display_panel(cfg)
        d = open_display(cfg, fallback=None)
        if d is None:
            return _("no display configured")
        from companion.display import screens

        with using(where):  # this check's panel only: the caller's stays as it was
            ok = d.show(screens.boot(_("doctor")))
        d.close()
        if not ok:
            raise RuntimeError(getattr(d, "last_error", _("the panel did not take a frame")))
        main, other = (cap_height(size) * where.pitch_mm for size in rule_sizes(where))
        return _("{driver} shows frames; {panel}: main lines {main} mm, other words {other} mm "
                 "(the table needs 6 and 4 mm: hardware/README.md)").format(
            driver=cfg["display"]["driver"], panel=where.describe(), main=f"{main:.1f}",
            other=f"{other:.1f}")

    def buttons() -> str:
        b = open_buttons(cfg)
        b.close()
        return _("{backend} buttons open").format(backend=cfg["buttons"]["backend"])

    def lights() -> str:
        from companion.link.board import status_text

        board = open_lights(cfg)
        try:
            if board.status.value == "absent":
                return _("no light board configured")
            if not board.wait_ready(4.0):
                raise RuntimeError(
                    _("{port}: {status} ({reason}). Plug in the Pico, flash firmware/ "
                      "(firmware/README.md), check the udev rule").format(
                        port=cfg["lights"]["port"], status=status_text(board.status),
                        reason=board.last_error)
                )
            return _("{port} ready").format(port=cfg["lights"]["port"])
        finally:
            board.close()

    def packs() -> str:
        return pack_report(cfg)

    check(N_("state directory"), state)
    check(N_("journal"), journal)
    check(N_("disk space"), disk)
    check(N_("camera"), camera)
    check(N_("display"), display)
    check(N_("buttons"), buttons)
    check(N_("light board"), lights)
    check(N_("config directory"), lambda: f"{config_dir()}")
    check(N_("content pack"), packs)
    names = [_(name) for _ok, name, _detail in results]
    width = max(17, *(len(name) + 1 for name in names))  # 17: the English column
    for (ok, _name, detail), name in zip(results, names, strict=True):
        word = _("PASS") if ok else _("FAIL")
        print(f"{word}  {name:<{width}} {detail}")
    failed = sum(1 for ok, *_rest in results if not ok)
    print(_("{passed} passed, {failed} failed").format(passed=len(results) - failed,
                                                       failed=failed))
    sys.stdout.flush()
    return 1 if failed else 0
