#!/usr/bin/env bash
# Try the Raspberry Pi install path (docs/pi-install.md) in an arm64 Debian bookworm root under
# qemu-user, on an x86 machine: apt's python3 3.11 and python3-numpy 1.24 as on Raspberry Pi OS
# Bookworm, a venv with --system-site-packages, `pip install` of this checkout with
# hardware/pi-constraints.txt, then imports: numpy must still be apt's 1.x and cv2 must load.
#
#   sudo scripts/pi-install-check.sh [ROOT]      ROOT defaults to /tmp/companion-arm64
#
# Needs root (chroot, mounts) and network. The first run builds the root with scripts/arm64-root
# (debootstrap and qemu-user-static), 9-20 minutes; later runs reuse it and take about 9 minutes
# (pip under emulation). Not part of the test suite: too slow.
#
# What it cannot check: Raspberry Pi's own apt repository (archive.raspberrypi.com) is not
# reachable from a plain Debian root, so python3-picamera2, python3-libcamera and python3-lgpio
# are absent here. The numpy<2 constraint is what keeps them working on the Pi; this script
# proves the constrained install keeps apt's numpy 1.x and that OpenCV runs on it. No GPIO, I2C
# or camera is emulated: gpiozero is exercised through its MockFactory only.
set -euo pipefail

ROOT=${1:-/tmp/companion-arm64}
REPO=$(cd "$(dirname "$0")/.." && pwd)
TOOL=$REPO/scripts/arm64-root
SRC=/opt/companion/src
VENV=/opt/companion/venv
t0=$(date +%s)
step() { printf '\n== %s (%ds)\n' "$*" "$(($(date +%s) - t0))"; }

[[ $(id -u) == 0 ]] || { echo "run as root (chroot and mounts)" >&2; exit 2; }

step "arm64 bookworm root at $ROOT (built once: 9-20 min)"
"$TOOL" build "$ROOT"

step "copy this checkout to $SRC"
rm -rf "$ROOT$SRC" "$ROOT$VENV"
mkdir -p "$ROOT$SRC"
tar -C "$REPO" --exclude=.git --exclude=.venv --exclude=__pycache__ --exclude='*.egg-info' \
  --exclude=.pytest_cache --exclude=.ruff_cache --exclude=.hypothesis --exclude=build \
  -cf - . | tar -C "$ROOT$SRC" -xf -

inside() { "$TOOL" run "$ROOT" "$@"; }

step "apt's Python and numpy (python3-picamera2 is not available here: Raspberry Pi's repository)"
inside python3 -c 'import sys, numpy, platform; print(platform.machine(), "python", sys.version.split()[0], "apt numpy", numpy.__version__, numpy.__file__)'

step "venv with --system-site-packages, as on the Pi"
inside python3 -m venv --system-site-packages "$VENV"
inside "$VENV/bin/pip" --version

step "what pip would pick WITHOUT the constraints (dry run, for comparison)"
inside "$VENV/bin/pip" install --dry-run --quiet --report /tmp/unconstrained.json "$SRC" >/dev/null 2>&1 \
  && inside python3 -c 'import json; r = json.load(open("/tmp/unconstrained.json")); print(" ".join(sorted(i["metadata"]["name"] + "==" + i["metadata"]["version"] for i in r["install"] if i["metadata"]["name"].lower() in ("numpy", "opencv-python-headless"))))' \
  || echo "(dry run failed; not needed for the check)"

step "pip install with hardware/pi-constraints.txt"
inside "$VENV/bin/pip" install --quiet --no-cache-dir -c "$SRC/hardware/pi-constraints.txt" "$SRC"

step "imports and versions in the venv"
inside env COMPANION_PINS="$SRC/hardware/pins.toml" "$VENV/bin/python" -c '
import platform, sys
import numpy, cv2, PIL, gpiozero, serial, sdnotify, luma.oled.device
import companion, companion.pins
from importlib.metadata import version
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

print("machine", platform.machine(), "python", sys.version.split()[0])
print("numpy", numpy.__version__, "from", numpy.__file__)
print("opencv", cv2.__version__, "(opencv-python-headless", version("opencv-python-headless") + ")")
print("pillow", PIL.__version__, "gpiozero", version("gpiozero"), "luma.oled", version("luma.oled"),
      "pyserial", serial.__version__, "companion", version("companion"))
assert numpy.__version__.startswith("1."), "numpy 2 in the venv would break apt picamera2"
assert numpy.__file__.startswith("/usr/lib/python3/dist-packages/"), "numpy is not apt numpy"
img = numpy.zeros((64, 64, 3), numpy.uint8)
cv2.circle(img, (32, 32), 10, (255, 255, 255), -1)
gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
contours = cv2.findContours(gray, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
assert len(contours) == 1, "cv2 did not find the test blob"
pins = companion.pins.load()
factory = MockFactory(revision="d04170")
button = Button(pins.gpio_name("confirm"), pin_factory=factory)
factory.pin(pins.gpio_name("confirm")).drive_low()
assert button.is_pressed
print("cv2 works on numpy", numpy.__version__, "| pin map", pins.buttons.as_dict(), "| gpiozero mock OK")
'

step "the dice reader's networks run through this OpenCV (finder and d6 faces on a rendered tray)"
inside "$VENV/bin/python" -c '
from companion.vision import DiceReader, SyntheticTray
image, truth = SyntheticTray("d6", seed=3).render(n_dice=5, touching=0.0)
reader = DiceReader("d6")
dice = reader.read(image)
print("finder", "network" if reader.finder else "geometry", "| read", sorted(d.face for d in dice),
      "| true", sorted(t.face for t in truth))
assert reader.finder is not None, "the dice finder network did not load"
assert sorted(d.face for d in dice) == sorted(t.face for t in truth), "misread a rendered tray"
'

step "the companion command runs"
inside "$VENV/bin/companion" --help | head -3

step "OK: Pi install path works on arm64 bookworm with apt numpy 1.x"
