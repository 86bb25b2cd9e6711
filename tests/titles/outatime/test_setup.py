"""Setting up OUTATIME at the table: the presses the bench counts (companion bench engine)."""

from __future__ import annotations

import pytest

from companion.titles.outatime.bench import setup_presses


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_names_two_cards_a_player_each_a_kind_then_a_card(players):
    presses, confirms = setup_presses(players, seed=players)
    # the game, the players, then per player the Active and the Next card, each by its kind
    # and then the card: the other three dealt cards are not asked for at setup
    assert confirms == 2 + 4 * players
    assert presses >= confirms


def test_a_rematch_with_the_same_cards_is_three_presses_whatever_the_deal():
    # the game (the one played last), the players (everyone), SAME CARDS AS LAST GAME
    assert {setup_presses(4, seed, rematch=True) for seed in range(3)} == {(3, 3)}
