"""Config: embedded defaults, overlays, and a clear message for every bad value."""

from __future__ import annotations

import pytest

from companion import config
from companion.cli import main


def write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_defaults_are_complete_and_valid():
    cfg = config.defaults()
    assert cfg["display"]["driver"] == "ssd1309" and cfg["buttons"]["backend"] == "gpiozero"
    assert config.merge(config.defaults(), cfg, "defaults") == cfg


def test_a_file_overlays_only_the_keys_it_names(tmp_path):
    cfg = config.load(write(tmp_path, '[display]\ndriver = "ssd1306"\ncontrast = 80\n'))
    assert cfg["display"]["driver"] == "ssd1306" and cfg["display"]["contrast"] == 80
    assert cfg["display"]["rotate"] == 0 and cfg["buttons"]["backend"] == "gpiozero"
    assert cfg["camera"] == config.defaults()["camera"]


@pytest.mark.parametrize("text, words", [
    ('[display]\ndriver = "sdd1306"\n', ["[display] driver", "must be one of", "ssd1306"]),
    ("[display]\ncontrast = 300\n", ["[display] contrast", "from 0 to 255"]),
    ('[display]\ncontrast = "high"\n', ["[display] contrast", "write a number"]),
    ("[display]\nrotate = 1.5\n", ["[display] rotate", "whole number"]),
    ("[display]\nrotate = 1\n", ["[display] rotate", "landscape"]),
    ("[camera]\nfps = 0\n", ["[camera] fps", "from 1 to 60"]),
    ("[camera]\nsorce = 'opencv'\n", ["[camera] unknown key 'sorce'", "source"]),
    ("[lamps]\nport = ''\n", ["unknown section [lamps]", "lights"]),
    ("[daemon]\nnotify = 1\n", ["[daemon] notify", "true or false"]),
    ('[table]\nplayers = "Ana"\n', ["[table] players", "list of names"]),
    ('[table]\ntitle = "chess"\n', ["[table] title", "menu"]),
    ("[display\ndriver = 1\n", ["not valid TOML"]),
    ('[display]\npanel = "2.42in"\n', ["[display] panel", "ssd1309-2.42", "WIDTHxHEIGHT@PITCH"]),
    ('[display]\npanel = "64x16@0.4"\n', ["[display] panel", "96x64 to 512x256"]),
    ('[display]\ndriver = "ssd1322"\npanel = "ssd1309-2.42"\n',
     ["[display] panel = 'ssd1309-2.42' is 128x64", "ssd1322 drives 256x64",
      'panel = "ssd1322-3.12"']),
])
def test_bad_values_name_the_file_the_key_and_the_fix(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(config.ConfigError) as err:
        config.load(path)
    message = str(err.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_missing_explicit_file_is_an_error_but_a_missing_default_file_is_not(tmp_path,
                                                                             monkeypatch):
    with pytest.raises(config.ConfigError, match="no such config file"):
        config.load(tmp_path / "nope.toml")
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    assert config.load() == config.defaults()


def test_config_show_prints_the_effective_config_as_toml(tmp_path, capsys):
    path = write(tmp_path, '[camera]\nsource = "synthetic"\n')
    assert main(["config", "show", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert 'source = "synthetic"' in out and 'driver = "ssd1309"' in out
    import tomllib

    assert tomllib.loads(out)["camera"]["source"] == "synthetic"


def test_config_show_reports_a_bad_file_with_exit_2(tmp_path, capsys):
    path = write(tmp_path, "[display]\ncontrast = -1\n")
    assert main(["config", "show", "--config", str(path)]) == 2
    assert "[display] contrast" in capsys.readouterr().err


def test_the_delorean_zone_is_a_rectangle_in_tray_fractions(tmp_path):
    cfg = config.load(write(tmp_path, "[camera]\ndelorean_zone = [0.7, 0.0, 1.0, 0.4]\n"))
    assert cfg["camera"]["delorean_zone"] == [0.7, 0.0, 1.0, 0.4]
    for bad in ("[0.7, 0.0, 1.0]", "[0.9, 0.0, 0.5, 0.4]", "[0, 0, 2, 1]", '["a", 0, 1, 1]',
                "[false, 0, true, 1]"):
        with pytest.raises(config.ConfigError, match=r"\[camera\] delorean_zone"):
            config.load(write(tmp_path, f"[camera]\ndelorean_zone = {bad}\n"))


def test_the_nadir_is_a_point_of_the_frame_or_none(tmp_path):
    from companion.daemon import open_readers

    # the table's camera looks straight down at the frame's middle unless told otherwise
    assert open_readers(config.defaults())("d6").reader.nadir == (0.5, 0.5)
    cfg = config.load(write(tmp_path, "[camera]\nnadir = [0.4, 0.6]\n"))
    assert open_readers(cfg)("d6").reader.nadir == (0.4, 0.6)
    cfg = config.load(write(tmp_path, "[camera]\nnadir = []\n"))
    assert open_readers(cfg)("d6").reader.nadir is None
    for bad in ("[0.5]", "[0.5, 1.5]", '["a", 0.5]', "[true, 0.5]", "0.5"):
        with pytest.raises(config.ConfigError, match=r"\[camera\] nadir.*straight down"):
            config.load(write(tmp_path, f"[camera]\nnadir = {bad}\n"))


def test_the_daemon_sorts_dice_into_the_rolling_area_and_the_delorean_zone(tmp_path):
    from companion.daemon import open_readers
    from companion.vision.synth import SyntheticTray

    cfg = config.load(write(tmp_path, "[camera]\ndelorean_zone = [0.5, 0.0, 1.0, 1.0]\n"))
    watcher = open_readers(cfg)("outatime")
    image, truth = SyntheticTray("outatime", seed=4).render(n_dice=6)
    dice = watcher.reader.read(image)
    width = image.shape[1]
    for die in dice:
        assert die.zone == ("delorean" if die.x / width >= 0.5 else "tray")
    assert {d.zone for d in dice} <= {"tray", "delorean"}


def test_title_options_have_a_section_per_title_and_an_older_table_key_still_counts(tmp_path):
    cfg = config.defaults()
    assert cfg["outatime"] == {"first_roll_stalls": False}
    assert "first_roll_stalls" not in cfg["table"]
    new = config.load(write(tmp_path, "[outatime]\nfirst_roll_stalls = true\n"))
    old = config.load(write(tmp_path, "[table]\nfirst_roll_stalls = true\n"))
    assert config.title_options(new) == config.title_options(old)
    assert config.title_options(new)["outatime"] == {"first_roll_stalls": True}
    with pytest.raises(config.ConfigError, match=r"\[outatime\] first_roll_stalls"):
        config.load(write(tmp_path, "[outatime]\nfirst_roll_stalls = 3\n"))
    with pytest.raises(config.ConfigError, match=r"\[outatime\] unknown key 'first_rolls'"):
        config.load(write(tmp_path, "[outatime]\nfirst_rolls = true\n"))


@pytest.mark.parametrize("text, words", [
    ("[eras]\nhand = 0\n", r"\[eras\] hand = 0: .*from 1 to 12"),
    ("[eras]\nhand = 13\n", r"\[eras\] hand = 13: .*from 1 to 12"),
    ("[eras]\nrefill = [9, 9, 9]\n", r"\[eras\] refill = \[9, 9, 9\]: .*each 0 to 5"),
    ("[eras]\nrefill = [2, 1]\n", r"\[eras\] refill = \[2, 1\]: .*1955, 1985 and 2015"),
    ("[timeline]\nb1_cards = 7\n", r"\[timeline\] b1_cards = 7: .*B-1 stack"),
    ("[table]\nhand = -4\n", r"\[eras\] hand = -4: .*from 1 to 12"),
])
def test_a_title_option_out_of_its_range_is_refused_when_the_config_is_read(tmp_path, text,
                                                                             words):
    # The title's own check, as a new game makes it: refused at start, not at the table.
    with pytest.raises(config.ConfigError, match=words):
        config.load(write(tmp_path, text))


def test_title_options_in_their_range_are_kept(tmp_path):
    cfg = config.load(write(tmp_path, "[eras]\nhand = 7\nrefill = [0, 5, 3]\n"
                                      "[timeline]\nb1_cards = 2\n"))
    assert config.title_options(cfg)["eras"] == {"advanced": False, "hand": 7,
                                                 "refill": [0, 5, 3]}
    assert config.title_options(cfg)["timeline"] == {"b1_cards": 2}


@pytest.mark.parametrize("text, size, pitch", [
    ("", (128, 64), 0.43),  # the recommended 2.42" SSD1309, the default driver's own
    ('[display]\ndriver = "ssd1322"\n', (256, 64), 0.30),
    ('[display]\ndriver = "sh1106"\n', (128, 64), 0.23),
    ('[display]\ndriver = "ssd1327"\n', (128, 128), 0.21),
    ('[display]\ndriver = "terminal"\npanel = "256x64@0.30"\n', (256, 64), 0.30),
    ('[display]\ndriver = "recorder"\npanel = "ssd1327-1.5"\n', (128, 128), 0.21),
])
def test_the_display_panel_comes_from_the_driver_or_the_panel_setting(tmp_path, text, size,
                                                                      pitch):
    panel = config.display_panel(config.load(write(tmp_path, text)))
    assert panel.size == size and round(panel.pitch_mm, 2) == pitch


def test_run_draws_every_screen_for_the_configured_panel(tmp_path, companion_home):
    from PIL import Image

    from companion.display.draw import Panel, set_panel

    frames = tmp_path / "frames"
    path = write(tmp_path, '[table]\ntitle = "outatime"\npack = "demo"\n[camera]\n'
                 'source = "none"\n[display]\ndriver = "recorder"\npanel = "ssd1322-3.12"\n'
                 f'out = "{frames}"\n[buttons]\nbackend = "none"\n[lights]\nport = ""\n'
                 '[daemon]\nnotify = false\n')
    try:
        assert main(["run", "--config", str(path), "--seconds", "0.2"]) == 0
    finally:
        set_panel(Panel())
    shots = sorted(frames.glob("frame_*.png"))
    assert len(shots) >= 2 and {Image.open(f).size for f in shots} == {(256, 64)}


@pytest.mark.parametrize("key", ["[camera]\nprofile", "[camera]\npath", "[display]\nfont"])
def test_a_path_the_system_refuses_is_an_error_in_words_not_a_traceback(tmp_path, capsys, key):
    path = tmp_path / "c.toml"
    path.write_text(f'{key} = "{"a" * 5000}"\n')
    assert main(["config", "show", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "(5,00" in err and len(err) < 600


def test_a_config_path_the_system_refuses_is_an_error_in_words(tmp_path, capsys):
    assert main(["config", "show", "--config", str(tmp_path / ("a" * 5000))]) == 2
    err = capsys.readouterr().err
    assert "the system refuses this path" in err and len(err) < 600


@pytest.mark.parametrize("names", ['["A\\nna", "Ben"]', '["Ana", "  "]', '["Ana", "B\\u0007en"]'])
def test_a_player_name_on_two_lines_blank_or_with_control_characters_is_refused(tmp_path,
                                                                                names):
    with pytest.raises(config.ConfigError, match=r"\[table\] players = .*printable text"):
        config.load(write(tmp_path, f"[table]\nplayers = {names}\n"))


def test_config_show_prints_any_text_as_toml_that_reads_back_the_same(tmp_path):
    import tomllib

    text = '[display]\nout = "a\\nb\\u007fc\\"d\\\\e\\t"\n[table]\nplayers = ["Zoë", "Ben"]\n'
    cfg = config.load(write(tmp_path, text))
    shown = config.to_toml(cfg)
    assert 'out = "a\\nb\\u007fc\\"d\\\\e\\t"' in shown.splitlines()  # on one line
    assert tomllib.loads(shown) == cfg
