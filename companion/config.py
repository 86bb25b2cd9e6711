"""The daemon's configuration: TOML with embedded defaults, checked key by key.

The effective config is the defaults below, overlaid by ``<config dir>/config.toml`` (or the
file given with ``--config``). ``companion config show`` prints it. A bad value is refused with
a message naming the file, the key, what was wrong and what to write instead.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from companion import i18n, toml_text
from companion.i18n import N_, _
from companion.paths import config_dir
from companion.replay import kind_of, same_kind, shorten

DEFAULTS_TOML = """\
# companion config: every key with its default. Copy the keys you change into config.toml.

[table]
title = "menu"            # "menu" (chosen at the table), or a title key (companion --help)
players = ["Ana", "Ben", "Cy", "Dee"]   # seating order, first player first
pack = "owner"            # "owner" (your registered cards), "demo", or a pack TOML path
                          # (a relative path is read from this file's folder)
language = ""             # "fr", "ja", ...: the words on the OLED and in messages; "" = the
                          # locale's (LANGUAGE/LANG), else English. COMPANION_LANG overrides it

[camera]
source = "picamera2"      # picamera2 | opencv | files | synthetic | none (synthetic: a
                          # rendered tray that rolls when the game expects a roll)
device = 0                # OpenCV camera index (source = "opencv")
path = ""                 # image file, folder or video (source = "files")
width = 1280
height = 720
fps = 8                   # frames looked at per second while dice may move
profile = ""              # dice profile JSON from `companion calibrate dice`; "" = built-in faces
markers = false           # true: find the printed tray markers (calibration/) and read top-down
delorean_zone = []        # [x0, y0, x1, y1], 0..1 of the tray (or frame): where the DeLorean
                          # card lies; [] = the camera sees only the rolling area
nadir = [0.5, 0.5]        # [x, y], 0..1 of the frame: where the camera looks straight down.
                          # Dice away from it show their sides, and their tops further out;
                          # [] = a camera at a slant, whose frame's up is the table's far side

[display]
driver = "ssd1309"        # ssd1309 | ssd1306 | sh1106 (128x64), ssd1322 (256x64, SPI),
                          # ssd1327 | sh1107 (128x128) | terminal | recorder | dummy | none
                          # (its bus, address or SPI pins come from the pin map, pins.toml)
panel = ""                # the panel the screens are drawn for: ssd1309-2.42 | sh1106-1.3 |
                          # ssd1306-0.96 | ssd1322-3.12 | ssd1327-1.5 | sh1107-1.12, or
                          # "WIDTHxHEIGHT@PITCH" (mm a pixel); "" = the driver's own (the
                          # recommended 2.42" for terminal, recorder and dummy)
rotate = 0                # 0, or 2 for a panel mounted upside down
contrast = 255            # 0-255
out = ""                  # folder for driver = "recorder" (every frame as PNG, and a GIF)
font = ""                 # a TrueType file for the words; "" = the built-in font (English
                          # letters only: set one for another language, docs/translating.md)

[buttons]
backend = "gpiozero"      # gpiozero | keyboard | none
bounce_ms = 40
hold_s = 0.8              # a press this long is a long press (menu, undo, redo)

[lights]
port = "/dev/companion-lights"   # the Pico's serial port; "" for no light board

[journal]
backup = ""               # the rolling backup's file; "" = beside the journal (docs/journal.md)
backup_minutes = 10       # a backup this often while actions are recorded, and at every game's
                          # end; 0 = only at the end of each game

