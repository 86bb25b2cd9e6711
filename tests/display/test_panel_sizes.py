"""Every panel size the config accepts draws every title's screens; a lower one is refused."""

from __future__ import annotations

import pytest

from companion import titles
from companion.display.cli import title_screens
from companion.display.draw import parse_panel, using


@pytest.mark.parametrize("size", [(96, 64), (512, 64), (96, 256), (512, 256)])
def test_every_title_draws_its_screens_on_the_corners_of_the_accepted_sizes(size):
    width, height = size
    panel = parse_panel(f"{width}x{height}@0.3")
    for key in titles.keys():
        with using(panel):
            shown = title_screens(key)
        assert shown and all(image.size == size for _name, image in shown), key


@pytest.mark.parametrize("text", ["128x32@0.17", "96x32@0.05", "256x48@0.3"])
def test_a_panel_too_low_for_the_screens_is_refused_saying_what_to_use(text):
    with pytest.raises(ValueError, match="too low for the screens: use a 128x64 panel"):
        parse_panel(text)
