# Rotary encoder and its push switch, read by polling from the main loop (no IRQs, so the
# same code runs against fake pins in tests). Turning gives "next"/"prev", a short push
# "confirm", a long push "hold".
from time import ticks_diff

# Quadrature transitions: index (previous AB << 2) | current AB -> step, +1 when A changes
# ahead of B (11 -> 01 -> 00 -> 10 -> 11 is one detent "next"). Invalid jumps (both lines
# changed, i.e. a missed state) count as 0 rather than guessing a direction.
_STEPS = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)


class Encoder:
    def __init__(self, pin_a, pin_b, steps_per_detent=4, reverse=False):
        self.a = pin_a
        self.b = pin_b
        self.steps = steps_per_detent
        self.reverse = reverse
        self.state = (pin_a.value() << 1) | pin_b.value()
        self.acc = 0

    def poll(self):
        """Return "next", "prev" or None."""
        cur = (self.a.value() << 1) | self.b.value()
        if cur == self.state:
            return None
        self.acc += _STEPS[(self.state << 2) | cur]
        self.state = cur
        if self.acc >= self.steps:
            self.acc -= self.steps
            return "prev" if self.reverse else "next"
        if self.acc <= -self.steps:
            self.acc += self.steps
            return "next" if self.reverse else "prev"
        return None


class Button:
    """Active-low push switch with debounce; "confirm" on release, "hold" once when held."""

    def __init__(self, pin, debounce_ms=25, hold_ms=800, now=0):
        self.pin = pin
        self.debounce = debounce_ms
        self.hold_ms = hold_ms
        self.raw = pin.value()
        self.raw_since = now
        self.pressed = self.raw == 0
        self.down_at = now
        self.held = self.pressed  # a button already down at boot must not fire

    def poll(self, now):
        raw = self.pin.value()
        if raw != self.raw:
            self.raw, self.raw_since = raw, now
            return None
        if ticks_diff(now, self.raw_since) < self.debounce:
            return None
        down = raw == 0
        if down and not self.pressed:
            self.pressed, self.down_at, self.held = True, now, False
        elif down and not self.held and ticks_diff(now, self.down_at) >= self.hold_ms:
            self.held = True
            return "hold"
        elif not down and self.pressed:
            self.pressed = False
            if not self.held:
                return "confirm"
        return None


class Keys:
    def __init__(self, encoder=None, button=None):
        self.encoder = encoder
        self.button = button

    def poll(self, now):
        out = []
        if self.encoder:
            k = self.encoder.poll()
            if k:
                out.append(k)
        if self.button:
            k = self.button.poll(now)
            if k:
                out.append(k)
        return out