[daemon]
notify = true             # systemd READY/WATCHDOG when run by systemd
"""

CHOICES = {
    ("camera", "source"): ("picamera2", "opencv", "files", "synthetic", "none"),
    ("display", "driver"): ("ssd1309", "ssd1306", "sh1106", "ssd1322", "ssd1327", "sh1107",
                            "terminal", "recorder", "dummy", "none"),
    ("buttons", "backend"): ("gpiozero", "keyboard", "none"),
}
RANGES = {
    ("camera", "width"): (64, 4608),
    ("camera", "height"): (48, 2592),
    ("camera", "fps"): (1, 60),
    ("camera", "device"): (0, 63),
    ("display", "rotate"): (0, 2),
    ("display", "contrast"): (0, 255),
    ("buttons", "bounce_ms"): (0, 500),
    ("buttons", "hold_s"): (0.2, 5.0),
    ("journal", "backup_minutes"): (0, 1440),
}


MAX_CONFIG_BYTES = 1 << 20  # every key with a comment is 3 KB

#: ``[table] pack`` values that name a pack rather than give its file.
PACK_NAMES = ("owner", "demo")


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file, key and fix."""


def defaults() -> dict[str, Any]:
    """Every key with its default: the sections above, and a section per title with options
    (``[<title key>]``, each option as the title declares it; see docs/rules/<title>.md)."""
    config = tomllib.loads(DEFAULTS_TOML)
    for key, options in _title_options().items():
        config[key] = dict(options)
    return config


def _title_options() -> dict[str, dict[str, Any]]:
    from companion import titles

    return {key: dict(titles.get(key).facts.options) for key in titles.keys()
            if titles.get(key).facts.options}


