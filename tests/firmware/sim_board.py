# ruff: noqa: UP031 - runs under MicroPython
# The real firmware loop under the MicroPython unix port, on stdin/stdout (a pty in the tests),
# with fake pins. Arguments (key=value):
#   timeout=MS       host silence before fallback (config.HOST_TIMEOUT_MS)
#   keys=a,b,...     after the first HELLO from the host, work the fake knob:
#                    next/prev turn one detent, confirm is a short push, hold a long one
import sys
import time

import board
import config
import machine
from main import StdioPort

opts = {}
for arg in sys.argv[1:]:
    k, _, v = arg.partition("=")
    opts[k] = v
if "timeout" in opts:
    config.HOST_TIMEOUT_MS = int(opts["timeout"])

A, B, SW = config.ENC_A_PIN, config.ENC_B_PIN, config.ENC_SW_PIN
CW = ((0, 1), (0, 0), (1, 0), (1, 1))
CCW = ((1, 0), (0, 0), (0, 1), (1, 1))

# a flat list of (wait ms, pin, level) steps
steps = []
for key in [k for k in opts.get("keys", "").split(",") if k]:
    if key in ("next", "prev"):
        for a, b in CW if key == "next" else CCW:
            steps.append((3, A, a))
            steps.append((0, B, b))
    else:
        steps.append((30, SW, 0))
        steps.append((config.HOLD_MS + 100 if key == "hold" else 80, SW, 1))
    steps.append((60, SW, 1))  # settle between keys

port = StdioPort()
fw = board.build(config, port, time.ticks_ms())
step_at = None
while True:
    now = time.ticks_ms()
    fw.step(now)
    if steps and fw.hellos:
        if step_at is None:
            step_at = now
        wait, pin, level = steps[0]
        if time.ticks_diff(now, step_at) >= wait:
            machine.set_pin(pin, level)
            steps.pop(0)
            step_at = now
    port.wait(1)
