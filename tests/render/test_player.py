"""The Player: the one frame loop (simulation, camera, renderer, writer) that the window and
offline renders share; problems heard once; and render/ never reaching back into the
command line."""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

import numpy as np

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.render.offline import render_offline
from kzplayer.render.player import Player
from kzplayer.resources import samples_dir

RENDER = Path(kzplayer.__file__).parent / "render"


def test_nothing_in_render_imports_the_commands():
    for path in RENDER.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in names if m.startswith("kzplayer.commands")], path.name


def test_a_player_steps_draws_and_restarts(ctx):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    player = Player(ctx, project, resolve(project), (64, 36), seed=3)
    try:
        player.step(0.5)
        player.draw()
        first = player.image()
        assert first.shape == (36, 64, 3) and first.max() > 0
        player.restart()
        assert player.sim.frames == 0 and player.time == 0.0
        player.step(0.5)
        player.draw()
        assert np.array_equal(player.image(), first)          # same seed, same picture
        player.draw((32, 32))                                  # a window's new size
        assert player.image().shape == (32, 32, 3)
    finally:
        player.release()


def test_problems_are_heard_once_however_many_frames(ctx, tmp_path):
    shutil.copytree(samples_dir() / "assets", tmp_path / "assets")
    text = (samples_dir() / "08_rock_debris.kzm").read_text().replace("assets/meshes/rock.glb", "assets/meshes/gone.glb")
    (tmp_path / "p.kzm").write_text(text)
    project = kzplayer.load(str(tmp_path / "p.kzm"))
    heard = []
    result = render_offline(project, resolve(project), (32, 18), n_frames=5, fps=30.0,
                            output=str(tmp_path / "x.gif"), ctx=ctx, warn=heard.extend)
    assert [d.rule for d in heard] == ["mesh.unreadable"] and "gone.glb" in heard[0].message
    assert result.frames == 5 and result.emitters == 3 and result.wrote == [str(tmp_path / "x.gif")]


def test_a_broken_custom_rendering_material_is_heard_before_anything_is_simulated_and_left_out(ctx, tmp_path):
    from tests.render.test_custom_material import project_with
    project_with(tmp_path)
    frag = tmp_path / "shaders" / "spark_streak.frag.glsl"
    frag.write_text(frag.read_text().replace("float across =", "float across = nothing +"))
    project = kzplayer.load(str(tmp_path / "p.kzm"))
    stepped, heard = [], []
    import kzplayer.render.player as P
    original = P.Player.step
    P.Player.step = lambda self, dt: stepped.append(dt) or original(self, dt)
    try:            # raised KzError (exit 1) before
        result = render_offline(project, resolve(project), (32, 18), n_frames=50, fps=30.0,
                                output=str(tmp_path / "x.png"), ctx=ctx,
                                warn=lambda ds: heard.extend((d, len(stepped)) for d in ds))
    finally:
        P.Player.step = original
    compile_errors = [(d, when) for d, when in heard if d.rule == "shader.compile"]
    assert compile_errors and all(when == 0 for _, when in compile_errors)      # before the first step
    d = compile_errors[0][0]
    assert d.span.file == str(frag.resolve()) and "nothing" in d.message
    assert len({d for d, _ in compile_errors}) == len(compile_errors)            # each once over 50 frames
    assert result.frames == 50 and len(stepped) == 50 and (tmp_path / "x.png").exists()


def test_the_drivers_use_the_player_through_its_public_methods_only():
    """The window and the offline writer drive the one loop; neither reaches into it (no
    private member of the player read, nothing of it assigned but the stats callback)."""
    for name in ("offline.py", "window.py"):
        tree = ast.parse((RENDER / name).read_text())
        touched = [(n.attr, type(n.ctx).__name__) for n in ast.walk(tree)
                   if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "player"]
        assert touched, name
        assert not [a for a, _ in touched if a.startswith("_")], name
        assert {a for a, how in touched if how == "Store"} <= {"on_stats"}, name


