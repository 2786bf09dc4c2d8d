"""`kzplayer play` through its command line (cli.md): durations, sizes, every output kind,
stats and dumps checked against the Schedule algorithm, --set and --seed, exit codes.

Every run is headless on standalone EGL (llvmpipe here); `gl_ctx` makes a missing OpenGL
fail these tests instead of skipping them."""
from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import imageio.v2 as imageio
import imageio.v3 as iio
import numpy as np
import pytest
from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.resources import samples_dir

DEMO = samples_dir() / "demo_fountain.kzm"
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
RATE = 400          # the demo's Emission.Rate (particles per second, steady stream)


@pytest.fixture(autouse=True)
def _gl(gl_ctx, monkeypatch):
    """OpenGL must be there; no display, so the default is headless."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def play(*args, ok=True):
    result = CliRunner().invoke(main, ["play", *map(str, args)])
    if ok:
        assert result.exit_code == 0, result.output + str(result.exception)
    assert "Traceback" not in result.output
    return result


def variant(tmp_path, name, edit):
    """The demo with `edit(text) -> text` applied, saved as tmp_path/NAME.kzm."""
    path = tmp_path / f"{name}.kzm"
    path.write_text(edit(DEMO.read_text()))
    return path


def read_csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


# -- what runs -----------------------------------------------------------------------------

def test_the_demo_plays_with_no_project_and_prints_a_summary():
    result = play("--frames", 12)
    assert result.output.startswith("Fountain: 12 frames (0.20 s at 60 fps); 1 emitter; ")
    # A steady stream: 12 frames x 1/60 s x 400/s = 80 particles, none old enough to die.
    assert "; 80 particles alive at the end" in result.output


def test_a_headless_run_that_writes_nothing_says_how_to_keep_something(tmp_path):
    result = play("--frames", 3, "--headless")
    assert "nothing written (add --output FILE.mp4" in result.output
    assert "nothing written" not in play("--frames", 3, "--output", tmp_path / "a.png").output


def test_what_validate_finds_is_shown_before_playing(tmp_path):
    # A misspelt property plays as its default; the artist hears why, the run goes on.
    path = variant(tmp_path, "typo", lambda t: t.replace('"Emission.Lifetime">', '"Emission.Lifetme">'))
    result = play(path, "--frames", 2)
    assert re.search(r"typo\.kzm:\d+:\d+: error: unknown property 'Emission\.Lifetme' .*\[property\.unknown\]", result.stderr)
    assert "hint: did you mean 'Emission.Lifetime'?" in result.stderr
    assert f"playing anyway (what an error names is left out or plays as its default); `kzplayer validate {path}` lists every problem" in result.stderr
    assert result.stdout.startswith("Fountain: 2 frames")
    assert play("--frames", 2).stderr == ""          # the clean demo: nothing on stderr


def test_many_findings_are_cut_to_ten_with_a_pointer_to_validate(tmp_path):
    typos = "".join(f'<Property name="Emission.Bogus{i}">1</Property>' for i in range(13))
    path = variant(tmp_path, "many", lambda t: t.replace('<Property name="Emission.Rate">', typos + '<Property name="Emission.Rate">'))
    result = play(path, "--frames", 1)
    assert result.stderr.count("[property.unknown]") == 10
    assert "; 3 more not shown; `kzplayer validate" in result.stderr


def test_a_problem_both_validate_and_the_simulation_see_is_shown_once(tmp_path):
    # A subemitter fed from another ParticleSystem: validate's subemitter.other-system, which
    # the simulation also warns about when it wires the emitter.
    other = """<ParticleSystem name="Other"><ParticleEmitter name="Sparks">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_FromEvents</Property>
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>
      <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>
      <Property name="Emission.SourceEventBuffer"/><Property name="Emission.SourceParticleDataBuffer"/>
      <Binding target="Emission.SourceEventBuffer">{@../../Particle System/Nozzle/ParticleEmitter.EventBuffer}</Binding>
      <Binding target="Emission.SourceParticleDataBuffer">{@../../Particle System/Nozzle/ParticleEmitter.ParticleDataBuffer}</Binding>
    </ParticleEmitter></ParticleSystem>"""
    events = '<Property name="ParticleEmitter.GenerateEventsMaterial">Event_Lifetime</Property>'
    path = variant(tmp_path, "other", lambda t: t.replace("</ParticleSystem>", "</ParticleSystem>" + other)
                   .replace('<Property name="Emission.Rate">', events + '<Property name="Emission.Rate">'))
    result = play(path, "--frames", 1)
    assert result.stderr.count("[subemitter.other-system]") == 1


def test_a_full_pool_is_reported_with_what_it_cost():
    # 400/s for 1 s is 400 particles, none old enough to die (lifetime 1.6 - 0.2 s); a pool
    # of 10 takes the first 10. Frame 0 asks for floor(400/60) = 6, frame 1 for 7 more
    # (floor(13.3) - 6) but finds 4 free slots: every frame from 1 to 59 is refused some.
    result = play("--frames", 60, "--set", f"{NOZZLE}:ParticleEmitter.MaximumAmount=10")
    assert (f"warning: {NOZZLE}: its pool (ParticleEmitter.MaximumAmount = 10) was full on 59 frame(s): "
            "390 particle(s) not emitted") in result.stderr
    assert "hint: raise MaximumAmount, or bind it" in result.stderr
    assert "was full" not in play("--frames", 60).stderr      # the demo's bound pool fits


def test_a_window_says_that_a_duration_does_not_apply(monkeypatch):
    import kzplayer.render.window as window
    played = []
    monkeypatch.setattr(window, "play_in_window", lambda *a, **k: played.append(a))
    result = play("--window", "--seconds", 3)
    assert played and "note: a window plays until it is closed; --frames and --seconds" in result.stderr
    assert "note:" not in play("--window").stderr


def test_a_project_without_emitters_says_there_is_nothing_to_play(tmp_path):
    # The demo with its ParticleSystem's content dropped: a scene that plays, with no particles.
    path = variant(tmp_path, "empty", lambda t: re.sub(r"<ParticleEmitter .*?</ParticleAffector>", "", t, flags=re.S))
    result = play(path, "--frames", 2)
    assert "; 0 emitters (nothing to play: the project has no ParticleEmitter under a ParticleSystem); " in result.output


def test_default_duration_is_five_seconds_at_the_output_rate(tmp_path):
    play("--fps", 8, "--stats", tmp_path / "s.csv")
    rows = read_csv(tmp_path / "s.csv")
    assert [int(r["frame"]) for r in rows] == list(range(40))
    assert float(rows[-1]["time"]) == pytest.approx(5.0)


def test_seconds_are_cut_into_output_frames(tmp_path):
    result = play("--seconds", 0.5, "--fps", 20, "--stats", tmp_path / "s.csv")
    assert "10 frames (0.50 s at 20 fps)" in result.output
    assert [float(r["time"]) for r in read_csv(tmp_path / "s.csv")] == pytest.approx(
        [(i + 1) / 20 for i in range(10)])


# -- images --------------------------------------------------------------------------------

def test_png_is_the_last_frame_at_exactly_the_asked_size(tmp_path):
    play("--frames", 20, "--size", "97x55", "--output", tmp_path / "last.png")
    img = iio.imread(tmp_path / "last.png")
    assert img.shape == (55, 97, 3)
    assert img.max() > 100                  # particles are there
    assert img[0].max() == 0 and img[:, 0].max() == 0   # on black, away from the borders


def test_default_size_is_the_viewport2d_size(tmp_path):
    project = variant(tmp_path, "small", lambda t: t.replace(">640<", ">200<").replace(">360<", ">120<"))
    play(project, "--frames", 2, "--output", tmp_path / "a.png")
    assert iio.imread(tmp_path / "a.png").shape == (120, 200, 3)


def test_without_a_viewport_size_the_image_is_640x360(tmp_path):
    project = variant(tmp_path, "nosize", lambda t: "\n".join(
        line for line in t.splitlines() if "Node.Width" not in line and "Node.Height" not in line))
    play(project, "--frames", 1, "--output", tmp_path / "a.png")
    assert iio.imread(tmp_path / "a.png").shape == (360, 640, 3)


def test_without_a_camera_the_view_fits_the_effect(tmp_path):
    project = variant(tmp_path, "nocam", lambda t: re.sub(r'<Camera name="Camera">.*?</Camera>', "", t, flags=re.S))
    result = play(project, "--seconds", 2, "--size", "128x72", "--output", tmp_path / "a.png")
    assert "fit-to-content camera (the project has no Camera)" in result.output
    lit = iio.imread(tmp_path / "a.png").max(axis=2) > 40
    rows, cols = np.flatnonzero(lit.any(axis=1)), np.flatnonzero(lit.any(axis=0))
    # The fountain fills most of the frame (its 1-99 % box fits with a 10 % margin) ...
    assert rows[-1] - rows[0] > 0.6 * 72 or cols[-1] - cols[0] > 0.6 * 128
    # ... and is centred.
    assert abs((cols[0] + cols[-1]) / 2 - 64) < 10


def test_a_folder_gets_a_numbered_png_sequence(tmp_path):
    play("--frames", 5, "--size", "64x36", "--output", tmp_path / "seq")
    names = sorted(p.name for p in (tmp_path / "seq").iterdir())
    assert names == [f"frame_{i:05d}.png" for i in range(5)]
    lit = [int((iio.imread(tmp_path / "seq" / n) > 0).sum()) for n in names]
    assert lit[-1] > lit[0]                 # the stream grows frame after frame


def test_gif_has_one_image_per_frame(tmp_path):
    play("--frames", 7, "--size", "64x36", "--fps", 25, "--output", tmp_path / "a.gif")
    frames = iio.imread(tmp_path / "a.gif")
    assert frames.shape[:3] == (7, 36, 64)


def test_mp4_is_h264_with_one_image_per_frame(tmp_path):
    play("--frames", 9, "--size", "64x36", "--fps", 30, "--output", tmp_path / "a.mp4")
    reader = imageio.get_reader(tmp_path / "a.mp4")
    meta = reader.get_meta_data()
    count = sum(1 for _ in reader.iter_data())
    reader.close()
    assert (meta["codec"], meta["size"], meta["fps"], count) == ("h264", (64, 36), 30, 9)


@pytest.mark.parametrize("where", ["Nozzle", "Particle System"])
def test_hidden_nodes_are_not_drawn_and_opacity_dims(tmp_path, where):
    def shot(name, prop=None):
        tag = f'name="{where}">'
        extra = f'\n<Property name="{prop[0]}">{prop[1]}</Property>' if prop else ""
        project = variant(tmp_path, name, lambda t: t.replace(tag, tag + extra, 1))
        play(project, "--frames", 30, "--size", "64x36", "--output", tmp_path / f"{name}.png")
        return iio.imread(tmp_path / f"{name}.png").astype(float)

    full = shot("full")
    assert shot("hidden", ("Node.Visible", "false")).max() == 0
    half = shot("half", ("Node.Opacity", "0.5"))
    # Additive: half the opacity is half the light (in linear light; the image is sRGB), up
    # to 8-bit rounding where unsaturated.
    from kzplayer.render.textures import srgb_to_linear
    unsaturated = full.max(axis=2) < 200
    full_light, half_light = srgb_to_linear(full / 255.0), srgb_to_linear(half / 255.0)
    assert np.abs(half_light[unsaturated] - full_light[unsaturated] / 2).max() <= 0.008


# -- stats and dumps -------------------------------------------------------------------------

def test_stats_csv_follow_the_schedule_and_balance(tmp_path):
    play("--frames", 45, "--stats", tmp_path / "s.csv")
    rows = read_csv(tmp_path / "s.csv")
    assert list(rows[0]) == ["frame", "time", "emitter", "alive", "emitted", "died",
                             "events_written", "events_dropped", "stalled", "hits", "lod_rate", "lod_sides"]
    assert {r["emitter"] for r in rows} == {NOZZLE}
    emitted = np.cumsum([int(r["emitted"]) for r in rows])
    # Steady stream, fractional carry: after k frames (one 60 Hz step each) floor(400 k / 60).
    expected = [math.floor(RATE * (k + 1) / 60 + 1e-9) for k in range(45)]
    assert np.abs(emitted - expected).max() <= 1
    alive = 0
    for r in rows:                          # nothing is created or lost between the columns
        alive += int(r["emitted"]) - int(r["died"])
        assert int(r["alive"]) == alive
    assert all(int(r["stalled"]) == 0 for r in rows)


def test_stats_json_holds_the_same_rows(tmp_path):
    play("--frames", 6, "--stats", tmp_path / "s.csv", "--seed", 3)
    play("--frames", 6, "--stats", tmp_path / "s.json", "--seed", 3)
    as_csv = read_csv(tmp_path / "s.csv")
    as_json = json.loads((tmp_path / "s.json").read_text())
    assert len(as_json) == len(as_csv) == 6
    for a, b in zip(as_json, as_csv):
        assert list(a) == list(b)
        assert float(b.pop("time")) == pytest.approx(a.pop("time"))
        assert {k: str(v) for k, v in a.items()} == b
        assert isinstance(a["alive"], int) and isinstance(a["frame"], int)


def test_dump_has_the_cli_keys_and_shapes(tmp_path):
    play("--frames", 30, "--dump", tmp_path / "d.npz", "--stats", tmp_path / "s.csv")
    alive = int(read_csv(tmp_path / "s.csv")[-1]["alive"])
    with np.load(tmp_path / "d.npz") as d:
        shapes = {k: d[k].shape for k in d.files}
        assert shapes == {f"{NOZZLE}/position": (alive, 3), f"{NOZZLE}/velocity": (alive, 3),
                          f"{NOZZLE}/age": (alive,), f"{NOZZLE}/lifetime": (alive,),
                          f"{NOZZLE}/scale": (alive, 3), f"{NOZZLE}/mass": (alive,)}
        assert (d[f"{NOZZLE}/age"] <= d[f"{NOZZLE}/lifetime"]).all()
        assert (d[f"{NOZZLE}/age"] <= 0.5 + 1e-6).all()    # 30 frames = 0.5 s


def test_same_seed_same_dump_other_seed_other_dump(tmp_path):
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        play("--frames", 20, "--seed", seed, "--dump", tmp_path / f"{name}.npz")
    a, b, c = (np.load(tmp_path / f"{n}.npz") for n in "abc")
    key = f"{NOZZLE}/velocity"
    assert np.array_equal(a[key], b[key])
    assert a[key].shape == c[key].shape and not np.array_equal(a[key], c[key])


# -- --set ----------------------------------------------------------------------------------

def test_set_rate_zero_gives_an_empty_picture(tmp_path):
    result = play("--frames", 20, "--set", f"{NOZZLE}:Emission.Rate=0", "--output", tmp_path / "a.png")
    assert "; 0 particles alive at the end" in result.output
    assert iio.imread(tmp_path / "a.png").max() == 0


def test_set_reaches_bound_properties(tmp_path):
    # MaximumAmount is bound to Rate * (Lifetime + variance): 40 * 1.8 = 72 slots; a faster
    # stream than the pool allows must not stall, since the binding follows the override.
    play("--frames", 30, "--set", f"{NOZZLE}:Emission.Rate=1200", "--stats", tmp_path / "s.csv")
    rows = read_csv(tmp_path / "s.csv")
    assert int(rows[-1]["alive"]) == 600    # 1200/s for 0.5 s
    assert sum(int(r["stalled"]) for r in rows) == 0


@pytest.mark.parametrize("override, message", [
    ("no-colon-here", "expected ITEM-PATH:Type.Property=VALUE"),
    (f"{NOZZLE}:Emission.Rat=3", "did you mean 'Emission.Rate'"),
    ("Screens/Nope:Emission.Rate=3", "Screens/Nope"),
    (f"{NOZZLE}:Emission.Rate=fast", "Emission.Rate takes a float, not `fast`"),
    (f"{NOZZLE}:ParticleEmitter.EventBuffer=1", "is an output of the emitter"),
])
def test_bad_overrides_exit_2_with_a_message(override, message):
    result = play("--frames", 1, "--set", override, ok=False)
    assert result.exit_code == 2
    assert message in result.output


# -- bad command lines and bad projects -------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--size", "640by360"], "is not WIDTHxHEIGHT"),
    (["--size", "0x10"], "must be 1..8192"),
    (["--output", "movie.avi"], "cannot write '.avi'"),
    (["--output", "odd.mp4", "--size", "65x36"], "even width and height"),
    (["--frames", "3", "--seconds", "1"], "not both"),
    (["--stats", "s.txt"], "must end in .csv or .json"),
    (["--dump", "d.csv"], "must end in .npz"),
    (["--window", "--output", "a.png"], "--headless run"),
    (["--fps", "0"], "--fps"),
])
def test_bad_options_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = play(*args, ok=False)
    assert result.exit_code == 2
    assert message in result.output
    assert list(tmp_path.iterdir()) == []   # nothing written


def test_window_without_a_display_is_a_clear_error():
    result = play("--window", ok=False)
    assert result.exit_code == 2
    assert "cannot open a window: no display" in result.output


def test_an_unreachable_display_falls_back_to_headless(monkeypatch):
    monkeypatch.setenv("DISPLAY", ":97")    # named, but no X server answers there
    result = play("--frames", 2)
    assert result.output.startswith("Fountain: 2 frames") and "GLFWError" not in result.output
    result = play("--window", ok=False)
    assert result.exit_code == 2
    assert "cannot open a window: glfw could not connect to the display" in result.output


def test_a_missing_project_exits_2():
    result = play("no/such/effect.kzm", ok=False)
    assert result.exit_code == 2 and "does not exist" in result.output


def test_a_broken_project_shows_the_loader_diagnostic_and_exits_1(tmp_path):
    bad = variant(tmp_path, "bad", lambda t: t.replace("</ParticleEmitter>", "</ParticleEmiter>", 1))
    text = bad.read_text()
    line = text.splitlines().index(next(l for l in text.splitlines() if "</ParticleEmiter>" in l)) + 1
    result = play(bad, "--frames", 1, ok=False)
    assert result.exit_code == 1
    assert f"bad.kzm:{line}:" in result.output and "xml.malformed" in result.output


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch):
    import io
    import sys

    from kzplayer.commands.play import _progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, shown in ((Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr(sys, "stderr", stream)
        with _progress(3, enabled=True) as advance:
            for _ in range(3):
                advance()
        assert ("rendering" in stream.getvalue()) is shown
    monkeypatch.setenv("KZPLAYER_NO_PROGRESS", "1")
    monkeypatch.setattr(sys, "stderr", Terminal())
    with _progress(3, enabled=True) as advance:
        advance()
    assert sys.stderr.getvalue() == ""


def test_a_project_folder_plays_exactly_like_its_single_file(tmp_path):
    converted = CliRunner().invoke(main, ["convert", str(DEMO), str(tmp_path / "fountain")])
    assert converted.exit_code == 0, converted.output
    play(tmp_path / "fountain", "--frames", 20, "--dump", tmp_path / "folder.npz")
    play(DEMO, "--frames", 20, "--dump", tmp_path / "file.npz")
    folder, single = np.load(tmp_path / "folder.npz"), np.load(tmp_path / "file.npz")
    assert folder.files == single.files
    assert all(np.array_equal(folder[k], single[k]) for k in single.files)


def test_a_broken_custom_shader_is_reported_at_its_own_file_and_line(tmp_path):
    (tmp_path / "shaders").mkdir()
    shader = tmp_path / "shaders" / "swirl.glsl"
    shader.write_text("// swirl\nvoid affectParticle(uint index) {\n"
                      "    addParticleAcceleration(index, vec3(0.0, strength, 0.0));\n}\n")
    materials = ('<Materials>\n    <MaterialType name="Swirl" slot="Affector" shader="shaders/swirl.glsl"/>\n'
                 '  </Materials>')
    project = variant(tmp_path, "swirl", lambda t: t.replace("<Materials/>", materials).replace(
        '<Property name="ParticleAffector.AffectorMaterial">Gravity</Property>',
        '<Property name="ParticleAffector.AffectorMaterial">Swirl</Property>'))
    assert "Swirl</Property>" in project.read_text()
    result = play(project, "--frames", 2)       # it plays, the broken affector left out
    column = shader.read_text().splitlines()[2].index("strength") + 1
    assert result.stderr.count(f"{shader}:3:{column}: error: `strength' undeclared [shader.compile]") == 1
    assert "playing anyway (what an error names is left out or plays as its default)" in result.stderr
    assert result.stdout.startswith("Fountain: 2 frames")


def test_simulation_warnings_are_shown_with_their_place_in_the_file(monkeypatch):
    monkeypatch.setattr("kzplayer.gpu.simulation.max_pool", lambda ctx: 64)
    result = play("--frames", 30)
    line = next(n for n, text in enumerate(DEMO.read_text().splitlines(), 1)
                if 'target="ParticleEmitter.MaximumAmount"' in text)
    assert f"demo_fountain.kzm:{line}:" in result.output and "[emitter.pool-limit]" in result.output
    assert "; 64 particles alive at the end" in result.output


def test_a_material_set_on_the_command_line_is_not_blamed_on_the_file():
    result = play("--frames", 1, "--set", f"{NOZZLE}:ParticleEmitter.EmissionMaterial=Gravity")
    assert result.stderr.startswith(f"error: {NOZZLE}: ParticleEmitter.EmissionMaterial: 'Gravity' is an "
                                    "Affector material, not an Emission one [material.slot]")
    assert "; 0 particles alive at the end" in result.stdout      # the emitter's emission left out


# -- hardening (issue 8): bounds, work limits, destinations, budgets --------------------------

SYSTEM = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System"
RECIPE = samples_dir() / "07_death_sparks.kzm"


def with_system_property(tmp_path, name, prop, value):
    return variant(tmp_path, name, lambda t: t.replace(
        '<Property name="ParticleSystem.IntegrationMethod">Verlet</Property>',
        f'<Property name="ParticleSystem.IntegrationMethod">Verlet</Property>\n'
        f'<Property name="{prop}">{value}</Property>'))


def test_a_framerate_of_a_billion_is_clamped_with_a_warning_and_finishes(tmp_path):
    path = with_system_property(tmp_path, "fast", "ParticleSystem.Framerate", "1e9")   # hung before
    result = play(path, "--frames", 5, "--stats", tmp_path / "s.csv")
    assert "ParticleSystem.Framerate = 1000000000 is more work than kzplayer takes on (at most 1,000)" in result.stderr
    assert "[property.work-limit]" in result.stderr
    # 1,000 steps a second: 5 frames of 1/60 s are 83 steps of 1 ms, 400/s -> 33 particles
    assert sum(int(r["emitted"]) for r in read_csv(tmp_path / "s.csv")) == math.floor(RATE * 83 / 1000)


def test_a_nan_framerate_plays_at_the_default_and_says_why(tmp_path):
    path = with_system_property(tmp_path, "nan", "ParticleSystem.Framerate", "nan")   # exit 3 before
    result = play(path, "--frames", 12)
    assert "ParticleSystem.Framerate must be a finite number, not nan [property.range]" in result.stderr
    assert "; 80 particles alive at the end" in result.stdout      # 60 Hz, as the demo


@pytest.mark.parametrize("width, expected", [("100000", 8192), ("1e309", 640)])
def test_a_viewport_too_wide_or_infinite_renders_within_the_limit(tmp_path, width, expected):
    path = variant(tmp_path, "wide", lambda t: t.replace('"Node.Width">640<', f'"Node.Width">{width}<'))
    result = play(path, "--frames", 1, "--output", tmp_path / "a.png")     # exit 3 before
    assert imageio.imread(tmp_path / "a.png").shape[:2] == (360, expected)
    assert ("[property.work-limit]" if expected == 8192 else "[property.range]") in result.stderr


@pytest.mark.parametrize("fps", ["nan", "inf", "1e-9", "0", "-60", "1001"])
def test_fps_outside_1_to_1000_is_refused(fps):        # nan exited 3, 1e-9 ran for minutes
    result = play("--fps", fps, ok=False)
    assert result.exit_code == 2 and "from 1 to 1000" in result.output


@pytest.mark.parametrize("seconds", ["nan", "inf", "1e300"])
def test_seconds_that_are_no_duration_are_refused(seconds):
    result = play("--seconds", seconds, ok=False)
    assert result.exit_code == 2 and "--seconds" in result.output


@pytest.mark.parametrize("seed", ["4294967296", "-4294967296", "-1"])
def test_seeds_outside_32_bits_are_refused(seed):      # they gave the same run as seed 0
    result = play("--frames", 1, "--seed", seed, ok=False)
    assert result.exit_code == 2 and "from 0 to 4,294,967,295" in result.output


def test_the_largest_seed_plays_and_differs_from_seed_0(tmp_path):
    play("--frames", 10, "--seed", 0, "--dump", tmp_path / "a.npz")
    play("--frames", 10, "--seed", 4294967295, "--dump", tmp_path / "b.npz")
    key = f"{NOZZLE}/position"
    assert not np.array_equal(np.load(tmp_path / "a.npz")[key], np.load(tmp_path / "b.npz")[key])


@pytest.mark.parametrize("option, name", [("--output", "x.png"), ("--output", "frames/"),
                                          ("--stats", "s.csv"), ("--dump", "d.npz")])
@pytest.mark.parametrize("where", ["under_a_file", "/proc"])
def test_an_unwritable_destination_fails_before_anything_is_simulated(tmp_path, monkeypatch, option, name, where):
    calls = []
    monkeypatch.setattr("kzplayer.gpu.simulation.Simulation.step_frame", lambda *a: calls.append(a))
    (tmp_path / "file.txt").write_text("x")
    base = tmp_path / "file.txt" if where == "under_a_file" else "/proc/kzplayer-test"
    result = play("--frames", 600, option, f"{base}/{name}", ok=False)
    assert result.exit_code == 2 and f"Invalid value for {option}: cannot " in result.output
    assert calls == []              # exit 3 after the whole simulation before


def test_stats_are_written_as_they_come_not_kept(tmp_path):
    from types import SimpleNamespace

    from kzplayer.render.stats import StatsRecorder
    sim = SimpleNamespace(stats={"E": {"alive": 1, "emitted": 1}})
    for suffix in (".csv", ".json"):
        path = tmp_path / f"s{suffix}"
        recorder = StatsRecorder(sim, path)
        sizes = []
        for frame in range(2000):
            recorder.record(frame, frame / 60)
            if frame % 500 == 499:
                recorder._fh.flush()
                sizes.append(Path(recorder._temp).stat().st_size)
        assert sizes == sorted(sizes) and sizes[0] > 0 and not hasattr(recorder, "rows")
        assert not path.exists()                     # in place only when complete
        recorder.close()
        rows = json.loads(path.read_text()) if suffix == ".json" else read_csv(path)
        assert len(rows) == 2000 and int(rows[-1]["frame"]) == 1999
    stopped = StatsRecorder(sim, tmp_path / "stopped.csv")
    stopped.record(0, 0.0)
    stopped.abandon()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv", "s.json"]


def test_the_pool_hint_names_the_driver_when_it_caps_the_pool(monkeypatch):
    monkeypatch.setattr("kzplayer.gpu.simulation.max_pool", lambda ctx: 64)
    result = play("--frames", 30)
    assert "this driver caps it at 64" in result.stderr
    assert "the OpenGL driver, not MaximumAmount, caps this pool" in result.stderr
    assert "raise MaximumAmount" not in result.stderr


def _spin_project(tmp_path, body):
    (tmp_path / "shaders").mkdir(exist_ok=True)
    (tmp_path / "shaders" / "spin.glsl").write_text(body)
    materials = ('<Materials><MaterialType name="Spin" slot="Affector" shader="shaders/spin.glsl">'
                 '<PropertyType name="Spin.Strength" type="float" default="0.5"/></MaterialType></Materials>')
    return variant(tmp_path, "spin", lambda t: t.replace("<Materials/>", materials).replace(
        '<Property name="ParticleAffector.AffectorMaterial">Gravity</Property>',
        '<Property name="ParticleAffector.AffectorMaterial">Spin</Property>'))


SLOW_LOOP = """uniform float Spin_Strength;
void affectParticle(uint index) {
    float x = Spin_Strength + float(index);
    for (int i = 0; i < 60000; i++) {      // far too long a loop for one particle
        x = sin(x * 1.0001 + 0.5); x = sin(x * 1.0002 + 0.25); x = cos(x * 0.9999 + 0.125);
        x = sin(x * 1.0001 + 0.5); x = sin(x * 1.0002 + 0.25); x = cos(x * 0.9999 + 0.125);
    }
    addParticleAcceleration(index, vec3(0.0, x * 1e-6, 0.0));
}
"""


def test_a_frame_over_its_wall_clock_budget_stops_the_run_naming_the_material(tmp_path):
    path = _spin_project(tmp_path, SLOW_LOOP)
    result = play(path, "--frames", 20, "--frame-budget", 0.002, "--stats", tmp_path / "s.csv", ok=False)
    assert result.exit_code == 1
    assert "[play.frame-budget]" in result.stderr and "per frame (--frame-budget); stopped" in result.stderr
    assert f"the custom material 'Spin' ({tmp_path / 'shaders' / 'spin.glsl'})" in result.stderr
    assert not (tmp_path / "s.csv").exists() and not list(tmp_path.glob("*.tmp"))


def test_a_misspelt_material_is_left_out_and_the_run_says_so(tmp_path):
    path = variant(tmp_path, "typo", lambda t: t.replace(">Gravity<", ">Gravty<"))
    result = play(path, "--frames", 12)               # said "playing anyway", then exit 1
    assert "[material.unknown]" in result.stderr and "playing anyway" in result.stderr
    assert result.stdout.startswith("Fountain: 12 frames")


def test_what_cannot_be_left_out_says_it_stops(tmp_path):
    src = Path(__file__).parent / "validate" / "cases" / "binding.push-target" / "gotcha2_push_target_is_source.kzm"
    result = play(src, "--frames", 2, ok=False)
    assert result.exit_code == 1 and "not playing after all" in result.stderr
    assert "[events.cycle]" in result.output


def _subemitter_emitted(path, tmp_path):
    result = play(path, "--frames", 120, "--stats", tmp_path / "s.csv")
    sub = f"{SYSTEM}/Death Sparks/Subemitter"
    return result, sum(int(r["emitted"]) for r in read_csv(tmp_path / "s.csv") if r["emitter"] == sub)


def test_the_recipe_subemitter_fires(tmp_path):
    _, emitted = _subemitter_emitted(RECIPE, tmp_path)
    assert emitted > 0


@pytest.mark.parametrize("edit, rule", [
    (lambda t: t.replace('<Property name="Emission.SourceEventBuffer"/>', ""), "binding.target-undeclared"),
    (lambda t: t.replace('<Property name="BindingItem.PushTarget">Screens/Screen/RootNode/Viewport 2D/Scene/'
                         'Particle System/Death Sparks/Subemitter</Property>', "", 1), "binding.push-target"),
])
def test_a_binding_kanzi_would_not_deliver_leaves_the_subemitter_unwired(tmp_path, edit, rule):
    # validate's error and what runs agree: the subemitter never fires, as in Kanzi
    path = tmp_path / "broken.kzm"
    path.write_text(edit(RECIPE.read_text()))
    result, emitted = _subemitter_emitted(path, tmp_path)
    assert result.stderr.count(f"[{rule}]") == 1 and emitted == 0


def test_a_misspelt_push_target_is_one_report_the_one_validate_gives(tmp_path):
    path = tmp_path / "stale.kzm"
    path.write_text(RECIPE.read_text().replace("Death Sparks/Subemitter</Property>", "Death Sparks/Subemiter</Property>", 1))
    result = play(path, "--frames", 2, ok=False)
    assert result.exit_code == 1
    assert "[path.stale]" in result.output and "[path.unresolved]" not in result.output


def test_an_include_outside_the_project_leaves_the_material_out_and_never_shows_the_file(tmp_path):
    secret = tmp_path / "secret.glsl"
    secret.write_text("TOP SECRET LINE\n")
    project_dir = tmp_path / "p"
    project_dir.mkdir()
    path = _spin_project(project_dir, '#include "../../secret.glsl"\nvoid affectParticle(uint index) {}\n')
    result = play(path, "--frames", 2)
    assert "TOP SECRET" not in result.output
    assert "leads outside the project folder" in result.stderr and "[shader.compile]" in result.stderr
    assert result.stdout.startswith("Fountain: 2 frames")


def test_an_infinite_rate_plays_at_the_default_without_numpy_warnings(tmp_path):
    path = variant(tmp_path, "inf", lambda t: t.replace(">400<", ">inf<").replace(
        "{./Emission.Rate} * ({./Emission.Lifetime} + {./Emission.LifetimeVariance})", "1000"))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # a numpy RuntimeWarning leaked before
        result = play(path, "--frames", 60)
    assert "Emission.Rate must be a finite number, not inf [property.range]" in result.stderr
    assert "not emitted" not in result.stderr          # 21474835475 particles "not emitted" before
    assert "; 10 particles alive at the end" in result.stdout      # the default 10/s for 1 s


STREAK = """<Materials>
    <MaterialType name="Streak" slot="Particle" vertex="shaders/{vertex}" fragment="shaders/{fragment}"
                  geometry="billboard" reads="ColorOverLife.StartColor ColorOverLife.EndColor">
      <PropertyType name="Streak.Length" type="float" default="0.03" min="0"/>
    </MaterialType>
  </Materials>"""
SMALL = ("--frames", 30, "--size", "320x180", "--seed", 3)


def _streak_fountain(tmp_path, vertex="spark_streak.vert.glsl", fragment="spark_streak.frag.glsl", edit=None):
    """The demo drawn with the custom Streak material (tests/render/data/); `edit` = (file,
    old, new) breaks one of its files."""
    from tests.render.test_custom_material import SHADERS
    (tmp_path / "shaders").mkdir(exist_ok=True)
    for name in ("spark_streak.vert.glsl", "spark_streak.frag.glsl"):
        (tmp_path / "shaders" / name).write_text((SHADERS / name).read_text())
    if edit:
        shader = tmp_path / "shaders" / edit[0]
        assert edit[1] in shader.read_text()
        shader.write_text(shader.read_text().replace(edit[1], edit[2]))
    return variant(tmp_path, "streak", lambda t: t.replace("<Materials/>", STREAK.format(vertex=vertex, fragment=fragment))
                   .replace('<Property name="Emission.Rate">',
                            '<Property name="ParticleEmitter.ParticleMaterial">Streak</Property>'
                            '<Property name="Emission.Rate">'))


@pytest.fixture(scope="module")
def default_fountain(tmp_path_factory):
    """The demo's picture with its own material (the empty slot: ParticlesDefault)."""
    out = tmp_path_factory.mktemp("default") / "x.png"
    play(DEMO, *SMALL, "--output", out)
    return imageio.imread(out)


