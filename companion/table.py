"""The table loop: camera → reader → session → journal/engine → display and lights, one process.

``Table.step()`` does one pass: looks at a camera frame when one is due, reads the buttons and
the light board's knob, feeds the session, and shows what it says. Everything it drives sits
behind a small interface, so the same loop runs the Pi at game night, the simulator and tests.

The loop knows no title: the dice reader it uses is the one for the face set of the title in
play (``readers(dice_set)`` makes it, once per set; a title without dice leaves the camera
idle), and the screens come from the title's ``screens`` part.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion import heap, titles
from companion.display import screens as s
from companion.i18n import _
from companion.session import Prompt, Session, Update
from companion.vision.sources import CameraUnavailable, EndOfStream, FrameError

log = logging.getLogger("companion.table")

PLAYER_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
LIGHT_EFFECTS = {"win": "win"}  # a title's screens part may name more (LIGHT_EFFECTS)


@dataclass
class Shown:
    image: Any
    seconds: float  # 0.0: the prompt, which stays until something changes
    shown: bool = False


class QuietGate:
    """Skips the dice reader while the tray is still and already read (idle CPU stays low).

    A 64x36 thumbnail of each frame is compared with the last one that was read (per pixel,
    the channel that changed most); the reader runs again as soon as anything in the tray
    changes: the whole picture a little (``threshold`` levels on average), or a few spots a lot
    (``spots`` thumbnail pixels by more than ``spot`` levels: one small die dropped into a
    still tray, which the average hardly feels, even a red die on a tray as grey as it).
    Sensor noise is averaged away in the thumbnail and moves neither.
    """

    def __init__(self, threshold: float = 2.0, spot: int = 16, spots: int = 3):
        self.threshold = threshold
        self.spot = spot
        self.spots = spots
        self._last: np.ndarray | None = None

    def changed(self, image: np.ndarray) -> bool:
        small = cv2.resize(image, (64, 36), interpolation=cv2.INTER_AREA).astype(np.int16)
        if self._last is None or self._last.shape != small.shape:
            self._last = small
            return True
        diff = np.abs(small - self._last)
        if diff.ndim == 3:
            diff = diff.max(axis=2)
        self._last = small
        return float(diff.mean()) > self.threshold or \
            int(np.count_nonzero(diff > self.spot)) >= self.spots


class Table:
    def __init__(self, session: Session, camera=None, watcher=None, buttons=(), display=None,
                 lights=None, notifier=None, fps: float = 8.0, dwell_s: float = 1.2,
                 zone: str | None = None, clock=time.monotonic, readers=None):
        """``readers(dice_set)`` makes the settle watcher for a face set; ``watcher`` alone is
        used for every set (tests, a table with one kind of dice)."""
        self.session = session
        self.camera = camera
        self._readers = readers
        self._watchers: dict[str | None, Any] = {}
        self._fixed_watcher = watcher
        self.buttons = list(buttons)
        self.display = display
        self.lights = lights
        self.notifier = notifier
        self.frame_interval = 1.0 / fps
        self.dwell_s = dwell_s
        self.zone = zone  # the reader's rolling-area zone name, when tray markers are used
        self.clock = clock
        self.queue: deque[Shown] = deque()
        self.showing_until = 0.0
        self.next_frame = 0.0
        self.camera_ok = True
        self.gate = QuietGate()
        self.updates: list[Update] = []  # every update handled (the simulator reads them)
        self.frames_shown = 0
        self.readings = 0
        self._last_watchdog = 0.0
        self._settled = False
        self._give_back = False  # a roll was just read: hand its buffers back to the system
        self._display_error: str | None = None
        self._camera_said: str | None = None
        self.said: str | None = None  # the last announcement, for the words
        self.refused: str | None = None  # why the last press or reading did nothing
        self.keys: str | None = None  # the keys to show beside the panel (keyboard buttons)

    # ------------------------------------------------------------------ life cycle

    @property
    def watcher(self):
        """The settle watcher for the dice of the title in play (None: no dice to read)."""
        if self._fixed_watcher is not None or self._readers is None:
            return self._fixed_watcher
        dice = self.session.dice_set()
        if dice is None:
            return None
        if dice not in self._watchers:
            self._watchers[dice] = self._readers(dice)
        return self._watchers[dice]

    def _title(self):
        key = self.session.title_key
        return titles.get(key) if key else None

    def boot(self) -> None:
        title = self._title()
        plate = (title.facts.plate or title.facts.name).upper() if (
            title and self.session.fixed_title) else None
        self._show_now([Shown(s.boot(plate=plate) if plate else s.boot(), self.dwell_s)])
        if self.lights is not None:
            self.lights.steady()
        self.handle(self.session.update(self.session.resumed()))
        self._notify("READY=1", "STATUS=table ready")  # for systemctl status: stays English

    def close(self) -> None:
        for part in (self.camera, self.display, self.lights, *self.buttons):
            close = getattr(part, "close", None)
            if close:
                try:
                    close()
                except Exception as exc:  # closing must never hide the reason we stop
                    log.warning("closing %r: %s", part, exc)

    # ------------------------------------------------------------------ one pass

    def step(self) -> None:
        now = self.clock()
        if self.camera is not None and now >= self.next_frame:
            self.next_frame = now + self.frame_interval
            self._camera_step()
        for source in self.buttons:
            for press in source.poll():
                if self.announcing(now):
                    # The press would answer a question not on the panel yet: it brings the
                    # question up now instead, and the next press answers it.
                    self._skip_to_prompt()
                    continue
                self._safely(self.session.press, press)
        self._pump_display(now)
        if self._give_back:  # after the screen is updated, so that no player waits for it
            self._give_back = False
            heap.give_back()
        if now - self._last_watchdog >= 1.0:
            self._last_watchdog = now
            self._notify("WATCHDOG=1")

    def _camera_step(self) -> None:
        watcher = self.watcher
        if watcher is None:
            return  # the game in play has no dice for the camera
        follow = getattr(self.camera, "expect_roll", None)
        if follow is not None:  # a rendered tray: it rolls when the game expects a roll
            match = self.session.match
            follow(self.session.dice_expected(), match.state if match else None,
                   self.session.dice_set())
        try:
            frame = self.camera.read()
        except CameraUnavailable as exc:
            if self.camera_ok:
                self.camera_ok = False
                self._queue_error(_("Camera lost ({reason}). Check its cable; buttons still "
                                    "work.").format(reason=exc), _("CAMERA"))
            return
        except (FrameError, EndOfStream) as exc:
            said = str(exc) or type(exc).__name__
            if said != self._camera_said:  # once per fault, not eight times a second
                log.info("camera: %s", said)
                self._camera_said = said
            return
        self._camera_said = None
        if not self.camera_ok:
            self.camera_ok = True
            self.queue.append(Shown(s.notice(_("CAMERA"), _("BACK"), _("reading the dice again")),
                                    self.dwell_s))
        image = frame.image
        if self._settled and not self.gate.changed(image):
            return  # nothing moved since the last reading: no need to read again
        if not self._settled:
            self.gate.changed(image)  # keep the gate's picture of the tray current
        self.expect_dice(self.session.dice_expected())
        reading = watcher.feed(image)
        settled = watcher.settler.state in ("settled", "empty")
        self._give_back |= settled and not self._settled
        self._settled = settled
        if reading is not None:
            self.readings += 1
            if reading.extra.get("seen") is not None:
                self.queue.append(Shown(s.notice(_("DICE?"), _("{seen} seen, {expected} rolled")
                                                 .format(seen=reading.extra["seen"],
                                                         expected=reading.extra["expected"]),
                                                 _("check the tray")), self.dwell_s))
            # A die read with a colour comes as "colour:face"; plain dice as their face.
            self._safely(self.session.dice, reading.labels(self.zone))

    def expect_dice(self, count: int | None) -> None:
        """The number of dice the coming roll holds, when the session knows it (None: it
        does not): the reader then proposes that many and says when it sees another."""
        expect = getattr(self.watcher, "expect", None)
        if expect is not None and getattr(self.watcher, "expected", None) != count:
            expect(count)

    def _safely(self, call, what) -> None:
        """Hand a press or a reading to the session. A fault in the game's code is logged and
        shown, never raised: the daemon stopping would only replay the same fault at every
        restart (the journal already holds every confirmed action)."""
        try:
            update = call(what)
        except Exception as exc:
            log.exception("the table could not handle %r", what)
            self.session.menu = self.session.proposal = None
            self._queue_error(_("That did not work ({error}). The game is safe in the "
                                "journal; UNDO takes back the last action.").format(
                error=type(exc).__name__))
            return
        self.handle(update)

    # ------------------------------------------------------------------ output

    def handle(self, update: Update) -> None:
        self.updates.append(update)
        told = [e.get("text", "") for e in update.effects if e.get("text")]
        if told:  # the last thing that happened stays in the words until the next one
            self.said = " / ".join(told)
        self.refused = update.error
        view = self.session.match.view() if self.session.match else {}
        try:
            frames = self._frames(update, view)
        except Exception as exc:  # a screen that cannot be drawn must not stop the game
            log.exception("drawing the screens failed")
            frames = [Shown(img, 0.0) for img in s.error(f"{update.prompt.title} ({exc})")][-1:]
        # The previous prompt is no longer true: drop it, keep announcements not yet shown.
        while self.queue and self.queue[-1].seconds == 0.0:
            self.queue.pop()
        self.queue.extend(frames)
        self._cue_lights(update, view)

    def _frames(self, update: Update, view: dict[str, Any]) -> list[Shown]:
        frames: list[Shown] = []
        title = self._title() if self.session.match else None
        if update.effects:
            if view and title is not None:
                named = title.screens.named_screens_for(view, update.effects)
                frames += [Shown(img, self.dwell_s) for _name, img in named]
            else:
                frames += [Shown(s.notice(e["text"]), self.dwell_s) for e in update.effects]
        if update.error:
            frames += [Shown(img, self.dwell_s * 1.5) for img in s.error(update.error)]
        frames.append(Shown(self.prompt_screen(update.prompt, view), 0.0))
        return frames

    def prompt_screen(self, prompt: Prompt, view: dict[str, Any]):
        title = self._title() if self.session.match else None
        if title is not None:
            image = title.screens.prompt_screen(prompt, view, self.session)
            if image is not None:
                return image
        if prompt.kind == "menu":
            return s.menu(prompt.title, prompt.options or [_("(nothing to choose)")],
                          prompt.selected)
        if prompt.kind == "over":
            return s.winner(view.get("winner") or prompt.title)
        return s.notice(prompt.title, *prompt.lines[:1])

    def words(self, columns: int, rows: int) -> list[str]:
        """The table in words for a terminal (``TerminalDisplay``'s footer): what is asked
        now, the menu, what was just said, and the keys (``keys``)."""
        from companion.display.words import words

        title_table = self.session.table
        keys = _(self.keys) if self.keys else None
        try:
            return words(self.session.prompt(), columns, rows, said=self.said,
                         refused=self.refused, keys=keys,
                         dice_text=title_table.dice_text if title_table is not None else None)
        except Exception:  # the words are a help: a fault in them never stops the table
            log.exception("the prompt in words could not be made")
            return [keys] if keys else []

    def _queue_error(self, message: str, title: str | None = None) -> None:
        self.refused = message
        self.queue.extend(Shown(img, self.dwell_s * 1.5) for img in s.error(message, title))

    def announcing(self, now: float) -> bool:
        """Announcements (or a refusal) are on the panel or waiting for it, so the prompt the
        buttons answer is not shown yet."""
        return now < self.showing_until or any(item.seconds > 0.0 for item in self.queue)

    def _skip_to_prompt(self) -> None:
        self.queue = deque(item for item in self.queue if item.seconds == 0.0)
        self.showing_until = 0.0

    def _pump_display(self, now: float) -> None:
        if now < self.showing_until or not self.queue:
            return
        item = self.queue[0]
        if item.seconds == 0.0 and len(self.queue) == 1:
            if not item.shown:  # the prompt stays on the panel until something changes
                self._show(item.image)
                item.shown = True
            return
        self.queue.popleft()
        self._show(item.image)
        self.showing_until = now + item.seconds

    def _show_now(self, items: list[Shown]) -> None:
        for item in items:
            self._show(item.image)

    def _show(self, image) -> None:
        self.frames_shown += 1
        if self.display is None:
            return
        if self.display.show(image):
            if self._display_error is not None:
                log.warning("display: shows frames again")
                self._display_error = None
            return
        error = getattr(self.display, "last_error", None) or "a frame was not shown"
        if error != self._display_error:  # once per fault, not once per frame
            log.warning("display: %s", error)
            self._display_error = error

    def flush(self) -> None:
        """Show everything queued at once (the simulator's fast-forward)."""
        while self.queue:
            item = self.queue.popleft()
            self._show(item.image)
        self.showing_until = 0.0

    def _cue_lights(self, update: Update, view: dict[str, Any]) -> None:
        if self.lights is None:
            return
        title = self._title() if self.session.match else None
        lights = {**LIGHT_EFFECTS, **getattr(title.screens if title else None,
                                              "LIGHT_EFFECTS", {})}
        for effect in update.effects:
            name = lights.get(effect["kind"])
            if name:
                self.lights.effect(name)
            if effect["kind"] == "turn" and view:
                names = [p["name"] for p in view.get("players", [])]
                if effect.get("player") in names:
                    colour = PLAYER_COLOURS[names.index(effect["player"]) % len(PLAYER_COLOURS)]
                    self.lights.turn(colour)
        if update.prompt.kind == "roll":
            self.lights.steady()  # even light while the camera reads the roll

    def _notify(self, *lines: str) -> None:
        if self.notifier is not None:
            self.notifier.notify("\n".join(lines))
