"""Reroll odds: exact enumeration checked against brute force, and when the hint is offered."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.bots import play, random_bot
from companion.content import demo_pack
from companion.titles.outatime import rules as outatime

FACES = ("flux", "2", "3", "4", "5", "88")
PATHS = [
    (),
    (2,),
    (3, 3),
    (5, 4, 3, 2),
    (2, 2, 2, 2),
    (4, 5, 4, 5, 4, 5),
    (3, 2, 5, 5, 2, 3, 4, 4),
]


def brute_force(n: int, path: tuple[int, ...]) -> tuple[float, float]:
    """Every one of the 6**n ordered rolls, equally likely."""
    stalls = 0
    steps = 0
    for roll in itertools.product(FACES, repeat=n):
        free = list(roll)
        gained = 0
        for need in path:  # numbers go on in order of need, as long as the roll has them
            if str(need) in free:
                free.remove(str(need))
                gained += 1
            else:
                break
        if gained == 0 and "flux" not in roll and "88" not in roll:
            stalls += 1
        steps += gained
    total = 6**n
    return stalls / total, steps / total


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("path", PATHS, ids=lambda p: "-".join(map(str, p)) or "empty")
def test_reroll_odds_equal_brute_force(n, path):
    stall, expected = outatime.reroll_odds(n, path)
    want_stall, want_expected = brute_force(n, path)
    assert stall == pytest.approx(want_stall, abs=1e-12)
    assert expected == pytest.approx(want_expected, abs=1e-12)


def test_reroll_odds_known_values():
    # one die, needing a 2: stalls on 3, 4 or 5 (flux and 88 can always go on)
    assert outatime.reroll_odds(1, (2,)) == pytest.approx((0.5, 1 / 6))
    # nothing needed: only flux or 88 saves the roll
    assert outatime.reroll_odds(2, ()) == pytest.approx(((4 / 6) ** 2, 0.0))
    # more dice never stall more often
    stalls = [outatime.reroll_odds(n, (3, 4, 2, 5, 5, 2))[0] for n in range(1, 7)]
    assert stalls == sorted(stalls, reverse=True)
    assert all(0 < s < 1 for s in stalls)


# --------------------------------------------------------------------------- odds(state)

NAMES = ["Ana", "Ben", "Cat"]


def game_in_place(roll: list[str], seed: int = 3) -> outatime.State:
    """A dealt game where Ana, first to play, has just rolled ``roll``."""
    rng = random.Random(seed)
    state = outatime.new_game(NAMES, {}, demo_pack("outatime"))
    while state.phase in ("deal", "choose"):
        if outatime.actor(state) == "chance":
            action = outatime.sample_chance(state, rng)
        else:
            action = outatime.legal_actions(state)[0]
        state, _ = outatime.apply(state, action)
    state, _ = outatime.apply(state, {"type": "roll", "dice": roll})
    assert state.phase == "place" and state.current.name == "Ana"
    return state


def path_of(state: outatime.State) -> tuple[int, ...]:
    p = state.current
    path = list(state.cards[p.active]["steps"][p.progress :])
    if p.next is not None:
        path += state.cards[p.next]["steps"]
    return tuple(path)


def test_no_odds_before_a_roll_or_right_after_it():
    state = game_in_place(["flux", "88", "88", "2", "3", "3"])
    assert outatime.odds(state) is None  # nothing locked since the roll: may not roll again
    assert outatime.view(state)["odds"] is None
    roll_phase, _ = outatime.apply(state, {"type": "lock", "dice": ["flux"]})
    roll_phase, _ = outatime.apply(roll_phase, {"type": "reroll"})
    assert roll_phase.phase == "roll"
    assert outatime.odds(roll_phase) is None


def test_no_odds_while_a_flux_is_still_free():
    state = game_in_place(["flux", "88", "88", "2", "3", "3"])
    state, _ = outatime.apply(state, {"type": "lock", "dice": ["88"]})
    assert "flux" in state.roll
    assert outatime.odds(state) is None  # the flux must go on before rolling again
    state, _ = outatime.apply(state, {"type": "lock", "dice": ["flux"]})
    assert outatime.odds(state) is not None


def test_odds_once_the_player_may_roll_again():
    state = game_in_place(["flux", "88", "88", "88", "88", "88"])
    state, _ = outatime.apply(state, {"type": "lock", "dice": ["flux"]})
    odds = outatime.odds(state)
    assert odds is not None
    assert {"type": "reroll"} in outatime.legal_actions(state)
    assert odds["free_dice"] == 5
    path = path_of(state)
    want_stall, want_steps = brute_force(5, path[:5])
    assert odds["stall"] == pytest.approx(want_stall)
    assert odds["expected_steps"] == pytest.approx(want_steps)
    assert odds["stall_loss"] == 1
    progress = state.current.progress
    assert odds["expected_net"] == pytest.approx(want_steps - want_stall * min(1, progress))
    assert outatime.view(state)["odds"] == odds


def test_no_odds_with_all_six_dice_on_the_delorean():
    rng = random.Random(11)
    seen_full = seen_odds = 0
    for _ in range(30):
        start = outatime.new_game(NAMES, {}, demo_pack("outatime"))
        for _, state, _ in play(outatime, start, rng, bot=random_bot):
            odds = outatime.odds(state)
            may_reroll = {"type": "reroll"} in outatime.legal_actions(state)
            assert (odds is not None) == may_reroll, outatime.to_json(state)
            if state.phase == "place" and state.free_dice == 0:
                seen_full += 1
                assert odds is None
            if odds is not None:
                seen_odds += 1
                assert odds["stall_loss"] == (2 if state.doubleback else 1)
                assert 0 <= odds["stall"] <= 1
    assert seen_full and seen_odds
