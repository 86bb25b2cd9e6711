# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# The board's link logic end to end inside MicroPython: frames in, LEDs/buzzer/frames out.
import config
import lightproto as lp
import machine
import neopixel
from board import build
from mptest import FakePort, eq, run

N = config.RING_LEDS
M = config.MAX_LEVEL


def lv(x):
    return x * M // 255


def make(now=0):
    port = FakePort()
    board = build(config, port, now)
    return port, board, neopixel.instances[-1]


class Host:
    """Encodes frames like the host does, with its own sequence counter."""

    def __init__(self, port, board):
        self.port, self.board, self.seq = port, board, 100

    def send(self, cmd, args=(), now=0, seq=None):
        if seq is None:
            seq, self.seq = self.seq, self.seq + 1
        self.port.feed(lp.encode(seq, cmd, args))
        self.board.step(now)
        return seq


def test_boot_says_hello_and_lights_tray():
    port, board, np = make()
    eq(port.frames(), [(0, "HELLO", ["1", config.FIRMWARE_VERSION, str(N), "enc,buzz"])])
    board.step(0)
    eq(np.shown, [(lv(config.FALLBACK_LEVEL),) * 3] * N)


def test_hello_handshake():
    port, board, np = make()
    port.frames()
    seq = Host(port, board).send("HELLO", ("1",))
    eq(
        [f[1:] for f in port.frames()],
        [("ACK", [str(seq)]), ("HELLO", ["1", config.FIRMWARE_VERSION, str(N), "enc,buzz"])],
    )


def test_hello_wrong_version_is_refused():
    port, board, np = make()
    port.frames()
    seq = Host(port, board).send("HELLO", ("2",))
    eq([f[1:] for f in port.frames()], [("NAK", [str(seq), "version"])])
    port.feed(b"V2 9 HELLO 2 *0000\n")
    board.step(0)
    eq([f[1:] for f in port.frames()], [("NAK", ["9", "version"])])


def test_every_command_acks_and_shows():
    port, board, np = make()
    host = Host(port, board)
    port.frames()
    s = host.send("STEADY", ("100",), now=0)
    eq(np.shown, [(lv(100),) * 3] * N, "STEADY 100")
    host.send("OFF", now=10)
    eq(np.shown, [(0, 0, 0)] * N, "OFF")
    host.send("STEADY", now=20)
    eq(np.shown, [(lv(config.STEADY_LEVEL),) * 3] * N, "STEADY default")
    host.send("TURN", ("00ff00",), now=30)
    eq(board.ring.mode, "turn")
    if np.shown[0][1] == 0 or np.shown[0][0] != 0:
        raise AssertionError("turn colour not green: %r" % (np.shown[0],))
    host.send("EFFECT", ("paradox",), now=40)
    eq(np.shown[0], (lv(255), 0, 0), "paradox red half")
    host.send("PING", now=50)
    acks = port.frames()
    eq([f[1] for f in acks], ["ACK"] * 6)
    eq([int(f[2][0]) for f in acks], list(range(s, s + 6)), "ACKs name each frame")


def test_board_sequence_numbers_count_up():
    port, board, np = make()
    host = Host(port, board)
    for _ in range(5):
        host.send("PING")
    seqs = [f[0] for f in port.frames()]
    eq(seqs, list(range(6)))


def test_buzz_and_effect_sounds_drive_pwm():
    port, board, np = make()
    host = Host(port, board)
    pwm = board.buzzer.pwm
    host.send("BUZZ", ("440", "100"), now=0)
    eq((pwm.freq(), pwm.duty_u16()), (440, 32768), "tone on")
    board.step(99)
    eq(pwm.duty_u16(), 32768)
    board.step(100)
    eq(pwm.duty_u16(), 0, "tone off after 100 ms")
    host.send("EFFECT", ("win",), now=200)
    eq(pwm.freq(), 523, "win jingle starts")


def test_bad_checksum_is_naked_and_ignored():
    port, board, np = make()
    board.step(0)
    port.frames()
    line = bytearray(lp.encode(5, "OFF"))
    line[-3] = ord("0") if line[-3] != ord("0") else ord("1")
    port.feed(bytes(line))
    board.step(1)
    eq([f[1:] for f in port.frames()], [("NAK", ["-", "crc"])])
    eq(board.ring.mode, "steady", "light unchanged")
    eq(board.host_alive, False, "a corrupt frame is no sign of life")


def test_unknown_and_bad_args():
    port, board, np = make()
    host = Host(port, board)
    port.frames()
    a = host.send("DANCE")
    b = host.send("STEADY", ("999",))
    c = host.send("EFFECT", ("disco",))
    eq(
        [f[1:] for f in port.frames()],
        [
            ("NAK", [str(a), "unknown"]),
            ("NAK", [str(b), "bad-args"]),
            ("NAK", [str(c), "bad-args"]),
        ],
    )


def test_garbage_then_good_frame():
    port, board, np = make()
    port.frames()
    port.feed(b"\x00\xff\x03hello\r\n" + b"Z" * 400 + b"\n\n" + b"V1 x\n")
    board.step(0)
    reasons = [f[2][1] for f in port.frames()]
    eq(reasons, ["not-ascii", "too-long", "syntax"], "blank line ignored")
    Host(port, board).send("OFF", now=5)
    eq(port.frames()[0][1], "ACK")
    eq(board.ring.mode, "off")