@pytest.mark.parametrize("stage, edit, token", [
    ("fragment", ("spark_streak.frag.glsl", "float along =", "float along = undefinedThing +"), "undefinedThing"),
    ("vertex", ("spark_streak.vert.glsl", "cross(along, p)", "cross(alng, p)"), "alng"),
])
def test_a_rendering_material_that_does_not_compile_is_left_out_and_drawn_as_billboards(
        tmp_path, default_fountain, stage, edit, token):
    path = _streak_fountain(tmp_path, edit=edit)
    result = play(path, *SMALL, "--output", tmp_path / "x.png")       # exit 1, "not playing after all" before
    shader = tmp_path / "shaders" / edit[0]
    text = shader.read_text()
    line = next(n for n, t in enumerate(text.splitlines(), 1) if token in t)
    column = text.splitlines()[line - 1].index(token) + 1
    assert result.stderr.count(f"{shader.resolve()}:{line}:{column}: error: `{token}' undeclared [shader.compile]") == 1
    assert "leaves 'Streak' out: its emitters are drawn with ParticlesDefault" in result.stderr
    assert "playing anyway (what an error names is left out or plays as its default)" in result.stderr
    assert "not playing after all" not in result.stderr
    assert result.stdout.startswith("Fountain: 30 frames")
    picture = imageio.imread(tmp_path / "x.png")
    # the fountain drawn as ParticlesDefault billboards, exactly as with an empty slot
    assert (picture.max(axis=2) > 60).sum() > 500
    assert np.array_equal(picture, default_fountain)