def title_options(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each title's options as the config sets them (title key -> options)."""
    return {key: dict(config.get(key, {})) for key in _title_options()}


# The panel each driver usually drives (``[display] panel = ""``).
DRIVER_PANEL = {
    "ssd1309": "ssd1309-2.42",
    "ssd1306": "ssd1306-0.96",
    "sh1106": "sh1106-1.3",
    "ssd1322": "ssd1322-3.12",
    "ssd1327": "ssd1327-1.5",
    "sh1107": "sh1107-1.12",
}


def display_panel(config: dict[str, Any], where: str = "config") -> Any:
    """The ``Panel`` the config's ``[display]`` says the screens are drawn for; ConfigError
    when a panel driver is given a panel of another size."""
    from companion.display.backends import DRIVER_SIZES
    from companion.display.draw import PANELS, parse_panel

    d = config["display"]
    driver = d["driver"]
    name = d["panel"] or DRIVER_PANEL.get(driver, "ssd1309-2.42")
    try:
        chosen = parse_panel(name) if d["panel"] else PANELS[name]
    except ValueError as exc:
        raise ConfigError(_("{where}: [display] panel: {reason}").format(
            where=where, reason=exc)) from exc
    size = DRIVER_SIZES.get(driver)
    if size and chosen.size != size:
        raise ConfigError(_("{where}: {setting} is {size}, but the {driver} drives {wanted} "
                            "panels: write {fix}, or the driver of your panel").format(
            where=where, setting=f"[display] panel = {name!r}",
            size=f"{chosen.width}x{chosen.height}", driver=driver,
            wanted="x".join(map(str, size)), fix=f'panel = "{DRIVER_PANEL[driver]}"'))
    return chosen


def default_path() -> Path:
    return config_dir() / "config.toml"


def _kind(path: Path) -> str:
    """"file", "dir", "missing", "other" (a device, a pipe) or "bad": a path the system
    refuses to look at (too long, a NUL in it), which pathlib raises for rather than says."""
    try:
        if not path.exists():
            return "missing"
        return "file" if path.is_file() else "dir" if path.is_dir() else "other"
    except (OSError, ValueError):
        return "bad"


BAD_PATH = N_("{path}: the system refuses this path (too long, or a character it cannot "
              "hold); write a shorter path")


def described(path: str | None) -> str:
    """Where the effective config comes from, in words: a file only when there is one."""
    where = Path(path) if path else default_path()
    if _kind(where) not in ("missing", "bad"):
        return _("effective config: defaults overlaid by {path}").format(path=where)
    return _("effective config: the defaults ({path} does not exist; write the keys you "
             "change there)").format(path=where)


def load(path: str | Path | None = None) -> dict[str, Any]:
    """The effective config: defaults overlaid by the file (which may be absent if not given)."""
    explicit = path is not None
    path = Path(path) if explicit else default_path()
    config = defaults()
    kind = _kind(path)
    if kind == "bad":
        raise ConfigError(_(BAD_PATH).format(path=shorten(str(path))))
    if kind == "missing":
        if explicit:
            raise ConfigError(_("{path}: no such config file").format(path=path))
        return config
    if not path.is_file():
        raise ConfigError(_("{path}: not a config file (a config is a TOML text file of a few "
                            "KB); give the path of one").format(path=path))
    try:
        user = tomllib.loads(toml_text.read(path, MAX_CONFIG_BYTES))
    except toml_text.TextFileError as exc:  # too big, or not UTF-8 (the line and column)
        raise ConfigError(_("{path}: {reason}").format(path=path, reason=exc)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_("{path}: not valid TOML ({reason}); fix the syntax").format(
            path=path, reason=exc)) from exc
    except RecursionError as exc:
        raise ConfigError(_("{path}: not valid TOML (nested too deeply); fix the syntax").format(
            path=path)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(_("{path}: cannot read ({reason})").format(path=path,
                                                                     reason=exc)) from exc
    merged = merge(config, user, str(path))
    pack = merged["table"]["pack"]
    merged["table"]["pack"] = pack_path(pack, path)
    _check_pack(f"{path}: [table] pack = {shorten(repr(pack))}", pack, merged["table"]["pack"])
    display_panel(merged, str(path))  # a driver and a panel of different sizes: say so now
    if merged["camera"]["source"] == "files" and not merged["camera"]["path"]:
        raise ConfigError(_("{where}: [camera] source = \"files\" reads the images of "
                            "[camera] path: write it, e.g. {example}").format(
            where=path, example='path = "/home/pi/rolls"'))
    names = merged["table"]["players"]
    if len(set(names)) != len(names):
        raise ConfigError(_("{where}: [table] players: each name once (the table tells players "
                            "apart by name)").format(where=path))
    return merged


def pack_path(pack: str, config_file: Path) -> str:
    """``[table] pack`` with a relative path made absolute: relative to the config file's
    folder (``/etc/companion`` for the service, whatever its working directory), as a path in
    a file is read everywhere else. "owner" and "demo" are names, not paths; write
    ``"./owner"`` for a pack file of that name.

    >>> pack_path("packs/mine.toml", Path("/etc/companion/config.toml"))
    '/etc/companion/packs/mine.toml'
    >>> pack_path("/srv/mine.toml", Path("config.toml")), pack_path("demo", Path("c.toml"))
    ('/srv/mine.toml', 'demo')
    """
    if pack in PACK_NAMES or not pack.strip():
        return pack
    try:
        given = Path(pack).expanduser()  # "~/packs/mine.toml": the companion user's home
    except RuntimeError:  # "~nobody-known/...": no such home, read as written
        given = Path(pack)
    return str(config_file.absolute().parent / given)


def merge(config: dict[str, Any], user: dict[str, Any], where: str) -> dict[str, Any]:
    """Overlay ``user`` on ``config`` after checking every key and value."""
    out = {section: dict(values) for section, values in config.items()}
    for section, values in user.items():
        if section not in out:
            raise ConfigError(
                _("{where}: unknown section {section}; known: {known}").format(
                    where=where, section=f"[{section}]", known=", ".join(sorted(out)))
            )
        if not isinstance(values, dict):
            raise ConfigError(_("{where}: {section} must be a table of keys").format(
                where=where, section=f"[{section}]"))
        for key, value in values.items():
            owners = [k for k, opts in _title_options().items() if key in opts]
            if section == "table" and key not in out[section] and owners:
                # An older file sets a title's option in [table]: it is that title's.
                for owner in owners:
                    out[owner][key] = check(owner, key, value, out[owner][key], where)
                continue
            if key not in out[section]:
                known = ", ".join(sorted(out[section]))
                raise ConfigError(_("{where}: {section} unknown key {key}; known: {known}").format(
                    where=where, section=f"[{section}]", key=repr(key), known=known))
            out[section][key] = check(section, key, value, out[section][key], where)
    return out


def check(section: str, key: str, value: Any, default: Any, where: str) -> Any:
    name = f"{where}: [{section}] {key}"
    if section in _title_options():
        return _check_title_option(section, name, key, value, default)
    setting = f"{name} = {shorten(repr(value))}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(_("{setting}: write true or false").format(setting=setting))
    elif isinstance(default, (int, float)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(_("{setting}: write a number, e.g. {example}").format(
                setting=setting, example=f"{key} = {default}"))
        if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, float):
            raise ConfigError(_("{setting}: write a whole number, e.g. {example}").format(
                setting=setting, example=default))
        if (section, key) == ("display", "rotate") and value not in (0, 2):
            raise ConfigError(_("{setting}: write 0, or 2 for a panel mounted upside down (the "
                                "screens are landscape: a quarter turn does not fit them)")
                              .format(setting=setting))
        low, high = RANGES.get((section, key), (float("-inf"), float("inf")))
        if not low <= value <= high:
            raise ConfigError(_("{setting}: must be from {low} to {high}").format(
                setting=setting, low=low, high=high))
    elif (section, key) == ("camera", "delorean_zone"):
        ok = isinstance(value, list) and (value == [] or (
            len(value) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                    and 0 <= v <= 1 for v in value)
            and value[0] < value[2] and value[1] < value[3]))
        if not ok:
            raise ConfigError(_("{setting}: write {zone} with {x_range} and {y_range}, or [] for "
                                "no zone").format(setting=setting, zone="[x0, y0, x1, y1]",
                                                  x_range="0 <= x0 < x1 <= 1",
                                                  y_range="0 <= y0 < y1 <= 1"))
    elif (section, key) == ("camera", "nadir"):
        ok = isinstance(value, list) and (value == [] or (
            len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                    and 0 <= v <= 1 for v in value)))
        if not ok:
            raise ConfigError(_("{setting}: write {point} with {x_range} and {y_range} (where "
                                "the camera looks straight down; [0.5, 0.5] for a camera above "
                                "the tray's middle), or [] for a camera at a slant").format(
                setting=setting, point="[x, y]", x_range="0 <= x <= 1", y_range="0 <= y <= 1"))
    elif isinstance(default, list):
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ConfigError(_("{setting}: write a list of names, e.g. {example}").format(
                setting=name, example='["Ana", "Ben"]'))
        if section == "table" and key == "players" and not all(
                v.strip() and v.isprintable() for v in value):
            raise ConfigError(_("{setting}: each name is printable text on one line, not blank "
                                "(the screens show it), e.g. {example}").format(
                setting=f"{name} = {shorten(repr(value))}", example='["Ana", "Ben"]'))
        if section == "table" and key == "players" and not 1 <= len(value) <= 6:
            raise ConfigError(_("{setting}: 1 to 6 names (the title decides how many can play)")
                              .format(setting=name))
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(_("{setting}: write text in quotes, e.g. {example}").format(
                setting=setting, example=f'"{default}"'))
        if "\x00" in value:  # no path, port or name holds one; the system refuses it later
            raise ConfigError(_("{setting}: holds a NUL character (\\u0000); write the text "
                                "without it").format(setting=setting))
        choices = CHOICES.get((section, key))
        if choices and value not in choices:
            raise ConfigError(_("{setting}: must be one of {choices}").format(
                setting=setting, choices=", ".join(choices)))
        if (section, key) == ("table", "pack"):
            _check_pack(setting, value)
        if section == "table" and key == "title":
            from companion.titles import keys

            if value not in ("menu", *keys()):
                raise ConfigError(_("{setting}: must be {menu} or one of {keys}").format(
                    setting=setting, menu='"menu"', keys=keys()))
        if (section, key) == ("display", "font") and value:
            _check_font(setting, value)
        if (section, key) == ("display", "panel") and value:
            from companion.display.draw import parse_panel

            try:
                parse_panel(value)
            except ValueError as exc:
                raise ConfigError(_("{setting}: {reason}").format(
                    setting=name, reason=exc)) from exc
        if (section, key) in (("camera", "profile"), ("camera", "path")) and value:
            kind = _kind(Path(value))
            if kind == "bad":
                raise ConfigError(_(BAD_PATH).format(path=setting))
            if kind == "other" or (kind == "dir" and key != "path"):
                raise ConfigError(_("{setting}: not a file (a device or a pipe); write the path "
                                    "of a file").format(setting=setting))
        if section == "table" and key == "language" and value and not i18n.available(value):
            raise ConfigError(
                _("{setting}: no catalogue for that language (there are: {languages}); write "
                  "one of those, or \"\" for the locale's. docs/translating.md tells how to add "
                  "a language.").format(setting=setting, languages=", ".join(i18n.languages())))
    return value


