"""Hostile texture files (issue 21), made in the test: PostScript, a pipe, a folder, a device,
a decompression bomb, an oversized file, mutated bytes; 16-bit grey and palette PNGs decode to
their real colours; each file is decoded once per run; past the budget is a diagnostic."""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from kzplayer.render import textures
from kzplayer.render.textures import read_image
from tests.hostile import kzplayer

POSTSCRIPT = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 8 8\n(/etc/passwd) (r) file pop\n{ } loop\n"


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb(width: int, height: int) -> bytes:
    """A PNG of a few KB that claims width x height grey pixels (all zero)."""
    raw = zlib.compress(b"\0" * (width + 1) * min(height, 64), 9)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + png_chunk(b"IDAT", raw) + png_chunk(b"IEND", b""))


@pytest.fixture(autouse=True)
def _fresh_cache():
    textures._decoded.clear()
    textures._sizes.clear()


def test_postscript_is_not_an_image_whatever_its_name(tmp_path):
    for name in ("smoke.png", "smoke.eps"):
        (tmp_path / name).write_bytes(POSTSCRIPT)
        with pytest.raises(ValueError, match="not a PNG or JPEG"):
            read_image(tmp_path / name)


def test_a_gif_or_bmp_is_refused_by_its_signature(tmp_path):
    Image.new("RGB", (4, 4)).save(tmp_path / "x.png", format="BMP")
    with pytest.raises(ValueError, match="not a PNG or JPEG"):
        read_image(tmp_path / "x.png")


def test_special_files_are_refused_before_they_are_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.png")            # opening it to read would block for ever
    (tmp_path / "folder.png").mkdir()
    for path in (tmp_path / "pipe.png", tmp_path / "folder.png", Path("/dev/zero")):
        with pytest.raises(ValueError, match="not a file"):
            read_image(path)


def test_a_file_past_the_size_limit_is_refused_unread(tmp_path):
    sparse = tmp_path / "huge.png"
    with open(sparse, "wb") as f:               # 4.5 GiB, nothing on disk
        f.write(b"\x89PNG\r\n\x1a\n")
        f.truncate(9 << 29)
    with pytest.raises(ValueError, match="MiB, more than"):
        read_image(sparse)


def test_a_decompression_bomb_is_refused_before_it_is_decoded(tmp_path):
    for w, h in ((100_000, 100_000), (8192, 8193), (20_000, 20)):
        (tmp_path / "bomb.png").write_bytes(bomb(w, h))
        textures._sizes.clear()
        with pytest.raises(ValueError, match="larger than an image may be"):
            read_image(tmp_path / "bomb.png")


def test_16_bit_grey_is_scaled_not_drawn_white(tmp_path):
    grey = np.array([[0, 16384, 32768, 65535]], np.uint16)
    Image.fromarray(grey).save(tmp_path / "g16.png")
    assert Image.open(tmp_path / "g16.png").mode.startswith("I")
    rgba = read_image(tmp_path / "g16.png")
    assert rgba[0, :, 0].tolist() == [0, 64, 128, 255]
    assert (rgba[0, :, 0] == rgba[0, :, 2]).all() and (rgba[..., 3] == 255).all()


def test_a_palette_png_keeps_its_colours_and_transparency(tmp_path):
    img = Image.new("P", (2, 1))
    img.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    img.putpixel((0, 0), 0)
    img.putpixel((1, 0), 1)
    img.save(tmp_path / "p.png", transparency=1)
    assert read_image(tmp_path / "p.png").tolist() == [[[255, 0, 0, 255], [0, 0, 255, 0]]]


def test_a_texture_is_decoded_once_however_often_it_is_named(tmp_path, monkeypatch):
    Image.new("RGBA", (8, 8), (1, 2, 3, 4)).save(tmp_path / "t.png")
    calls = []
    real = textures._decode
    monkeypatch.setattr(textures, "_decode", lambda p: calls.append(p) or real(p))
    for _ in range(30):
        assert read_image(tmp_path / "t.png")[0, 0].tolist() == [1, 2, 3, 4]
    assert len(calls) == 1
    Image.new("RGBA", (8, 8), (9, 9, 9, 9)).save(tmp_path / "t.png")     # a changed file is read again
    os.utime(tmp_path / "t.png", ns=(1, 1))
    assert read_image(tmp_path / "t.png")[0, 0].tolist() == [9, 9, 9, 9] and len(calls) == 2


def test_mutated_png_and_jpeg_bytes_never_escape(tmp_path):
    """Every single-byte flip of a small PNG and JPEG and every truncation: an image or a
    ValueError, nothing else."""
    import io
    rng = np.random.default_rng(21)
    for fmt in ("PNG", "JPEG"):
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (6, 5, 3), np.uint8), "RGB").save(buf, format=fmt)
        good = buf.getvalue()
        cases = [good[:n] for n in range(0, len(good), 7)]
        for _ in range(300):
            b = bytearray(good)
            for k in rng.integers(0, len(b), 3):
                b[k] = int(rng.integers(0, 256))
            cases.append(bytes(b))
        for n, data in enumerate(cases):
            path = tmp_path / f"{fmt}{n}.png"
            path.write_bytes(data)
            try:
                assert read_image(path).shape[2] == 4
            except ValueError:
                pass


def project(tmp_path: Path, texture: str) -> Path:
    from tests.project.assets_fixture import make
    return make(tmp_path / "p", texture=texture)


@pytest.mark.parametrize("make", ["postscript", "pipe", "bomb", "sparse"])
def test_validate_and_play_report_a_hostile_texture_and_go_on(tmp_path, make):
    """In a child process under a memory limit and a timeout: validate reports
    texture.unreadable at the property (file:line:column, exit 1), play draws without it (exit
    0); neither hangs, crashes, nor shows what PostScript would have read."""
    kzm = project(tmp_path, "textures/hostile.png")
    target = kzm.parent / "textures" / "hostile.png"
    if make == "postscript":
        target.write_bytes(POSTSCRIPT)
    elif make == "pipe":
        os.mkfifo(target)
    elif make == "bomb":
        target.write_bytes(bomb(60_000, 60_000))
    else:
        with open(target, "wb") as f:
            f.truncate(9 << 29)
    line = next(n for n, text in enumerate(kzm.read_text().splitlines(), 1) if "textures/hostile.png" in text)
    ran = kzplayer("validate", kzm, cwd=tmp_path, timeout=120).expect(1)
    assert f"fx.kzm:{line}:" in ran.out and "texture.unreadable" in ran.out, ran.out
    assert "root:" not in ran.out and ran.peak_mib < 1500
    played = kzplayer("play", kzm, "--frames", 2, "--size", "32x32", "--output", tmp_path / "o.png",
                      cwd=tmp_path, timeout=180).expect(0)
    assert "hostile.png" in played.out and played.peak_mib < 2500 and (tmp_path / "o.png").exists()
