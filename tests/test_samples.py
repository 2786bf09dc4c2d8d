"""Every sample project loads cleanly, is documented, and renders its effect: a small image
after a fixed number of frames, compared with a golden image under tests/render/golden/.

Regenerate the goldens after an intended change of the look or the simulation with
    KZPLAYER_UPDATE_GOLDENS=1 python -m pytest tests/test_samples.py
and look at each one before committing it: the picture must show the effect.

The comparison tolerates driver differences (llvmpipe vs a GPU: rasterisation rules,
float rounding): the mean absolute difference must stay under MAX_MEAN_DIFF (0-255
scale) and under MAX_DIFFERING of the pixels may differ by more than PIXEL_THRESHOLD.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

import kzplayer
from kzplayer.commands.play import load_for_play, play_offline
from kzplayer.diagnostics import Severity
from kzplayer.resources import samples_dir

GOLDEN = Path(__file__).parent / "render" / "golden"
SIZE = (128, 72)
MAX_MEAN_DIFF = 2.0
PIXEL_THRESHOLD = 48
MAX_DIFFERING = 0.01
UPDATE = os.environ.get("KZPLAYER_UPDATE_GOLDENS") == "1"

# sample -> frames at 60 fps: a moment where the effect is fully developed
SAMPLES = {
    "demo_fountain": 120,
    "02_sparks_spray": 90,
    "03_firework": 132,        # 0.7 s after the second burst (bursts at 0 s and 1.5 s)
    "04_fire": 180,            # 3 s: the fire burning, embers and smoke risen
    "05_portal_ring": 120,
    "06_smoke_wind": 300,      # 5 s: the plume has risen, bent over and reached the frame's edge
    "07_death_sparks": 180,    # 3 s: shells bursting overhead, earlier sparks bouncing on the floor
    "08_rock_debris": 42,      # 0.7 s: the rocks of the first blast in the air, dust at the blast
    "09_firework_trails": 170,  # 2.8 s: a fresh gold burst and its shockwave, a cyan one starting, trails weeping
    "10_rain": 90,             # 1.5 s: rain falling through the lamp light, splashes and ripples on the street
    "11_snow": 360,            # 6 s: the first flakes have settled, the air full of falling ones
    "12_spell": 50,            # 0.8 s: the orb beside the obelisk with its flare, a ring pulsing out
    "13_magic_vortex": 180,    # 3 s: the funnel has reached the orb, the motes fill their orbits
    "14_firework_shells": 170,  # 2.8 s: shells climbing on their trails, bursts glittering
    "15_storm": 138,           # 2.3 s: the third strike at 0.1 s of its life, the clouds lit by its flash
}


def test_every_sample_is_listed_here_and_in_the_readme():
    on_disk = {p.stem for p in samples_dir().glob("*.kzm")}
    assert on_disk == set(SAMPLES)
    readme = (samples_dir() / "README.md").read_text()
    for name in SAMPLES:
        assert f"{name}.kzm" in readme


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_loads_without_problems_and_says_what_it_shows(name):
    path = samples_dir() / f"{name}.kzm"
    text = path.read_text()
    header = re.search(r"<!--(.*?)-->", text, re.S)
    assert header and f"{name}.kzm" in header.group(1) and "shows" in header.group(1)
    project = kzplayer.load(path)
    _, graph = load_for_play(str(path))
    problems = [d for d in (*project.diagnostics, *graph.diagnostics) if d.severity != Severity.NOTE]
    assert problems == []


def render(ctx, name, tmp_path, frames) -> np.ndarray:
    project, graph = load_for_play(str(samples_dir() / f"{name}.kzm"))
    out = tmp_path / f"{name}.png"
    play_offline(project, graph, SIZE, n_frames=frames, fps=60.0, output=str(out), ctx=ctx)
    return iio.imread(out)


def compare(actual: np.ndarray, expected: np.ndarray) -> tuple[float, float]:
    """(mean absolute difference, share of pixels whose largest channel differs > threshold)."""
    diff = np.abs(actual.astype(int) - expected.astype(int))
    return float(diff.mean()), float((diff.max(axis=2) > PIXEL_THRESHOLD).mean())


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_renders_like_its_golden_image(ctx, tmp_path, name):
    image = render(ctx, name, tmp_path, SAMPLES[name])
    assert image.shape == (SIZE[1], SIZE[0], 3)
    assert (image.max(axis=2) > 64).sum() > 30, "the effect is not visible"
    golden = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        iio.imwrite(golden, image)
    assert golden.is_file(), f"no golden image {golden}: run with KZPLAYER_UPDATE_GOLDENS=1"
    mean, differing = compare(image, iio.imread(golden))
    assert mean <= MAX_MEAN_DIFF and differing <= MAX_DIFFERING, (
        f"{name}: mean abs diff {mean:.2f} (max {MAX_MEAN_DIFF}), {differing:.1%} of pixels "
        f"differ by > {PIXEL_THRESHOLD} (max {MAX_DIFFERING:.0%})")


def test_the_comparison_catches_a_different_picture(ctx, tmp_path):
    """The tolerance is loose enough for drivers, not for a changed effect: the demo two
    seconds in does not pass as the demo one second in, nor does a shifted image."""
    late = render(ctx, "demo_fountain", tmp_path, 120)
    early = render(ctx, "demo_fountain", tmp_path, 60)
    assert compare(late, late) == (0.0, 0.0)
    mean, differing = compare(late, early)
    assert mean > MAX_MEAN_DIFF or differing > MAX_DIFFERING
    mean, differing = compare(late, np.roll(late, 6, axis=1))
    assert mean > MAX_MEAN_DIFF or differing > MAX_DIFFERING
