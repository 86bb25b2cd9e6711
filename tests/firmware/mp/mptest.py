# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# A tiny test runner for MicroPython: runs every test_* function of a module and prints
# "PASS name" / "FAIL name: why" lines that tests/firmware/test_firmware.py reads.
import io
import sys


class FakePort:
    """In-memory serial port: tests feed() host bytes and read back the board's frames."""

    def __init__(self):
        self.inbox = b""
        self.out = []

    def feed(self, data):
        self.inbox += data

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.out.append(data)

    def frames(self):
        import lightproto as lp

        got = [lp.parse(line) for line in self.out]
        self.out = []
        return got


def eq(got, want, what=""):
    if got != want:
        raise AssertionError("%s: got %r, want %r" % (what, got, want))


def run(globs):
    names = sorted([k for k in globs if k.startswith("test_")])
    passed = failed = 0
    for name in names:
        try:
            globs[name]()
        except Exception as exc:  # report every failure, keep going
            failed += 1
            print("FAIL %s: %r" % (name, exc))
            buf = io.StringIO()
            sys.print_exception(exc, buf)
            for line in buf.getvalue().split("\n"):
                print("| " + line)
        else:
            passed += 1
            print("PASS %s" % name)
    print("%d passed, %d failed" % (passed, failed))
