# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# Stand-in for MicroPython's neopixel module: keeps the buffer and what the last write() showed.
# With FAKE_NEOPIXEL_DUMP set, every write() also saves the shown pixels to that file
# (one "r,g,b" line per LED) so a test in another process can look at the ring.
import os

instances = []


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = [(0,) * bpp] * n
        self.shown = list(self.buf)
        self.writes = 0
        self.dump = os.getenv("FAKE_NEOPIXEL_DUMP")
        instances.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        if len(v) != self.bpp:
            raise ValueError("expected %d values, got %r" % (self.bpp, v))
        for c in v:
            if not 0 <= c <= 255:
                raise ValueError("channel out of range: %r" % (v,))
        self.buf[i] = tuple(v)

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.shown = list(self.buf)
        self.writes += 1
        if self.dump:
            tmp = self.dump + ".tmp"
            with open(tmp, "w") as f:
                for px in self.shown:
                    f.write(",".join([str(c) for c in px]) + "\n")
            os.rename(tmp, self.dump)
