"""Where the companion keeps its files.

Under systemd the unit's StateDirectory/ConfigurationDirectory are passed in the environment;
elsewhere the XDG base directories apply. ``COMPANION_HOME`` overrides both (tests, demos).
"""

from __future__ import annotations

import os
from pathlib import Path


def _base(env_systemd: str, env_xdg: str, default: str) -> Path:
    home = os.environ.get("COMPANION_HOME")
    if home:
        return Path(home)
    systemd = os.environ.get(env_systemd)
    if systemd:  # systemd may pass several colon-separated paths; the first is ours
        return Path(systemd.split(":")[0])
    xdg = os.environ.get(env_xdg)
    root = Path(xdg) if xdg else Path.home() / default
    return root / "companion"


def state_dir() -> Path:
    """Journal and other state that must survive restarts."""
    return _base("STATE_DIRECTORY", "XDG_STATE_HOME", ".local/state")


def config_dir() -> Path:
    """The TOML config and the owner's registered cards."""
    return _base("CONFIGURATION_DIRECTORY", "XDG_CONFIG_HOME", ".config")