def test_the_streak_that_compiles_draws_otherwise(tmp_path, default_fountain):
    # what makes the picture above the stand-in's: the working material draws streaks
    result = play(_streak_fountain(tmp_path), *SMALL, "--output", tmp_path / "x.png")
    assert result.stderr == ""
    picture = imageio.imread(tmp_path / "x.png")
    assert (picture.max(axis=2) > 60).sum() > 100 and not np.array_equal(picture, default_fountain)


def test_a_rendering_material_whose_file_is_missing_is_left_out_and_drawn_as_billboards(tmp_path, default_fountain):
    path = _streak_fountain(tmp_path, fragment="nothere.frag.glsl")
    result = play(path, *SMALL, "--output", tmp_path / "x.png")
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if ">Streak</Property>" in t)
    missing = tmp_path.resolve() / "shaders" / "nothere.frag.glsl"
    assert result.stderr.count(f"the shader of 'Streak' is missing: {missing}") == 1
    assert re.search(rf"streak\.kzm:{line}:\d+: (warning|error): .*is missing.*\[material\.unknown\]", result.stderr)
    assert result.stdout.startswith("Fountain: 30 frames")
    assert np.array_equal(imageio.imread(tmp_path / "x.png"), default_fountain)


def test_a_shader_outside_the_project_is_left_out_never_read_and_the_run_says_so(tmp_path, default_fountain):
    # the loader refuses the file (path.outside-project: exit 1 before); play leaves it out
    (tmp_path / "secret.glsl").write_text("TOP SECRET LINE\n")
    inner = tmp_path / "p"
    inner.mkdir()
    path = _streak_fountain(inner, vertex="../../secret.glsl")
    result = play(path, *SMALL, "--output", tmp_path / "x.png")
    assert "TOP SECRET" not in result.output and "[shader.compile]" not in result.output
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "../../secret.glsl" in t)
    assert re.search(rf"streak\.kzm:{line}:\d+: error: refused: the vertex shader of material 'Streak' "
                     r"\(shaders/\.\./\.\./secret\.glsl\) leads outside the project folder", result.stderr)
    assert "playing anyway" in result.stderr and "drawn with ParticlesDefault" in result.stderr
    assert np.array_equal(imageio.imread(tmp_path / "x.png"), default_fountain)
    spin = _spin_project(inner, "void affectParticle(uint index) {}\n")      # a simulation material too
    spin.write_text(spin.read_text().replace('shader="shaders/spin.glsl"', 'shader="../secret.glsl"'))
    result = play(spin, "--frames", 12)
    assert "leads outside the project folder" in result.stderr and "TOP SECRET" not in result.output
    assert result.stdout.startswith("Fountain: 12 frames")
    broken = inner / "broken.kzm"       # any other load error still stops the run
    broken.write_text(path.read_text().replace("<Screens>", "<Screens><Bogus", 1))
    assert play(broken, "--frames", 1, ok=False).exit_code == 1


