# Piezo buzzer on PWM: plays a list of (frequency Hz, duration ms) notes without blocking.
# Frequency 0 is a rest.
from time import ticks_diff

SOUNDS = {
    "ripple": ((880, 60), (1320, 60)),
    "stall": ((220, 150), (0, 100), (220, 150)),
    "paradox": ((1200, 80), (600, 80), (1200, 80), (600, 80), (1200, 80), (600, 160)),
    "win": ((523, 120), (659, 120), (784, 120), (1047, 300)),
}


class Buzzer:
    def __init__(self, pwm):
        self.pwm = pwm
        self.notes = ()
        self.index = 0
        self.note_start = 0
        self.pwm.duty_u16(0)

    @property
    def busy(self):
        return self.index < len(self.notes)

    def play(self, notes, now):
        self.notes = tuple(notes)
        self.index = 0
        self._start(now)

    def _start(self, now):
        self.note_start = now
        if self.index >= len(self.notes):
            self.pwm.duty_u16(0)
            return
        freq = self.notes[self.index][0]
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)  # 50% duty: loudest square wave for a piezo
        else:
            self.pwm.duty_u16(0)

    def update(self, now):
        # at most one note per call keeps every call short; the loop comes back within ms
        if self.busy and ticks_diff(now, self.note_start) >= self.notes[self.index][1]:
            self.index += 1
            self._start(now)
