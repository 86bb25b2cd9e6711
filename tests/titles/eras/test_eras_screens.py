"""The era game's screens: what follows an action, in order and merged; the running scores; the
final score with its breakdown; every screen on the panel and readable across the table."""

from __future__ import annotations

import random

import pytest

from companion.content import demo_pack
from companion.display.draw import Panel, readability_problems, text_boxes, using
from companion.link.lightproto import EFFECTS as RING
from companion.session import Prompt
from companion.titles.api import CHANCE, TERMINAL
from companion.titles.eras import bots, rules, screens

PACK = demo_pack("eras")


def words(image) -> list[str]:
    return [text for text, _box in text_boxes(image)]


def kind(name: str) -> str:
    parts = name.split("_")
    return "_".join(parts[:-1]) if len(parts) > 1 and parts[-1].isdigit() else name


def table_game(players: int, seed: int, advanced: bool = False):
    """(view, effects, screens) after each action of a bot game recorded as at the table."""
    names = ["Ana", "Ben", "Clara", "Dmitri", "Esmeralda", "Fitzgerald"][:players]
    sim = rules.new_game(names, {"advanced": advanced}, PACK)
    seen = rules.new_game(names, {"advanced": advanced}, PACK)
    rng = random.Random(seed)
    while rules.actor(seen) != TERMINAL:
        if rules.actor(sim) == TERMINAL:  # the ripple cards turned up and added
            who = seen.pending[0]["player"]
            action = {"type": "tally", "vp": rules.score(sim, sim.player(who))["ripple"]}
        else:
            action = (rules.sample_chance(sim, rng) if rules.actor(sim) == CHANCE
                      else bots.bot(rules, sim, rng))
            table_action = bots.at_the_table(action, sim)
            sim, _ = rules.apply(sim, action)
            action = table_action
        seen, effects = rules.apply(seen, action)
        view = rules.view(seen)
        yield view, effects, screens.named_screens_for(view, effects)


@pytest.mark.parametrize("players,seed,advanced", [(2, 1, True), (6, 2, False)])
def test_every_screen_after_an_action_is_read_across_the_table(players, seed, advanced):
    shown = set()
    for _view, _effects, named in table_game(players, seed, advanced):
        for name, image in named:
            assert kind(name) in screens.TABLE_SCREENS, name
            assert not readability_problems(image), (name, readability_problems(image))
            for text, (x0, y0, x1, y1) in text_boxes(image):
                assert 0 <= x0 and 0 <= y0 and x1 <= 128 and y1 <= 64, (name, text)
            shown.add(kind(name))
    assert {"turn", "scores", "play", "discard", "ripple", "final", "win"} <= shown


@pytest.mark.parametrize("panel", [Panel(128, 128), Panel(256, 64)])
def test_screens_lay_out_by_the_panel_they_are_drawn_for(panel):
    with using(panel):
        images = screens.catalogue()
        for _view, _effects, named in table_game(3, 5):
            images += named
    for name, image in images:
        assert image.size == (panel.width, panel.height), name
        for text, (x0, y0, x1, y1) in text_boxes(image):
            assert 0 <= x0 and 0 <= y0 and x1 <= panel.width and y1 <= panel.height, (name, text)


def test_a_turn_shows_the_running_scores_then_whose_turn_and_the_delorean():
    view = screens.sample_view(4)
    effects = [{"kind": "turn", "player": "Ben", "role": "doc", "era": "1985", "text": "-"}]
    named = screens.named_screens_for(view, effects)
    assert [n for n, _ in named] == ["scores", "turn"]
    assert words(named[0][1]) == ["SCORES", "Ana", "2", "Ben", "5", "Clara", "8", "Dmitri",
                                  "11"]
    assert words(named[1][1]) == ["BEN", "plays Doc", "DeLorean: 1985"]
    few, = screens.scores(screens.sample_view(3))  # up to three players: big rows, one screen
    assert words(few) == ["ANA", "2", "BEN", "5", "CLARA", "8"]


def test_a_payment_and_its_ripple_cards_are_merged():
    face = {"role": "marty", "era": "1955", "power": 2, "clocks": 1, "vp": 3}
    effects = [
        {"kind": "discard", "player": "Ana", "cards": ["a"], "faces": [face], "text": "-"},
        {"kind": "discard", "player": "Ana", "cards": ["b"],
         "faces": [{**face, "era": "any"}], "text": "-"},
        {"kind": "ripple", "player": "Ana", "count": 1, "text": "-"},
        {"kind": "ripple", "player": "Ana", "count": 1, "text": "-"},
        {"kind": "placed", "player": "Ana", "card": "c", "era": "1955", "face": face,
         "text": "-"},
    ]
    named = screens.named_screens_for(screens.sample_view(2), effects)
    assert [n for n, _ in named] == ["discard_1", "discard_2", "ripple", "placed"]
    assert words(named[0][1]) == ["ANA", "DISCARD", "Marty 55 P2 T1 VP3", "Marty any era"]
    assert words(named[1][1]) == ["ANA", "DISCARD", "P2 T1 VP3"]  # a wide card on two lines
    assert words(named[2][1]) == ["ANA", "RIPPLE", "2 cards face down"]


