"""Huge or missing inputs to the dice reader are refused at the door, with a message: a small
file that decodes to gigabytes (a 20000x20000 PNG) is refused from its header, before any
pixel is decoded; a missing file is a usage error (exit code 2)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.sources import MAX_PIXELS, FileSource, FrameError, load_image

ROOT = Path(__file__).resolve().parents[2]


def bilevel_png(path: Path, width: int, height: int) -> Path:
    """A valid black 1-bit PNG, written row by row: a few KB on disk, width x height x 3
    bytes once OpenCV decodes it."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data)))

    pack = zlib.compressobj(9)
    row = b"\x00" * (1 + (width + 7) // 8)
    data = b"".join(pack.compress(row) for _ in range(height)) + pack.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)
                     + chunk(b"IEND", b""))
    return path


def test_a_decompression_bomb_is_refused_from_its_header(tmp_path):
    bomb = bilevel_png(tmp_path / "huge.png", 20000, 20000)
    assert bomb.stat().st_size < 1_000_000
    with pytest.raises(FrameError, match="400 megapixels is more than the dice reader reads"):
        load_image(bomb)
    wide = bilevel_png(tmp_path / "wide.png", 12000, 5000)  # 60 megapixels: Pillow opens it
    with pytest.raises(FrameError, match=r"12000x5000 pixels is more .* \(at most 50 mega"):
        load_image(wide)
    source = FileSource(bomb, wide)  # the camera's file source refuses them the same way
    for _ in range(2):
        with pytest.raises(FrameError, match="scale the photo down"):
            source.read()


def test_a_photo_below_the_limit_is_still_read(tmp_path):
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), np.full((3000, 4000, 3), 90, np.uint8))  # a 12-megapixel camera
    assert 4000 * 3000 < MAX_PIXELS and load_image(photo).shape == (3000, 4000, 3)


MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(done.returncode)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(done.stdout, end="")
"""


def test_companion_read_refuses_a_huge_image_without_using_gigabytes(tmp_path):
    bomb = bilevel_png(tmp_path / "huge.png", 20000, 20000)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, "-m", "companion",
                             "read", str(bomb)], capture_output=True, text=True, env=env,
                            timeout=300)
    code, max_rss_kb, line = result.stdout.split("\n", 2)
    assert int(code) == 1  # every image given failed
    assert "megapixels is more than the dice reader reads" in json.loads(line)["error"]
    assert int(max_rss_kb) < 400_000  # decoding it took 2.4 GB


def test_companion_read_on_a_missing_file_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 90, np.uint8))
    assert main(["read", str(photo), str(tmp_path / "nothere.jpg")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing read before the typo was said
    assert "no such file or folder" in captured.err and "nothere.jpg" in captured.err


@pytest.mark.parametrize("header", [
    b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 12000 +X 12000\n",
    b"PF\n12000 12000\n-1.0\n",
])
def test_a_format_only_opencv_reads_is_sized_from_its_header_before_decoding(tmp_path, header):
    """Radiance HDR and PFM: Pillow cannot tell their size; a few megabytes of run-length
    HDR decode to gigabytes, so the size comes from the text header."""
    path = tmp_path / "bomb.hdr"
    path.write_bytes(header + b"\x02\x02\x2e\xe0" * 64)
    with pytest.raises(FrameError, match="12000x12000 pixels is more than the dice reader"):
        load_image(path)