def test_validate_still_fails_on_a_rendering_material_that_does_not_compile(tmp_path):
    path = _streak_fountain(tmp_path, edit=("spark_streak.frag.glsl", "float along =", "float along = undefinedThing +"))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "error: `undefinedThing' undeclared [shader.compile]" in result.output


# -- --events --------------------------------------------------------------------------------

RAIN = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Rain"
RAIN_LOD = ("--set", f"{RAIN}:Emission.LodNear=1", "--set", f"{RAIN}:Emission.LodFar=2")   # 0.3 of the rate


@pytest.mark.parametrize("sample,runs,extra,least", [
    ("07_death_sparks", (60, 30), (), (10, 10)), ("14_firework_shells", (60,), (), (500, 0)),
    ("10_rain", (60,), RAIN_LOD, (500, 500)), ("09_firework_trails", (30,), (), (100, 0))])
def test_the_event_stream_of_a_sample_is_the_births_deaths_and_hits_of_its_stats(tmp_path, sample, runs, extra, least):
    """07_death_sparks: shells rise and die, each death bursts into sparks that bounce on the
    floor and die (a frame of several steps, 30 fps, included). 14_firework_shells: shells
    with sparks and smoke bound to them (EmissionCount_PerParticle, births every step from
    every live shell), bursting into stars that trail glitter. 10_rain with its emission LOD
    at its minimum (the rain at 0.3 of its rate), splashes and ripples on hit;
    09_firework_trails: emitters with a position history (ribbons and gradient lines), a
    frame of two steps. Frame by frame and emitter by emitter, the --events file has as many
    births, deaths and hits as --stats counts."""
    path = samples_dir() / f"{sample}.kzm"
    for fps in runs:
        play(path, "--frames", 4 * fps, "--fps", fps, "--stats", tmp_path / "s.csv", "--events", tmp_path / "e.jsonl",
             *extra)
        stats = read_csv(tmp_path / "s.csv")
        lines = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines()]
        assert sorted(p.name for p in tmp_path.iterdir()) == ["e.jsonl", "s.csv"]     # no temporary file left
        counted = {}
        for e in lines:
            assert e["kind"] in ("birth", "death", "hit"), e
            key = (e["frame"], e["emitter"], e["kind"])
            counted[key] = counted.get(key, 0) + 1
            assert e["time"] <= (e["frame"] + 1) / fps + 1e-6 and e["time"] >= 0
        totals = {"birth": 0, "death": 0, "hit": 0}
        per_emitter = {}
        for row in stats:
            f, path_ = int(row["frame"]), row["emitter"]
            for kind, column in (("birth", "emitted"), ("death", "died"), ("hit", "hits")):
                assert counted.get((f, path_, kind), 0) == int(row[column]), (fps, f, path_, kind)
                totals[kind] += int(row[column])
                per_emitter[path_] = per_emitter.get(path_, 0) + int(row[column])
        assert len(lines) == sum(totals.values())
        assert {e["emitter"] for e in lines} <= set(per_emitter)       # no event of an emitter --stats lacks
        assert all(per_emitter.values())                              # every emitter of the sample took part
        assert min(totals["birth"], totals["death"]) >= least[0] and totals["hit"] >= least[1]
        if extra:                                       # the LOD was in play: the rain at 0.3
            rain = [row for row in stats if row["emitter"] == RAIN]
            assert rain and all(float(row["lod_rate"]) == 0.3 for row in rain)
            assert sum(int(row["emitted"]) for row in rain) == pytest.approx(0.3 * 3000 * 4, abs=1)
        assert [e["time"] for e in lines] == sorted(e["time"] for e in lines)


