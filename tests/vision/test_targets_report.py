"""`companion bench vision-targets`: which domains each line pools, and MET / NOT per target."""

from __future__ import annotations

import companion.vision.targets as targets


def test_the_targets_pool_the_held_families_apart_and_say_which_are_met(monkeypatch) -> None:
    seen: dict[str, dict] = {
        "shoot-1": {"labelled_dice": 100, "die_accuracy": 1.0},
        "altered-shoot-1": {"labelled_dice": 100, "die_accuracy": 0.9},
        "turned-shoot-1": {"labelled_dice": 100, "die_accuracy": 0.8},
        "close-shoot-1": {"labelled_dice": 50, "die_accuracy": 0.7},
        "render-board": {"labelled_dice": 10, "die_accuracy": 0.5},
        "photo-dice-on-cards": {"labelled_dice": 30, "die_accuracy": 0.9},
        "render-wood": {"labelled_dice": 20, "die_accuracy": 0.95},
        "solid-wood": {"labelled_dice": 20, "die_accuracy": 0.6},
        "solid-stone": {"labelled_dice": 20, "die_accuracy": 0.4},
        "stress-board": {"labelled_dice": 50, "die_accuracy": 0.1}}
    scored: list[list[str]] = []

    def score(reader, dev, frames, seed=0, expect=False, names=None, progress=None,
              empty=False):
        scored.append(list(names))
        return {n: {**seen[n], "recall": 1.0, "precision": 1.0, "roll_accuracy": 1.0,
                    "images": 1} for n in names}

    monkeypatch.setattr(targets, "domains", lambda dev, frames, seed=0: dict.fromkeys(seen))
    monkeypatch.setattr(targets, "score_domains", score)
    monkeypatch.setattr(targets, "DiceReader", lambda *a, **k: None)
    titles: list[str] = []

    def title(set_name, frames, report):
        titles.append(set_name)
        report(f"{set_name} dice, unseen tables")
        return {f"{set_name}_unseen_die": 0.9}

    monkeypatch.setattr(targets, "title_scores", title)
    monkeypatch.setattr(targets, "symbols_profile_score",
                        lambda: {"die_accuracy": 1.0, "roll_accuracy": 1.0, "labelled_dice": 9})
    monkeypatch.setattr(targets, "dev_score",
                        lambda dev: {"die_accuracy": 0.99, "roll_accuracy": 0.9})
    monkeypatch.setattr(targets, "speed", lambda dev: {
        "images": 1, "side": 640, "reader_ms": 9.0, "reader_p90": 12.0, "reader_cpu_ms": 9.0,
        "classic_ms": 20.0, "classic_cpu_ms": 20.0, "pi5_ms_estimate": 22.5})
    lines: list[str] = []
    numbers = targets.measure("dev", 2, report=lines.append)
    # unseen = the held families only: (10 * 0.5 + 30 * 0.9) / 40
    assert numbers["unseen_die"] == 0.8 and numbers["unseen_dice"] == 40
    assert numbers["learned_die"] == 0.95 and numbers["altered_die"] == 0.9
    assert numbers["turned_die"] == 0.8 and numbers["close_die"] == 0.7
    # the cubes at a slant are pooled apart: neither the held nor the learned flat tables
    assert numbers["solid_held_die"] == 0.4 and numbers["solid_learned_die"] == 0.6
    assert "stress-board" not in scored[0] and "shoot-1" not in scored[0]
    # read again with the bare table known: the held families only
    assert scored[2] == scored[3] == ["render-board", "photo-dice-on-cards"]
    assert any(line.startswith("  with the table before the roll known") for line in lines)
    assert "MET  profile of 14 photos, unfamiliar symbols, per die: 1.0000 (target 0.995)" \
        in lines
    assert "NOT  dev photos, per die: 0.9900 (target 0.995)" in lines
    assert lines[-1].startswith("MET  speed: 9.0 ms")
    # every title's own dice are scored and reported beside the d6 reader's
    assert titles == list(targets.title_sets()) and titles
    assert all(numbers[f"{t}_unseen_die"] == 0.9 for t in titles)
    assert all(f"{t} dice, unseen tables" in lines for t in titles)


def test_a_title_s_scores_pool_its_dice_by_family_and_count_phantoms_on_bare_tables(
        monkeypatch) -> None:
    def summary(dice: int, die: float, phantoms: int = 0) -> dict:
        return {"labelled_dice": dice, "die_accuracy": die, "recall": 1.0, "precision": 1.0,
                "roll_accuracy": 1.0, "images": 4, "phantoms": phantoms}

    plain = {"render-board": summary(10, 0.5), "render-stone": summary(30, 0.9),
             "render-wood": summary(20, 0.8), "bare-board": summary(0, 0.0, phantoms=3),
             "bare-wood": summary(0, 0.0, phantoms=1)}
    calls: list[tuple] = []

    def score(reader, dev, frames, expect=False, names=None, **_):
        calls.append((expect, names))
        if not expect:
            return plain
        return {n: {**plain[n], "die_accuracy": 1.0} for n in names}

    monkeypatch.setattr(targets, "score_domains", score)
    monkeypatch.setattr(targets, "DiceReader", lambda *a, **k: None)
    lines: list[str] = []
    out = targets.title_scores("outatime", 2, lines.append)
    # held (board, stone) and learned (wood) tables pooled apart, by dice
    assert out["outatime_unseen_die"] == (10 * 0.5 + 30 * 0.9) / 40
    assert out["outatime_unseen_dice"] == 40 and out["outatime_learned_die"] == 0.8
    assert out["outatime_unseen_die_expect"] == 1.0
    # told the count only where dice lie: a bare table has no count to tell
    assert calls[1] == (True, ["render-board", "render-stone", "render-wood"])
    assert out["outatime_bare_held_phantoms"] == 3 and out["outatime_bare_learned_phantoms"] == 1
    assert any(line.startswith("outatime dice, unseen tables (40 dice)") for line in lines)
