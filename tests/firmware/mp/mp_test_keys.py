# Encoder and push-switch decoding against fake pins.
import machine
from keys import Button, Encoder
from mptest import eq, run

A, B, SW = 30, 31, 32


def pins():
    machine.set_pin(A, 1)
    machine.set_pin(B, 1)
    machine.set_pin(SW, 1)
    return machine.Pin(A), machine.Pin(B), machine.Pin(SW)


# Gray code as the knob turns one detent clockwise, starting from the rest state 11.
CW = ((0, 1), (0, 0), (1, 0), (1, 1))
CCW = ((1, 0), (0, 0), (0, 1), (1, 1))


def turn(enc, seq):
    out = []
    for a, b in seq:
        machine.set_pin(A, a)
        machine.set_pin(B, b)
        k = enc.poll()
        if k:
            out.append(k)
    return out


def test_one_detent_each_way():
    a, b, _ = pins()
    enc = Encoder(a, b, 4)
    eq(turn(enc, CW), ["next"])
    eq(turn(enc, CCW), ["prev"])
    eq(turn(enc, CW + CW + CW), ["next", "next", "next"])


def test_reverse():
    a, b, _ = pins()
    enc = Encoder(a, b, 4, reverse=True)
    eq(turn(enc, CW), ["prev"])


def test_half_turn_and_jitter_give_nothing():
    a, b, _ = pins()
    enc = Encoder(a, b, 4)
    eq(turn(enc, CW[:2]), [], "half a detent")
    eq(turn(enc, ((0, 1), (1, 1)) * 5), [], "back and forth on one edge")


def test_two_step_encoder():
    a, b, _ = pins()
    enc = Encoder(a, b, 2)
    eq(turn(enc, CW), ["next", "next"])


def test_short_press_is_confirm_on_release():
    _, _, sw = pins()
    btn = Button(sw, 25, 800, now=0)
    machine.set_pin(SW, 0)
    eq([btn.poll(t) for t in range(0, 100, 5)], [None] * 20)
    machine.set_pin(SW, 1)
    got = [k for k in [btn.poll(t) for t in range(100, 200, 5)] if k]
    eq(got, ["confirm"])


def test_bounce_shorter_than_debounce_is_ignored():
    _, _, sw = pins()
    btn = Button(sw, 25, 800, now=0)
    got = []
    for t in range(0, 200, 2):
        machine.set_pin(SW, (t // 4) % 2 if t < 20 else 1)  # 20 ms of chatter, then released
        k = btn.poll(t)
        if k:
            got.append(k)
    eq(got, [])


def test_long_press_is_hold_once_and_no_confirm():
    _, _, sw = pins()
    btn = Button(sw, 25, 800, now=0)
    machine.set_pin(SW, 0)
    got = [k for k in [btn.poll(t) for t in range(0, 2000, 10)] if k]
    machine.set_pin(SW, 1)
    got += [k for k in [btn.poll(t) for t in range(2000, 2100, 10)] if k]
    eq(got, ["hold"])


def test_button_down_at_boot_does_not_fire():
    _, _, sw = pins()
    machine.set_pin(SW, 0)
    btn = Button(sw, 25, 800, now=0)
    got = [k for k in [btn.poll(t) for t in range(0, 2000, 10)] if k]
    machine.set_pin(SW, 1)
    got += [k for k in [btn.poll(t) for t in range(2000, 2100, 10)] if k]
    eq(got, [])


run(globals())
