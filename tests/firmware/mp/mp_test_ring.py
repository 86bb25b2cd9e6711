# ruff: noqa: UP031 - %-formatting on purpose: this file also runs under MicroPython
# What each ring command and effect puts into the (fake) NeoPixel buffer.
from mptest import eq, run
from neopixel import NeoPixel
from ring import DURATIONS, TURN_PERIOD, Ring

N = 16
BLACK = (0, 0, 0)


def make(max_level=255, rgbw=False):
    np = NeoPixel(None, N, bpp=4 if rgbw else 3)
    return np, Ring(np, N, max_level, rgbw, frame_ms=20)


def test_boots_dark_until_first_update_then_steady():
    np, ring = make()
    eq(np.writes, 0)
    ring.steady(200)
    eq(ring.update(0), True)
    eq(np.shown, [(200, 200, 200)] * N)


def test_steady_is_written_once_not_every_loop():
    np, ring = make()
    ring.steady(90)
    ring.update(0)
    for t in range(1, 500, 7):
        ring.update(t)
    eq(np.writes, 1, "steady light never flickers from rewrites")
    eq(np.shown, [(90, 90, 90)] * N)


def test_max_level_scales_everything():
    np, ring = make(max_level=128)
    ring.steady(255)
    ring.update(0)
    eq(np.shown[0], (128, 128, 128))


def test_rgbw_steady_uses_white_led_only():
    np, ring = make(rgbw=True)
    ring.steady(100)
    ring.update(0)
    eq(np.shown, [(0, 0, 0, 100)] * N)
    ring.turn((255, 0, 0), 0)
    ring.update(1000)
    eq(np.shown[0][3], 0, "colours stay on the RGB dies")


def test_off():
    np, ring = make()
    ring.steady(200)
    ring.update(0)
    ring.off()
    ring.update(1)
    eq(np.shown, [BLACK] * N)
    eq(ring.mode, "off")


def test_turn_breathes_in_the_colour():
    np, ring = make()
    ring.turn((0, 200, 100), 1000)
    ring.update(1000)
    eq(np.shown[0], (0, 200 * 77 // 255, 100 * 77 // 255), "starts dim")
    ring.update(1000 + TURN_PERIOD // 2)
    eq(np.shown, [(0, 200, 100)] * N, "full colour at mid-breath")
    eq(ring.mode, "turn")


def test_animation_is_rate_limited():
    np, ring = make()
    ring.turn((255, 0, 0), 0)
    for t in range(0, 1000):
        ring.update(t)
    # 1000 ms at one frame per 20 ms
    if not 45 <= np.writes <= 51:
        raise AssertionError("writes %d" % np.writes)


def test_stall_blinks_amber_then_returns_to_base():
    np, ring = make()
    ring.steady(50)
    ring.start_effect("stall", None, 0)
    ring.update(0)
    eq(np.shown, [(255, 110, 0)] * N, "on")
    eq(ring.mode, "effect:stall")
    ring.update(160)
    eq(np.shown, [BLACK] * N, "off between blinks")
    ring.update(DURATIONS["stall"] + 1)
    eq(np.shown, [(50, 50, 50)] * N, "back to steady")
    eq(ring.mode, "steady")


def test_ripple_runs_from_led_zero_round_both_sides():
    np, ring = make()
    ring.steady(0)
    ring.start_effect("ripple", None, 0)
    ring.update(0)
    eq(np.shown[0], (0, 140, 255), "starts at LED 0")
    eq(np.shown[N // 2], BLACK, "opposite side still dark")
    ring.update(260)
    # symmetric: LED i and LED N-i match
    for i in range(1, N // 2):
        eq(np.shown[i], np.shown[N - i], "LED %d" % i)
    lit = [i for i in range(N) if np.shown[i] != BLACK]
    if 0 in lit:
        raise AssertionError("wave should have left LED 0: %r" % lit)


def test_paradox_swaps_halves_between_red_and_white():
    np, ring = make()
    ring.start_effect("paradox", None, 0)
    ring.update(0)
    eq(np.shown[0], (255, 0, 0))
    eq(np.shown[N - 1], (255, 255, 255))
    ring.update(100)
    eq(np.shown[0], (255, 255, 255))
    eq(np.shown[N - 1], (255, 0, 0))


def test_win_spins_a_rainbow_and_ends_in_colour_then_turn():
    np, ring = make()
    ring.turn((0, 0, 255), 0)
    ring.start_effect("win", (255, 200, 0), 0)
    ring.update(0)
    distinct = len(set(np.shown))
    if distinct < N // 2:
        raise AssertionError("rainbow has %d colours" % distinct)
    ring.update(DURATIONS["win"] - 100)
    eq(np.shown, [(255, 200, 0)] * N, "ends on the effect colour")
    ring.update(DURATIONS["win"] + 5)
    eq(ring.mode, "turn", "base mode survives an effect")


def test_effect_colour_override():
    np, ring = make()
    ring.start_effect("stall", (1, 2, 3), 0)
    ring.update(0)
    eq(np.shown[5], (1, 2, 3))


def test_new_base_cancels_effect():
    np, ring = make()
    ring.start_effect("win", None, 0)
    ring.update(0)
    ring.steady(10)
    ring.update(1)
    eq(np.shown, [(10, 10, 10)] * N)


run(globals())