def test_a_round_end_and_the_next_round_are_one_screen():
    effects = [{"kind": "round_end", "text": "-"},
               {"kind": "start_player", "player": "Ben", "text": "-"},
               {"kind": "round", "round": 2, "player": "Ben", "text": "-"}]
    (name, image), = screens.named_screens_for(screens.sample_view(2), effects)
    assert name == "round"
    assert words(image) == ["ROUND 2", "return the role tiles", "Ben chooses first"]


def test_the_final_score_shows_each_breakdown_best_first_then_the_winner():
    def score(total, tokens, cards, ripple, clocks, events):
        return {"total": total, "tokens": tokens, "cards": cards, "ripple": ripple,
                "clocks": clocks, "events": events}

    effects = [{"kind": "score", "player": "Ana", "score": score(20, 10, 5, 4, 1, 2), "text": "-"},
               {"kind": "score", "player": "Ben", "score": score(25, 12, 6, 5, 2, 3), "text": "-"},
               {"kind": "score", "player": "Cy", "score": score(25, 9, 9, 5, 2, 2), "text": "-"},
               {"kind": "win", "winners": ["Ben"], "total": 25, "text": "-"}]
    named = screens.named_screens_for(screens.sample_view(3), effects)
    assert [n for n, _ in named] == ["final", "final", "final", "win_1", "win_2"]
    assert words(named[0][1]) == ["1. BEN", "25 VP", "tokens 12 cards 6", "ripple 5 clocks 2"]
    assert words(named[1][1])[0] == "1. CY"  # the same total: the same place
    assert words(named[2][1])[:2] == ["3. ANA", "20 VP"]
    assert words(named[3][1]) == ["BEN", "WINS!", "25 VP"]
    assert words(named[4][1])[0] == "TIE"
    assert " ".join(words(named[4][1])[1:]) == "most events completed wins the tie"


def test_a_shared_victory_names_every_winner():
    image = screens.winner(["Ana", "Ben"], 31)[0]
    assert words(image) == ["ANA & BEN", "WIN!", "31 VP"]


def test_the_prompt_when_the_game_is_over_is_the_winner():
    view = {"winners": ["Ana"], "players": [{"name": "Ana", "score": {"total": 30}},
                                            {"name": "Ben", "score": {"total": 20}}]}
    image = screens.prompt_screen(Prompt("over", "Ana WINS!"), view, None)
    assert words(image) == ["ANA", "WINS!", "30 VP"]
    assert screens.prompt_screen(Prompt("menu", "ANA - 1985"), view, None) is None


def test_light_effects_are_ones_the_ring_knows():
    assert set(screens.LIGHT_EFFECTS.values()) <= set(RING)
    assert screens.LIGHT_EFFECTS["ripple"] == "ripple" and screens.LIGHT_EFFECTS["win"] == "win"


def test_an_effect_the_screens_do_not_know_is_shown_in_its_own_words():
    (name, image), = screens.named_screens_for({}, [{"kind": "mystery", "text": "flux"}])
    assert name == "mystery" and words(image) == ["MYSTERY", "flux"]
    assert not readability_problems(image)


def test_a_main_line_on_two_lines_with_nothing_below_is_one_screen():
    (image,) = screens.board("BIG DANCE NIGHT", "NEW 1955 EVENT")
    assert words(image) == ["NEW 1955 EVENT", "BIG DANCE", "NIGHT"]
    assert not readability_problems(image)
    pages = screens.board("BIG DANCE NIGHT", "NEW 1955 EVENT", ["needs George"])
    assert [words(p) for p in pages] == [["NEW 1955 EVENT", "BIG DANCE", "NIGHT"],
                                         ["NEW 1955 EVENT", "BIG DANCE .", "needs George"]]


def test_the_winner_keeps_every_name_and_its_bolts_on_the_panel_and_says_what_to_press():
    for panel in (Panel(128, 64), Panel(256, 64), Panel(128, 128)):
        with using(panel):
            alone = screens.winner(["Marty"], 26)[0]
            tie = screens.prompt_screen(
                Prompt("over", "WIN!", ["CONFIRM: new game"]),
                {"winners": ["Esmeralda", "Fitzgerald"],
                 "players": [{"score": {"total": 26}}]}, None)
        right_edge = [alone.getpixel((alone.width - 1, y)) for y in range(alone.height)]
        assert not any(right_edge), panel  # the right bolt is whole, not cut by the edge
        said = " ".join(text for text, _box in text_boxes(tie)).upper()
        assert "ESMERALDA" in said and "FITZGERALD" in said, said  # no name lost to a tie
        assert "CONFIRM: NEW GAME" in said
        for _text, (x0, y0, x1, y1) in text_boxes(tie):
            assert 0 <= x0 and 0 <= y0 and x1 <= tie.width and y1 <= tie.height
