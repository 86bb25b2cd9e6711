# The NeoPixel ring: a base mode (steady, off, turn colour) plus at most one short effect on top.
# Everything is advanced by update(now) with now from time.ticks_ms(), so nothing blocks.
from time import ticks_diff

# Default effect colours (r, g, b); EFFECT <name> <rrggbb> overrides.
COLOURS = {
    "ripple": (0, 140, 255),
    "stall": (255, 110, 0),
    "paradox": (255, 0, 0),
    "win": (0, 255, 60),
}
DURATIONS = {"ripple": 1200, "stall": 900, "paradox": 1500, "win": 3000}
TURN_PERIOD = 2400  # ms for one breath of the "your turn" colour


def scale(rgb, num, den=255):
    return (rgb[0] * num // den, rgb[1] * num // den, rgb[2] * num // den)


def wheel(pos):
    # 0-255 -> a fully saturated colour around the hue circle
    pos &= 255
    if pos < 85:
        return (255 - pos * 3, pos * 3, 0)
    if pos < 170:
        pos -= 85
        return (0, 255 - pos * 3, pos * 3)
    pos -= 170
    return (pos * 3, 0, 255 - pos * 3)


def tri(t, period):
    # triangle wave 0..255..0 over one period
    p = t % period
    half = period // 2
    if p < half:
        return p * 255 // half
    return (period - p) * 255 // (period - half)


def render_effect(name, colour, t, n):
    """Pixels for effect ``name`` at ``t`` ms after it started, or None once it is over."""
    if t >= DURATIONS[name]:
        return None
    if name == "ripple":
        # two waves from LED 0 running round both sides to meet opposite, twice
        lap = 600
        pos = (t % lap) * (n // 2 + 2) // lap
        out = []
        for i in range(n):
            d = min(i, n - i)
            gap = abs(d - pos)
            out.append(scale(colour, 255 >> (gap * 2)) if gap < 4 else (0, 0, 0))
        return out
    if name == "stall":
        # three blinks
        on = (t // 150) % 2 == 0
        return [colour if on else (0, 0, 0)] * n
    if name == "paradox":
        # halves swap between the colour and white, faster than anyone likes
        flip = (t // 100) % 2
        half = n // 2
        out = []
        for i in range(n):
            a = (i < half) == (flip == 0)
            out.append(colour if a else (255, 255, 255))
        return out
    if name == "win":
        # a rainbow spinning once a second, ending on the effect colour
        if t > DURATIONS[name] - 500:
            return [colour] * n
        shift = t * 256 // 1000
        return [wheel(i * 256 // n + shift) for i in range(n)]
    return None


class Ring:
    def __init__(self, np, n, max_level=255, rgbw=False, frame_ms=20):
        self.np = np
        self.frame_ms = frame_ms
        self.last_write = 0
        self.n = n
        self.max_level = max_level
        self.rgbw = rgbw
        self.base = "steady"
        self.level = 200
        self.colour = (255, 255, 255)
        self.effect = None
        self.effect_colour = None
        self.effect_start = 0
        self.base_start = 0
        self.dirty = True
        self.writes = 0

    @property
    def mode(self):
        if self.effect:
            return "effect:" + self.effect
        return self.base

    def steady(self, level):
        self.base, self.level = "steady", level
        self.effect = None
        self.dirty = True

    def off(self):
        self.base = "off"
        self.effect = None
        self.dirty = True

    def turn(self, colour, now):
        self.base, self.colour, self.base_start = "turn", colour, now
        self.effect = None
        self.dirty = True

    def start_effect(self, name, colour, now):
        self.effect = name
        self.effect_colour = colour or COLOURS[name]
        self.effect_start = now
        self.dirty = True

    def animated(self):
        return self.effect is not None or self.base == "turn"

    def _base_pixels(self, now):
        n = self.n
        if self.base == "off":
            return [(0, 0, 0)] * n
        if self.base == "steady":
            lv = self.level
            return [(lv, lv, lv)] * n
        # turn: breathe between 30% and 100% of the colour
        k = 77 + tri(ticks_diff(now, self.base_start), TURN_PERIOD) * 178 // 255
        return [scale(self.colour, k)] * n

    def pixels(self, now):
        if self.effect:
            px = render_effect(
                self.effect, self.effect_colour, ticks_diff(now, self.effect_start), self.n
            )
            if px is not None:
                return px
            self.effect = None  # over: back to the base mode
        return self._base_pixels(now)

    def update(self, now):
        """Write a new frame if something changed or is animated; True if it wrote."""
        if not self.dirty:
            if not self.animated() or ticks_diff(now, self.last_write) < self.frame_ms:
                return False
        self.last_write = now
        self.show(self.pixels(now))
        # pixels() may have just ended an effect; the base still needs one frame
        self.dirty = False
        return True

    def show(self, px):
        np = self.np
        m = self.max_level
        for i in range(self.n):
            r, g, b = px[i]
            if self.rgbw:
                if r == g == b:
                    np[i] = (0, 0, 0, r * m // 255)  # pure white: the white LED only
                else:
                    np[i] = (r * m // 255, g * m // 255, b * m // 255, 0)
            else:
                np[i] = (r * m // 255, g * m // 255, b * m // 255)
        np.write()
        self.writes += 1
