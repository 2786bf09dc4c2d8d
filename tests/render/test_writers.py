"""The frame writers produce files that other tools read back, with the right frames."""
from __future__ import annotations

import imageio.v2 as imageio
import math

import imageio.v3 as iio
import numpy as np
import pytest

from kzplayer.render.writers import check_output, open_writer, output_kind

W, H, N = 64, 48, 6


def frames():
    """Frame i: black with a white 8-pixel band at column 8i, so frames tell apart."""
    for i in range(N):
        f = np.zeros((H, W, 3), np.uint8)
        f[:, 8 * i:8 * i + 8] = 255
        yield f


def band_column(img) -> int:
    return int(np.argmax(img[..., :3].mean(axis=(0, 2)) > 128)) // 8


def write_all(path, fps=30.0):
    with open_writer(path, fps, (W, H)) as w:
        for f in frames():
            w.write(f)
    return w


def test_png_keeps_the_last_frame(tmp_path):
    write_all(tmp_path / "last.png")
    img = iio.imread(tmp_path / "last.png")
    assert img.shape == (H, W, 3)
    assert band_column(img) == N - 1


def test_png_sequence_numbers_every_frame(tmp_path):
    out = tmp_path / "seq"
    write_all(out)
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"frame_{i:05d}.png" for i in range(N)]
    for i, name in enumerate(names):
        assert band_column(iio.imread(out / name)) == i


def test_gif_has_every_frame_in_order_and_loops(tmp_path):
    write_all(tmp_path / "a.gif", fps=25)
    imgs = iio.imread(tmp_path / "a.gif")
    assert imgs.shape[:3] == (N, H, W)
    assert [band_column(f) for f in imgs] == list(range(N))
    meta = iio.immeta(tmp_path / "a.gif")
    assert meta["loop"] == 0 and meta["duration"] == 40


def gif_durations(path):
    from PIL import Image
    with Image.open(path) as im:
        out = []
        for i in range(im.n_frames):
            im.seek(i)
            out.append(im.info["duration"])
    return out


@pytest.mark.parametrize("fps", [60, 30, 24])
def test_gif_plays_in_real_time_with_no_delay_under_20_ms(tmp_path, fps):
    n = 2 * fps                                     # two seconds
    with open_writer(tmp_path / "t.gif", fps, (8, 8)) as w:
        for i in range(n):
            w.write(np.full((8, 8, 3), i % 256, np.uint8))
    durations = gif_durations(tmp_path / "t.gif")
    assert sum(durations) == 2000                   # the loop lasts the effect's duration
    assert min(durations) >= 20
    assert len(durations) == (n if 100 / fps >= 2 else math.ceil(n * 2 / 3))
    # Each kept frame is shown at its own time, to the 10 ms GIF resolution.
    kept = iio.imread(tmp_path / "t.gif")[:, 0, 0, 0].astype(int)
    shown_at = np.cumsum([0, *durations[:-1]])
    assert np.all(np.abs(kept * 1000 / fps - shown_at) <= 10)


def test_mp4_is_h264_yuv420p_with_every_frame(tmp_path):
    write_all(tmp_path / "a.mp4", fps=30)
    reader = imageio.get_reader(tmp_path / "a.mp4")
    meta = reader.get_meta_data()
    assert meta["codec"] == "h264" and meta["pix_fmt"].startswith("yuv420p")
    assert meta["size"] == (W, H) and meta["fps"] == 30
    decoded = list(reader.iter_data())
    reader.close()
    assert len(decoded) == N
    assert [band_column(f) for f in decoded] == list(range(N))


@pytest.mark.parametrize("path, kind", [("a.png", "png"), ("a.GIF", "gif"), ("x/a.mp4", "mp4"),
                                        ("frames/", "folder"), ("frames", "folder"), ("a.avi", None)])
def test_output_kind(path, kind):
    assert output_kind(path) == kind


def test_check_output_explains_what_cannot_be_written(tmp_path):
    assert "cannot write '.avi'" in check_output(tmp_path / "a.avi", (64, 48))
    assert "even width and height" in check_output(tmp_path / "a.mp4", (65, 48))
    assert check_output(tmp_path / "a.gif", (65, 47)) is None
    (tmp_path / "file").write_text("x")
    assert "not a folder" in check_output(tmp_path / "file" / "a.png", (64, 48))
    assert "is a file, not a folder" in check_output(tmp_path / "file", (64, 48))
