"""Golden pictures: --update writes the golden, the same frame passes; the noise a re-render
has (every pixel off by one level, the float rounding of another driver; a few edge pixels
off by 8, rasterisation) passes at the default SSIM tolerance; one property changed
(the nozzle's speed, the particles' colour) fails, with the difference strip written."""
from __future__ import annotations

import numpy as np

from kzplayer.effecttest import Options, run_path
from kzplayer.effecttest.pictures import read_png, ssim, write_png
from kzplayer.effecttest.spec import DEFAULT_MIN_SSIM

from tests.effecttest.helpers import NOZZLE, line_of, write_spec

PICTURE = '[[picture]]\nat = 1.5\ngolden = "fountain.png"\n'


def test_update_writes_the_golden_and_the_same_frame_passes(tmp_path):
    path = write_spec(tmp_path, PICTURE)
    assert run_path(path).outcomes[0].passed is False           # no golden yet: a failure saying how
    assert "--update" in run_path(path).outcomes[0].message
    assert run_path(path, Options(update=True)).outcomes[0].passed
    golden = read_png(tmp_path / "fountain.png")
    assert golden.shape == (96, 96, 3) and (golden.max(axis=2) > 64).sum() > 30     # the spray is in it
    o = run_path(path).outcomes[0]
    assert o.passed and "SSIM 1.0000" in o.message


def test_re_render_noise_passes_and_a_changed_property_fails(tmp_path):
    path = write_spec(tmp_path, PICTURE)
    run_path(path, Options(update=True))
    golden = read_png(tmp_path / "fountain.png")
    rng = np.random.default_rng(3)
    rounding = np.clip(golden.astype(int) + rng.integers(-1, 2, golden.shape), 0, 255).astype(np.uint8)
    edges = golden.astype(int) + rng.integers(-8, 9, golden.shape) * (rng.random(golden.shape[:2]) < 0.05)[:, :, None]
    for noisy in (rounding, np.clip(edges, 0, 255).astype(np.uint8)):
        assert ssim(noisy, golden) >= DEFAULT_MIN_SSIM
    for change in ("Emission.InitialVelocityStrength=6.5", "Particle.Color=Color4(0.3,0.6,1,1)"):
        changed = write_spec(tmp_path, PICTURE, name="changed", head=f'set = ["{NOZZLE}:{change}"]')
        result = run_path(changed, Options(artifacts=tmp_path / "art"))
        o = result.outcomes[0]
        assert not o.passed, (change, o.message)
        (d,) = result.diagnostics()
        assert d.span.line == line_of(changed, "[[picture]]")
        strip = read_png(tmp_path / "art" / "changed.0.diff.png")
        assert strip.shape == (96, 96 * 3 + 4, 3)
        assert np.array_equal(strip[:, :96], golden)             # golden | actual | difference
        assert strip[:, -96:].max() > 0


def test_ssim_of_other_sizes_fails_and_write_png_replaces(tmp_path):
    a = np.zeros((8, 8, 3), np.uint8)
    assert ssim(a, np.zeros((8, 9, 3), np.uint8)) == -1.0
    write_png(tmp_path / "a.png", a)
    write_png(tmp_path / "a.png", a + 7)
    assert read_png(tmp_path / "a.png").min() == 7 and sorted(p.name for p in tmp_path.iterdir()) == ["a.png"]
