# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# Stand-in for MicroPython's machine module on the unix port: pins are values in a table
# that tests set, PWM records what it was told.

_levels = {}  # pin id -> level seen by value() for inputs


def set_pin(pin_id, level):
    _levels[pin_id] = 1 if level else 0


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        if pin_id not in _levels:
            # an input with a pull-up idles high, like the real thing
            _levels[pin_id] = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            _levels[pin_id] = value

    def value(self, v=None):
        if v is None:
            return _levels[self.id]
        _levels[self.id] = 1 if v else 0
        return None

    def __repr__(self):
        return "Pin(%d)" % self.id


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.log = []  # (freq, duty) after every change

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self.log.append((self._freq, self._duty))

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.log.append((self._freq, self._duty))

    def deinit(self):
        self._duty = 0


def unique_id():
    return b"\x00\x11\x22\x33\x44\x55\x66\x77"


def reset():
    raise SystemExit("machine.reset()")
