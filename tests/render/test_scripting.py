"""The Python API's player (render/scripting.py): `kzplayer.render` writes the bytes
`kzplayer play --headless` writes for the same options, in-process; `kzplayer.Player`
steps, seeks and hands out the frames play writes, as numpy arrays."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

import kzplayer
from kzplayer.cli import main
from kzplayer.diagnostics import KzError

DEMO = kzplayer.sample("demo_fountain.kzm")
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
SPARKS = kzplayer.sample("07_death_sparks.kzm")


def cli(*args):
    result = CliRunner().invoke(main, ["play", *map(str, args)])
    assert result.exit_code == 0, result.output + str(result.exception)
    return result


@pytest.mark.parametrize("suffix", [".png", ".gif", ".mp4"])
def test_render_writes_the_bytes_play_writes(gl_ctx, tmp_path, suffix):
    by_cli, by_api = tmp_path / f"cli{suffix}", tmp_path / f"api{suffix}"
    cli(SPARKS, "--headless", "--frames", 8, "--size", "64x36", "--seed", 5, "--fps", 30,
        "--set", "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks/Source:Emission.Rate=30",
        "--output", by_cli)
    result = kzplayer.render(SPARKS, by_api, size=(64, 36), frames=8, seed=5, fps=30,
                             set=["Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks/Source:Emission.Rate=30"])
    assert result.frames == 8 and result.wrote == [str(by_api)] and result.size == (64, 36)
    assert by_api.stat().st_size > 0 and by_api.read_bytes() == by_cli.read_bytes()


def test_render_takes_a_loaded_project_and_seconds(gl_ctx, tmp_path):
    project = kzplayer.load(DEMO)
    project.find(NOZZLE).set("Emission.Rate", 0)          # an edit in memory, not saved
    result = kzplayer.render(project, tmp_path / "none.png", size=(32, 18), seconds=0.25)
    assert result.frames == 15 and result.alive == 0
    assert np.asarray(Image.open(tmp_path / "none.png")).max() == 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(size=(0, 10)), "size"), (dict(fps=0), "fps"), (dict(seconds=1, frames=2), "not both"),
    (dict(speed=3), "speed"), (dict(seconds=-1), "seconds"),
])
def test_render_refuses_bad_arguments_before_anything_runs(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        kzplayer.render(DEMO, tmp_path / "x.png", **kwargs)
    assert not (tmp_path / "x.png").exists()


def test_render_refuses_an_unknown_output_and_a_missing_project(tmp_path):
    with pytest.raises(ValueError):
        kzplayer.render(DEMO, tmp_path / "x.bmp", frames=1)
    with pytest.raises(KzError):
        kzplayer.render(tmp_path / "missing.kzm", tmp_path / "x.png", frames=1)


def test_a_player_frame_is_the_frame_play_writes_and_seek_meets_it(ctx, tmp_path):
    kzplayer.render(SPARKS, tmp_path / "seq", size=(64, 36), frames=20, fps=30, seed=2, ctx=ctx)
    written = [np.asarray(Image.open(tmp_path / "seq" / f"frame_{k:05d}.png").convert("RGB")) for k in range(20)]
    with kzplayer.Player(SPARKS, size=(64, 36), fps=30, seed=2, ctx=ctx) as player:
        player.step(5)
        assert player.frames == 5 and abs(player.time - 5 / 30) < 1e-12
        image = player.frame()
        assert image.shape == (36, 64, 3) and image.dtype == np.uint8
        assert np.array_equal(image, written[4])           # play's frame k is after k + 1 steps
        later, earlier = player.frames_at([20 / 30, 12 / 30])
        assert np.array_equal(later, written[19]) and np.array_equal(earlier, written[11])
        assert not np.array_equal(later, earlier)
        small = player.thumbnail((32, 18))
        assert small.shape == (18, 32, 3) and small.max() > 0
        assert np.array_equal(player.frame(), written[11])   # a thumbnail leaves the frame alone
        dump = player.particles()
        assert dump and all(k.endswith(("/position", "/velocity", "/age", "/lifetime", "/scale", "/mass")) for k in dump)
        stats = player.stats
        assert sum(int(s.alive) for s in stats.values()) == sum(len(v) for k, v in dump.items() if k.endswith("/age"))
        player.save(tmp_path / "now.png")
        assert np.array_equal(np.asarray(Image.open(tmp_path / "now.png").convert("RGB")), written[11])
        player.restart()
        assert player.frames == 0 and player.time == 0.0
        with pytest.raises(ValueError):
            player.seek(-1)
