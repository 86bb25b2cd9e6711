# Entry point on the Pico: USB serial in, light ring and keys out. Runs forever.
import select
import sys
import time

import config
from board import build


class StdioPort:
    """The USB CDC serial port as seen through sys.stdin/sys.stdout, without blocking."""

    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def wait(self, ms):
        # sleeps up to ms, waking early when the host sends something
        self.poller.poll(ms)

    def read(self):
        data = b""
        # one byte per read: read(n) would block until n bytes came
        while len(data) < 64 and self.poller.poll(0):
            try:
                b = self.inp.read(1)
            except OSError:
                return data
            if not b:
                break
            data += b
        return data

    def write(self, data):
        self.out.write(data)


def main():
    port = StdioPort()
    board = build(config, port, time.ticks_ms())
    last_report = None
    while True:
        try:
            board.step(time.ticks_ms())
        except Exception as exc:  # keep the light on whatever happens; report and go on
            now = time.ticks_ms()
            # at most one traceback a second, so a bug does not flood the link
            if last_report is None or time.ticks_diff(now, last_report) >= 1000:
                last_report = now
                sys.print_exception(exc)
        port.wait(1)


if __name__ == "__main__":
    main()
