# The board's link logic: reads frames from the host, drives ring/buzzer, sends key events.
# Board.step(now) does one bounded slice of work and returns; main.py calls it in a loop.
from time import ticks_diff

import lightproto as lp
from buzzer import SOUNDS


class Board:
    def __init__(self, port, ring, cfg, keys=None, buzzer=None, now=0):
        self.port = port
        self.ring = ring
        self.cfg = cfg
        self.keys = keys
        self.buzzer = buzzer
        self.reader = lp.LineReader()
        self.seq = 0
        self.last_host_seq = None
        self.last_rx = now
        self.host_alive = False  # becomes True with the first valid frame
        self.hellos = 0
        self.rejected = 0
        ring.steady(cfg.FALLBACK_LEVEL)  # until told otherwise, light the tray for the camera
        self.send_hello()

    def features(self):
        f = []
        if self.keys is not None:
            f.append("enc")
        if self.buzzer is not None:
            f.append("buzz")
        return ",".join(f) or "-"

    def send(self, cmd, args=()):
        line = lp.encode(self.seq, cmd, args)
        self.seq = lp.next_seq(self.seq)
        try:
            self.port.write(line)
        except OSError:
            pass  # nobody listening (USB unplugged from the host side): keep running

    def send_hello(self):
        self.send("HELLO", (lp.VERSION, self.cfg.FIRMWARE_VERSION, self.ring.n, self.features()))

    def step(self, now):
        data = self.port.read()
        if data:
            for line in self.reader.feed(data):
                self.handle_line(line, now)
        if self.keys is not None:
            for key in self.keys.poll(now):
                self.send("KEY", (key,))
        if self.host_alive and ticks_diff(now, self.last_rx) > self.cfg.HOST_TIMEOUT_MS:
            self.host_alive = False
            self.ring.steady(self.cfg.FALLBACK_LEVEL)
            self.send("FALLBACK", ("silence",))
        if self.buzzer is not None:
            self.buzzer.update(now)
        self.ring.update(now)

    def nak(self, seq, reason):
        self.rejected += 1
        self.send("NAK", ("-" if seq is None else seq, reason))

    def handle_line(self, line, now):
        if not line.strip():
            return  # blank lines (a terminal's Enter) are not worth a NAK
        try:
            seq, cmd, args = lp.parse(line)
        except lp.ProtocolError as exc:
            if exc.reason != lp.NO_FRAME:  # text that is not a frame is not answered
                self.nak(exc.seq, exc.reason)
            return
        if cmd in lp.EVENTS and self._own_words(cmd, args):
            return  # the board's own frame echoed back (a terminal on the port): never answered
        # A frame with a good checksum proves the host is alive, even if we reject it.
        self.last_rx = now
        self.host_alive = True
        try:
            values = lp.check(cmd, args, lp.COMMANDS)
        except lp.ProtocolError as exc:
            self.nak(seq, exc.reason)
            return
        if cmd != "HELLO" and seq == self.last_host_seq:
            # The host resent a frame whose ACK it missed: ACK again, do not do it twice.
            self.send("ACK", (seq,))
            return
        self.last_host_seq = seq
        if cmd == "HELLO" and values[0] != lp.VERSION:
            self.nak(seq, lp.BAD_VERSION)
            return
        try:
            self.execute(cmd, values, now)
        except Exception:  # noqa: BLE001 - a bug in one command must not stop the board
            self.nak(seq, lp.INTERNAL)
            return
        self.send("ACK", (seq,))
        if cmd == "HELLO":
            self.hellos += 1
            self.send_hello()

    def _own_words(self, cmd, args):
        """Whether a frame is one the board sends (an event, with an event's arguments)."""
        try:
            lp.check(cmd, args, lp.EVENTS)
        except lp.ProtocolError:
            return False
        return True

    def execute(self, cmd, v, now):
        cfg = self.cfg
        if cmd == "STEADY":
            self.ring.steady(cfg.STEADY_LEVEL if v[0] is None else v[0])
        elif cmd == "OFF":
            self.ring.off()
        elif cmd == "TURN":
            self.ring.turn(v[0], now)
        elif cmd == "EFFECT":
            self.ring.start_effect(v[0], v[1], now)
            if self.buzzer is not None and cfg.EFFECT_SOUNDS:
                self.buzzer.play(SOUNDS.get(v[0], ()), now)
        elif cmd == "BUZZ":
            if self.buzzer is not None:
                self.buzzer.play(((v[0], v[1]),), now)
        # HELLO and PING need nothing beyond the ACK


def build(cfg, port, now=0):
    """Make a Board from the config module, with real (or fake) machine/neopixel."""
    from keys import Button, Encoder, Keys
    from machine import PWM, Pin
    from neopixel import NeoPixel
    from ring import Ring

    np = NeoPixel(Pin(cfg.RING_PIN, Pin.OUT), cfg.RING_LEDS, bpp=4 if cfg.RING_RGBW else 3)
    ring = Ring(np, cfg.RING_LEDS, cfg.MAX_LEVEL, cfg.RING_RGBW, cfg.FRAME_MS)
    keys = None
    if cfg.ENCODER:
        a = Pin(cfg.ENC_A_PIN, Pin.IN, Pin.PULL_UP)
        b = Pin(cfg.ENC_B_PIN, Pin.IN, Pin.PULL_UP)
        sw = Pin(cfg.ENC_SW_PIN, Pin.IN, Pin.PULL_UP)
        keys = Keys(
            Encoder(a, b, cfg.ENC_STEPS_PER_DETENT, cfg.ENC_REVERSE),
            Button(sw, cfg.DEBOUNCE_MS, cfg.HOLD_MS, now),
        )
    buzzer = None
    if cfg.BUZZER:
        from buzzer import Buzzer

        buzzer = Buzzer(PWM(Pin(cfg.BUZZER_PIN)))
    return Board(port, ring, cfg, keys, buzzer, now)