def _check_title_option(title: str, name: str, key: str, value: Any, default: Any) -> Any:
    """A title's option has its default's type and is in the range its title allows (the
    title's own ``check_options``, which a new game calls too)."""
    from companion import titles
    from companion.titles.api import RuleError

    setting = f"{name} = {shorten(repr(value))}"
    if not same_kind(value, default):  # the same rule as a replay's setup line
        example = to_toml({"x": {key: default}}).splitlines()[1]
        raise ConfigError(_("{setting}: write {kind}, e.g. {example}").format(
            setting=setting, kind=kind_of(default), example=example))
    try:
        titles.get(title).rules.check_options({key: value})
    except RuleError as exc:
        raise ConfigError(_("{setting}: {reason}").format(setting=setting, reason=exc)) from None
    return value


PACK_FIX = N_('write "owner" (your registered cards), "demo", or the path of a pack TOML file '
              "(a relative path is read from the config file's folder)")


def _check_pack(setting: str, value: str, resolved: str | None = None) -> None:
    """``[table] pack``: a name ("owner", "demo") or the path of a pack TOML; an empty path, a
    folder or a device can serve no title. ``resolved``: the path as :func:`pack_path` made it
    (its file is looked at only then: a relative path is not the current directory's)."""
    if not value.strip():
        raise ConfigError(_("{setting}: empty; {fix}").format(setting=setting, fix=_(PACK_FIX)))
    if resolved is None or value in PACK_NAMES:
        return
    kind = _kind(Path(resolved))
    if kind == "bad":
        raise ConfigError(_(BAD_PATH).format(path=setting))
    if kind in ("dir", "other"):
        raise ConfigError(_("{setting}: {path} is not a file (a folder, a device or a pipe); "
                            "{fix}").format(setting=setting, path=resolved, fix=_(PACK_FIX)))