def test_events_cap_keeps_the_cap_and_says_what_it_dropped(tmp_path):
    play(DEMO, "--frames", 20, "--events", tmp_path / "e.jsonl", "--events-cap", 3, "--stats", tmp_path / "s.csv")
    lines = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines()]
    emitted = {int(r["frame"]): int(r["emitted"]) for r in read_csv(tmp_path / "s.csv")}
    per_frame = {}
    for e in lines:
        per_frame.setdefault(e["frame"], []).append(e)
    assert sorted(per_frame) == list(range(20))
    for f, events in per_frame.items():       # the demo's 400/s is 6-7 births a frame
        births = [e for e in events if e["kind"] == "birth"]
        [dropped] = [e for e in events if e["kind"] == "dropped"]
        assert len(births) == 3 and dropped["count"] == emitted[f] - 3 and dropped is events[-1]
    bad = play(DEMO, "--frames", 2, "--events", tmp_path / "e.csv", ok=False)
    assert bad.exit_code == 2 and "--events" in bad.output
    bad = play(DEMO, "--frames", 2, "--events-cap", 5, ok=False)
    assert bad.exit_code == 2 and "--events FILE.jsonl" in bad.output


def test_msaa_draws_the_same_picture_with_smoother_edges(tmp_path):
    sample = samples_dir() / "08_rock_debris.kzm"         # meshes: hard edges to smooth
    play(sample, "--frames", 30, "--size", "160x90", "--output", tmp_path / "plain.png")
    play(sample, "--frames", 30, "--size", "160x90", "--msaa", 4, "--output", tmp_path / "msaa.png")
    plain, msaa = (iio.imread(tmp_path / f"{n}.png").astype(int) for n in ("plain", "msaa"))
    assert plain.shape == msaa.shape == (90, 160, 3)
    diff = np.abs(plain - msaa).max(axis=2)
    assert 0 < (diff > 8).mean() < 0.1          # the same picture: only edge pixels change


def test_msaa_takes_only_sample_counts(tmp_path):
    result = play("--frames", 2, "--msaa", 3, "--output", tmp_path / "x.png", ok=False)
    assert result.exit_code == 2 and "--msaa" in result.output