def fountain(ctx, **kwargs):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    return Player(ctx, project, resolve(project), (64, 36), seed=3, **kwargs)


def test_the_clock_pauses_and_slows_the_effect(ctx):
    slow, plain = fountain(ctx), fountain(ctx)
    try:
        slow.clock.paused = True
        assert slow.advance(0.5) == 0.0 and slow.sim.frames == 0 and slow.time == 0.0
        slow.clock.paused, slow.clock.speed = False, 0.5
        for _ in range(6):
            assert slow.advance(1 / 15) == 1 / 30          # half the wall time
            plain.advance(1 / 30)
        assert slow.time == plain.time and slow.sim.frames == plain.sim.frames == 6
        slow.draw()
        plain.draw()
        assert slow.image().max() > 0 and np.array_equal(slow.image(), plain.image())
        slow.clock.paused = True
        slow.step(1 / 30)                                   # a single step while paused
        assert slow.sim.frames == 7 and abs(slow.time - 7 / 30) < 1e-12
    finally:
        slow.release()
        plain.release()


def test_seek_re_runs_the_effect_to_a_time_and_meets_the_played_frame(ctx):
    player = fountain(ctx)
    try:
        for _ in range(12):
            player.advance(1 / 30)
        player.draw()
        at_12 = player.image()
        for _ in range(9):
            player.advance(1 / 30)
        player.draw()
        assert not np.array_equal(player.image(), at_12)
        player.seek(12 / 30, 1 / 30)
        assert player.sim.frames == 12 and abs(player.time - 12 / 30) < 1e-12
        player.draw()
        assert np.array_equal(player.image(), at_12)        # back, from the first frame
        player.seek(0.25, 1 / 30)                           # 7 frames and a shorter one
        assert player.sim.frames == 8 and abs(player.time - 0.25) < 1e-12
    finally:
        player.release()


def test_finish_says_what_the_whole_run_found_once_and_only_at_the_end(ctx):
    from kzplayer.bindings import parse_override
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    graph = resolve(project)
    nozzle = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
    graph.set_value(*parse_override(f"{nozzle}:ParticleEmitter.MaximumAmount=10", project))
    heard = []
    player = Player(ctx, project, graph, (32, 18), seed=1, warn=heard.extend)
    try:
        for _ in range(60):         # 400/s into a pool of 10 (tests/test_play_cli.py: 59 frames refused)
            player.advance(1 / 60)
        assert not [d for d in heard if d.rule == "emitter.pool-full"]       # not before the end
        player.finish()
        player.finish()
        full = [d for d in heard if d.rule == "emitter.pool-full"]
        assert len(full) == 1 and "was full on 59 frame(s): 390 particle(s) not emitted" in full[0].message
    finally:
        player.release()


def test_a_drawing_value_edited_in_place_is_drawn_as_a_player_of_the_saved_project_draws_it(ctx, tmp_path):
    from kzplayer.commands.watch import load_live
    from kzplayer.render.live import LiveSession
    path = tmp_path / "fountain.kzm"
    text = (samples_dir() / "demo_fountain.kzm").read_text()
    rate = '<Property name="Emission.Rate">400</Property>'
    assert rate in text
    path.write_text(text)
    session = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, (64, 36), seed=1))
    session.start()
    saved = None
    try:
        for _ in range(30):
            session.player.step(1 / 60)
        session.player.draw()
        before = session.player.image().copy()
        path.write_text(text.replace(rate, rate + '<Property name="Particle.BlendMode">Alpha</Property>'))
        assert session.reload([str(path)]).kind == "applied"          # a value edit, in place
        session.player.draw()
        saved = Player(ctx, *load_live(str(path))[:2], (64, 36), seed=1)
        for _ in range(30):
            saved.step(1 / 60)
        saved.draw()
        assert not np.array_equal(saved.image(), before)               # the edit shows
        assert np.array_equal(session.player.image(), saved.image())
    finally:
        session.release()
        if saved is not None:
            saved.release()