def test_its_own_frames_echoed_back_are_never_answered():
    # A terminal on the port (cat /dev/ttyACM0) echoes what the board says: answering its own
    # HELLO or NAK with a NAK would echo back for ever.
    port, board, np = make()
    said = port.frames()
    for seq, cmd, args in said + [(5, "NAK", ["3", "unknown"]), (6, "ACK", ["3"]),
                                  (7, "KEY", ["confirm"])]:
        port.feed(lp.encode(seq, cmd, args))
    port.feed(b"MicroPython v1.22 on 2024-01-01; Raspberry Pi Pico\r\n")  # not a frame
    board.step(0)
    eq(port.frames(), [], "nothing answered")
    Host(port, board).send("OFF", now=5)
    eq(port.frames()[0][1], "ACK", "still listening")


def test_random_bytes_only_get_naks():
    port, board, np = make()
    board.step(0)
    port.frames()
    x = 88172645
    for t in range(1, 200):
        chunk = bytearray()
        for _ in range(50):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            chunk.append(x & 0xFF)
        port.feed(bytes(chunk))
        board.step(t)
    kinds = set([f[1] for f in port.frames()])
    if not kinds <= set(["NAK"]):
        raise AssertionError("answered garbage with %r" % (kinds,))
    eq(board.ring.mode, "steady", "garbage changed nothing")
    port.feed(b"\n")  # the last garbage line may be longer than a line may be
    Host(port, board).send("OFF", now=300)
    eq(port.frames()[-1][1], "ACK", "still listening")


def test_noise_in_front_of_a_frame_does_not_cost_the_frame():
    port, board, np = make()
    port.frames()
    port.feed(b"\x00\x7fjunk" + lp.encode(3, "OFF"))
    board.step(0)
    eq([f[1:] for f in port.frames()], [("ACK", ["3"])])
    eq(board.ring.mode, "off")


def test_resent_frame_acked_but_not_redone():
    port, board, np = make()
    host = Host(port, board)
    seq = host.send("EFFECT", ("win",), now=0)
    started = board.ring.effect_start
    port.frames()
    host.send("EFFECT", ("win",), now=500, seq=seq)
    eq([f[1:] for f in port.frames()], [("ACK", [str(seq)])])
    eq(board.ring.effect_start, started, "effect not restarted")


def test_silent_host_falls_back_to_steady():
    port, board, np = make()
    host = Host(port, board)
    host.send("TURN", ("ff0000",), now=0)
    host.send("PING", now=2500)
    board.step(5000)
    eq(board.ring.mode, "turn", "PING kept it alive")
    port.frames()
    board.step(5501)
    eq(board.ring.mode, "steady")
    eq(np.shown, [(lv(config.FALLBACK_LEVEL),) * 3] * N)
    eq([f[1:] for f in port.frames()], [("FALLBACK", ["silence"])])
    board.step(9000)
    eq(port.frames(), [], "FALLBACK sent once")
    host.send("TURN", ("00ff00",), now=9100)
    eq(board.ring.mode, "turn", "host back: obeyed again")


def test_no_fallback_event_before_host_ever_spoke():
    port, board, np = make()
    port.frames()
    board.step(60000)
    eq(port.frames(), [])


def test_encoder_and_button_send_keys():
    port, board, np = make()
    port.frames()
    t = 0
    for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):
        machine.set_pin(config.ENC_A_PIN, a)
        machine.set_pin(config.ENC_B_PIN, b)
        t += 2
        board.step(t)
    for a, b in ((1, 0), (0, 0), (0, 1), (1, 1)):
        machine.set_pin(config.ENC_A_PIN, a)
        machine.set_pin(config.ENC_B_PIN, b)
        t += 2
        board.step(t)
    machine.set_pin(config.ENC_SW_PIN, 0)
    for _ in range(10):
        t += 10
        board.step(t)
    machine.set_pin(config.ENC_SW_PIN, 1)
    for _ in range(10):
        t += 10
        board.step(t)
    eq([f[1:] for f in port.frames()], [("KEY", ["next"]), ("KEY", ["prev"]), ("KEY", ["confirm"])])


def test_sequence_wraps():
    port, board, np = make()
    board.seq = 65535
    board.send("PING")
    board.send("PING")
    eq([f[0] for f in port.frames()[1:]], [65535, 0])


def test_failing_command_is_reported_not_fatal():
    port, board, np = make()
    host = Host(port, board)
    port.frames()

    def boom(colour, now):
        raise RuntimeError("bug")

    board.ring.turn = boom
    seq = host.send("TURN", ("ff0000",))
    eq([f[1:] for f in port.frames()], [("NAK", [str(seq), "internal"])])
    host.send("PING")
    eq(port.frames()[0][1], "ACK")


def test_write_errors_do_not_stop_the_board():
    port, board, np = make()

    def broken(data):
        raise OSError(5)

    port.write = broken
    Host(port, board).send("OFF")
    eq(board.ring.mode, "off")


run(globals())
