"""Backends: dummy, recorder, terminal, a missing or unplugged I2C panel, the config, the CLI."""

from __future__ import annotations

import io

import pytest
from luma.core.device import dummy
from PIL import Image

from companion.cli import main
from companion.display import backends as b
from companion.display import screens as s


def test_dummy_backend_holds_the_last_frame():
    with b.open_display({"backend": "dummy"}) as d:
        img = s.notice("Ana", "ROLL!")
        assert d.show(img) is True
        assert d.device.image.tobytes() == img.tobytes()


def test_terminal_halfblock_and_braille_sizes():
    img = s.boot()
    half = b.to_text(img, "halfblock", border=False).splitlines()
    assert len(half) == 32 and all(len(line) == 128 for line in half)
    braille = b.to_text(img, "braille", border=False).splitlines()
    assert len(braille) == 16 and all(len(line) == 64 for line in braille)
    framed = b.to_text(img).splitlines()
    assert len(framed) == 34 and all(len(line) == 130 for line in framed)
    assert set("".join(half)) > {" "}  # something is drawn


def test_terminal_pixels_match_the_image():
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)  # top half of the first character
    img.putpixel((1, 1), 1)  # bottom half of the second
    row = b.to_text(img, border=False).splitlines()[0]
    assert row[:3] == "\u2580\u2584 "


def test_terminal_backend_writes_and_redraws_in_place():
    out = io.StringIO()
    d = b.open_display({"backend": "terminal"}, stream=out)
    assert d.show(s.notice("Ana", "ROLL!")) and d.show(s.notice("Ben", "ROLL!"))
    assert out.getvalue().count("\u250c") == 2
    live = b.TerminalDisplay(io.StringIO(), in_place=True)
    live.show(s.notice("Ana", "ROLL!"))
    live.show(s.notice("Ben", "ROLL!"))
    assert "\x1b[34F" in live.stream.getvalue()


def test_recorder_writes_pngs_and_a_gif(tmp_path):
    d = b.open_display({"backend": "recorder", "out": str(tmp_path / "rec"), "scale": 2})
    frames = [s.notice("PARADOX!", f"ANA +{n}") for n in range(4)]
    for f in frames:
        assert d.show(f)
    d.close()
    pngs = sorted((tmp_path / "rec").glob("frame_*.png"))
    assert len(pngs) == len(frames)
    assert Image.open(pngs[0]).size == (256, 128)
    gif = Image.open(tmp_path / "rec" / "screens.gif")
    assert gif.n_frames == len(frames)


def test_missing_i2c_bus_gives_a_clear_error(monkeypatch):
    monkeypatch.setattr(b, "I2C_DEVICE", "/nonexistent/i2c-{port}")
    with pytest.raises(b.DisplayUnavailable) as err:
        b.open_display({"backend": "ssd1306"})
    message = str(err.value)
    assert "ssd1306" in message and "/nonexistent/i2c-1" in message and "raspi-config" in message


def test_absent_panel_falls_back(monkeypatch):
    monkeypatch.setattr(b, "I2C_DEVICE", "/nonexistent/i2c-{port}")
    d = b.open_display({"backend": "sh1106", "fallback": "dummy"})
    assert isinstance(d, b.DummyDisplay)


def test_luma_error_on_open_becomes_display_unavailable():
    def factory():
        raise OSError(121, "Remote I/O error")

    with pytest.raises(b.DisplayUnavailable, match="0x3c.*i2cdetect"):
        b.LumaDisplay("ssd1306", device_factory=factory)


class FlakyPanel:
    """A luma dummy device whose I2C writes fail while ``plugged`` is False."""

    def __init__(self, state):
        self.state = state
        self.inner = dummy(width=128, height=64, mode="1")
        self.mode, self.size = self.inner.mode, self.inner.size
        self.width, self.height = self.inner.width, self.inner.height

    def contrast(self, level):
        self.state["contrast"] = level

    def display(self, image):
        if not self.state["plugged"]:
            raise OSError(121, "Remote I/O error")
        self.inner.display(image)
        self.state["shown"] += 1

    def cleanup(self):
        pass


def test_unplugged_panel_reports_failure_and_recovers():
    state = {"plugged": True, "shown": 0, "opened": 0}

    def factory():
        state["opened"] += 1
        if not state["plugged"]:
            raise OSError(121, "Remote I/O error")
        return FlakyPanel(state)

    d = b.open_display({"backend": "ssd1306", "contrast": 128, "device_factory": factory})
    assert state["contrast"] == 128
    assert d.show(s.notice("Ana", "ROLL!")) is True
    state["plugged"] = False
    assert d.show(s.notice("Ben", "ROLL!")) is False
    assert "Remote I/O" in d.last_error
    assert d.show(s.notice("Ben", "ROLL!")) is False  # still gone: reconnecting fails quietly
    state["plugged"] = True
    assert d.show(s.notice("Clara", "ROLL!")) is True
    assert d.last_error is None and state["shown"] == 2 and state["opened"] == 3


@pytest.mark.parametrize(
    "config,words",
    [
        ({"backend": "hologram"}, "hologram"),
        ({"backend": "ssd1306", "contrast": 300}, "contrast"),
        ({"backend": "ssd1306", "address": "sixty"}, "address"),
        ({"backend": "dummy", "rotation": 1}, "rotation"),
        ({"backend": "recorder"}, "out"),
    ],
)
def test_bad_config_is_named(config, words):
    with pytest.raises(b.DisplayConfigError, match=words):
        b.open_display(config)


def test_address_may_be_written_in_hex(monkeypatch):
    seen = {}

    def factory():
        return FlakyPanel({"plugged": True, "shown": 0})

    d = b.open_display({"backend": "sh1106", "address": "0x3D", "device_factory": factory})
    seen["address"] = d.address
    assert seen["address"] == 0x3D


def test_screens_command_writes_every_screen(tmp_path, capsys):
    out = tmp_path / "screens"
    assert main(["screens", "--title", "outatime", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    files = sorted(out.glob("*.png"))
    assert len(printed) == len(files) > 60
    names = {f.stem for f in files}
    for expected in (
        "boot",
        "players_2_0",
        "players_6_1",
        "roll_unknown",
        "paradox_0",
        "paradox_3",
        "stall_0",
        "stall_3",
        "menu_target",
        "face_picker",
        "winner",
        "odds",
        "instruction_left",
        "ripple_0",
        "lock",
        "refusal_0",
        "error_1",
    ):
        assert expected in names
    assert Image.open(files[0]).size == (128, 64)
