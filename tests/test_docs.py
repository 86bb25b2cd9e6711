"""The documents say what the code does: examples in them run as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_outatime_worked_example_in_the_docs_is_the_file_and_replays(capsys):
    doc = (ROOT / "docs/titles/outatime.md").read_text()
    script = ROOT / "docs/titles/outatime-example.jsonl"
    assert script.read_text() in doc
    assert main(["replay", "--title", "outatime", str(script)]) == 0
    state = json.loads(capsys.readouterr().out)
    ana, ben = state["players"]
    assert (ana["cards_completed"], ben["cards_completed"]) == (2, 1)  # as the text tells
    assert state["turn"] == "Ben" and state["free_dice"] == 1
    assert state["odds"]["stall"] == 0.5
    assert abs(state["odds"]["expected_steps"] - 1 / 6) < 1e-12


def test_every_rules_decision_names_a_test_that_exists():
    notes = (ROOT / "docs/rules/outatime.md").read_text()
    tests = (ROOT / "tests/titles/outatime/test_rules.py").read_text()
    named = re.findall(r"`(test_[a-z0-9_]+)`", notes)
    assert len(named) >= 18
    missing = [name for name in named if f"def {name}(" not in tests]
    assert not missing


def test_readme_quick_start_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert len(commands) == 2
    assert commands[1] in (ROOT / ".ci/run").read_text()


def _toml_blocks() -> list[tuple[str, int, str]]:
    """(file, line, text) of every ```toml block in the README and the docs."""
    files = [ROOT / "README.md", ROOT / "hardware/README.md", ROOT / "firmware/README.md",
             *sorted((ROOT / "docs").rglob("*.md"))]
    out = []
    for path in files:
        text = path.read_text()
        for match in re.finditer(r"^```toml\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, match.start()) + 1
            out.append((str(path.relative_to(ROOT)), line, match.group(1)))
    return out


def test_every_config_block_in_the_docs_loads(tmp_path):
    """A config example a maker copies is accepted by the loader as it is written. Content
    packs (a [pack] table) are another kind of file and are checked by their titles."""
    from companion import config

    blocks = [b for b in _toml_blocks() if not re.search(r"^\[pack\]", b[2], re.M)]
    assert len(blocks) >= 4  # display, hardware, translating, vision
    failed = []
    for name, line, text in blocks:
        path = tmp_path / "config.toml"
        path.write_text(text)
        try:
            config.load(path)
        except config.ConfigError as exc:
            failed.append(f"{name}:{line}: {exc}")
    assert not failed, "\n".join(failed)


def test_every_pack_block_in_the_docs_is_toml():
    import tomllib

    packs = [b for b in _toml_blocks() if re.search(r"^\[pack\]", b[2], re.M)]
    assert packs
    for name, line, text in packs:
        body = re.sub(r"^\.\.\..*$", "", text, flags=re.M)  # an elision mark in an example
        assert tomllib.loads(body)["pack"], f"{name}:{line}"


@pytest.mark.parametrize("script", sorted(
    p.relative_to(ROOT).as_posix()
    for p in [*(ROOT / "calibration").glob("*.py"), *(ROOT / "scripts").glob("*.py")]))
def test_every_script_answers_help_without_training_libraries(script):
    # A maker reads --help before installing torch: it must print usage, not a traceback.
    out = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "usage:" in out.stdout and "Traceback" not in out.stderr


def test_export_features_names_a_missing_network():
    out = subprocess.run([sys.executable, "calibration/export_features.py", "no-such.onnx"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "no-such.onnx: no such face network" in out.stderr