def _check_font(setting: str, path: str) -> None:
    from PIL import ImageFont

    if _kind(Path(path)) != "file":
        raise ConfigError(_("{setting}: no such font file; write the path of a TrueType font "
                            "(.ttf, .otf), or \"\" for the built-in one").format(setting=setting))
    try:
        ImageFont.truetype(path, 10)
    except OSError as exc:
        raise ConfigError(_("{setting}: not a font Pillow can read ({reason})").format(
            setting=setting, reason=exc)) from exc


def to_toml(config: dict[str, Any]) -> str:
    """The config as TOML text (what `companion config show` prints)."""
    lines = []
    for section, values in config.items():
        lines.append(f"[{section}]")
        for key, value in values.items():
            lines.append(f"{key} = {_value(section, key, value)}")
        lines.append("")
    return "\n".join(lines)


def _value(section: str, key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(section, key, v) for v in value) + "]"
    return toml_text.quoted(value)


def register(commands, bench_commands) -> None:
    p = commands.add_parser("config", help=_("the daemon's configuration"))
    sub = p.add_subparsers(dest="config_command", metavar="ACTION")
    sub.required = True
    show = sub.add_parser("show", help=_("print the effective config (defaults + your file)"))
    show.add_argument("--config", help=_("config file (default: {path})").format(
        path=default_path()))
    show.set_defaults(handler=_cmd_show)


def _cmd_show(args) -> int:
    from companion.cli import UserError

    try:
        cfg = load(args.config)
    except ConfigError as exc:
        raise UserError(str(exc)) from exc
    print("# " + described(args.config))
    print(to_toml(cfg), end="")
    return 0
