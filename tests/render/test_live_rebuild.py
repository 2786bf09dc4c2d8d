"""The live preview's fine-grained reloads (kzplayer.render.live, kzplayer.render.rebuild,
kzplayer.gpu.transplant), save by save on a temp project of two ParticleSystems
(tests/render/live_project.py): what a save recompiles, which systems keep their particles,
and that a rebuilt system is exactly what a fresh run to that time gives. The same saves
through the real file watcher are tests/render/test_live_watch.py."""
from __future__ import annotations

from pathlib import Path

import moderngl
import numpy as np
import pytest

from kzplayer.commands.watch import load_live
from kzplayer.render.live import LiveSession
from kzplayer.render.player import Player
from tests.render.live_project import (BROKEN_PUSH, MARK, SECOND_EMITTER, count_compiles, programs_with,
                                       project_text, push_text, save, write_project, write_texture)

SIZE = (64, 36)


@pytest.fixture
def compiled(ctx, monkeypatch):
    """The programs compiled on the test's context: ("compute" | "render", ...) per compile."""
    return count_compiles(ctx, monkeypatch)


@pytest.fixture
def session(ctx, tmp_path):
    path = write_project(tmp_path)
    s = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, SIZE, seed=3))
    s.start()
    s.player.draw()
    for dt in (1 / 60, 1 / 30, 1 / 45, 1 / 60) * 6:     # a window's uneven frames
        s.player.step(dt)
    yield s
    s.release()


def emitter(sim, name):
    return next(em for em in sim.emitters if em.path.endswith("/" + name))


def particles(sim, name):
    return sim.read_particles(emitter(sim, name)).copy()


def test_a_structural_edit_rebuilds_only_its_system_to_what_a_fresh_run_gives(ctx, session, compiled):
    path = session.path
    right = particles(session.player.sim, "Spray")
    assert len(right) > 20
    at = session.player.time
    save(path_of(session), project_text(left_extra=SECOND_EMITTER))      # an emitter added to Left
    compiled.clear()
    outcome = session.reload([path])
    assert outcome.kind == "rebuilt"
    assert outcome.rerun == ["Screens/Screen/Scene/Left"] and outcome.kept == ["Screens/Screen/Scene/Right"]
    assert compiled and set(compiled) == {"compute"} and outcome.compiled == len(compiled)
    sim = session.player.sim
    assert session.player.time == at
    # the untouched system: the same particles, serials, ages, positions (nothing re-run)
    np.testing.assert_array_equal(particles(sim, "Spray"), right)
    # the rebuilt one: bit-identical to a fresh Player of the new project seeked to the same time
    project, graph = load_live(path)
    fresh = Player(ctx, project, graph, SIZE, seed=3)
    try:
        fresh.seek(at, 1 / 60)
        for name in ("Jet", "Puff"):
            ours, theirs = particles(sim, name), particles(fresh.sim, name)
            assert len(ours) > 10
            np.testing.assert_array_equal(ours, theirs)
    finally:
        fresh.release()
    # and both play on from there
    session.player.step(0.1)
    after = particles(session.player.sim, "Spray")
    assert set(right["serial"][right["age"] < 2.8]) <= set(after["serial"])


def test_a_binding_edit_writes_parameter_words_only(session, compiled):
    sim = session.player.sim
    jet, spray = particles(sim, "Jet"), particles(sim, "Spray")
    save(path_of(session), project_text(jet_pool="1.5"))
    compiled.clear()
    outcome = session.reload([session.path])
    assert outcome.kind == "applied" and "bindings" in outcome.reason
    assert compiled == [] and outcome.rerun == [] and len(outcome.kept) == 2
    sim = session.player.sim
    assert sim.scene.value(emitter(sim, "Jet").item, "ParticleEmitter.MaximumAmount") == 300
    assert emitter(sim, "Jet").capacity >= 300
    for before, name in ((jet, "Jet"), (spray, "Spray")):
        now = particles(sim, name)
        np.testing.assert_array_equal(now["serial"], before["serial"])
        np.testing.assert_array_equal(now["age"], before["age"])
    session.player.draw()
    assert compiled == []


def test_a_shader_edit_recompiles_exactly_the_programs_that_include_it(ctx, session, compiled, tmp_path):
    sim = session.player.sim
    including = programs_with(sim, MARK.format(n=0))
    assert 1 <= including < len(sim.programs.sources())
    spray = particles(sim, "Spray")
    save(tmp_path / "shaders" / "swirl_push.glsl", push_text(1, up=2.0))
    compiled.clear()
    outcome = session.reload([str(tmp_path / "shaders" / "swirl_push.glsl")])
    session.player.draw()
    assert outcome.kind == "rebuilt" and outcome.rerun == ["Screens/Screen/Scene/Left"]
    assert compiled == ["compute"] * including and outcome.compiled == including
    sim = session.player.sim
    assert programs_with(sim, MARK.format(n=1)) == including and programs_with(sim, MARK.format(n=0)) == 0
    np.testing.assert_array_equal(particles(sim, "Spray"), spray)
    # the recompiled system re-run to the time: what a fresh run with the new shader gives
    project, graph = load_live(session.path)
    fresh = Player(ctx, project, graph, SIZE, seed=3)
    try:
        fresh.seek(session.player.time, 1 / 60)
        ours = particles(sim, "Jet")
        assert len(ours) > 10
        np.testing.assert_array_equal(ours, particles(fresh.sim, "Jet"))
    finally:
        fresh.release()


def test_a_shader_that_does_not_compile_is_a_broken_save_and_the_fix_resumes(session, compiled, tmp_path):
    push = tmp_path / "shaders" / "swirl_push.glsl"
    sim = session.player.sim
    jet = particles(sim, "Jet")
    save(push, BROKEN_PUSH)
    outcome = session.reload([str(push)])
    assert outcome.kind == "broken"
    # the driver's error, mapped by #line to the included file: the '}' after the missing ';'
    assert [(d.rule, d.span.file, d.span.line) for d in outcome.diagnostics] == [("shader.compile", str(push), 4)]
    assert session.problems == outcome.diagnostics
    assert session.player.sim is sim                                   # the last good state plays on
    np.testing.assert_array_equal(particles(sim, "Jet"), jet)
    session.player.step(0.1)
    assert particles(sim, "Jet")["serial"].max() > jet["serial"].max()
    save(push, push_text(2))
    outcome = session.reload([str(push)])
    assert outcome.kind == "rebuilt" and session.problems == []
    assert programs_with(session.player.sim, MARK.format(n=2)) >= 1


def test_a_texture_edit_reloads_that_texture_only(ctx, session, compiled, monkeypatch, tmp_path):
    made = []
    original = moderngl.Context.texture
    monkeypatch.setattr(moderngl.Context, "texture",
                        lambda self, *a, **k: (made.append(a[0]) if self is ctx else None, original(self, *a, **k))[1])
    player = session.player
    sim = player.sim
    jet = particles(sim, "Jet")
    player.draw()
    before = player.image().astype(int)
    write_texture(tmp_path / "textures" / "left.png", (32, 255, 32))      # red-orange -> green
    compiled.clear()
    outcome = session.reload([str(tmp_path / "textures" / "left.png")])
    assert outcome.kind == "reloaded" and outcome.assets == [str(tmp_path / "textures" / "left.png")]
    player.draw()
    after = player.image().astype(int)
    assert compiled == [] and made == [(16, 16)]                           # one texture made: that one
    assert session.player.sim is sim
    np.testing.assert_array_equal(particles(sim, "Jet"), jet)
    assert after[..., 1].sum() > before[..., 1].sum() and after[..., 0].sum() < before[..., 0].sum()


def path_of(session) -> Path:
    return Path(session.path)


def test_a_binding_that_needs_a_new_program_rebuilds_its_system_and_says_so(session, compiled):
    from kzplayer.commands.watch import describe
    pool = '<Property name="ParticleEmitter.MaximumAmount">600</Property>'
    # the inner angle was 0 everywhere and unbound: compiled in as a constant; bound, it is a parameter
    bound = project_text().replace(pool, pool + '\n<Binding target="Emission.InitialVelocityInnerAngle">'
                                   '{./Emission.InitialVelocityOuterAngle} * 0.5</Binding>')
    assert bound != project_text()
    jet = particles(session.player.sim, "Jet")
    save(path_of(session), bound)
    compiled.clear()
    outcome = session.reload([session.path])
    assert outcome.kind == "rebuilt" and "bindings" in outcome.reason
    assert outcome.rerun == ["Screens/Screen/Scene/Right"] and outcome.kept == ["Screens/Screen/Scene/Left"]
    assert compiled == ["compute"] * outcome.compiled and outcome.compiled >= 1
    said = describe(outcome)
    assert said.startswith("rebuilt Screens/Screen/Scene/Right (") and "bindings changed" in said
    np.testing.assert_array_equal(particles(session.player.sim, "Jet"), jet)


def test_a_custom_shader_that_does_not_compile_stops_the_first_load(ctx, tmp_path):
    from kzplayer.diagnostics import KzError
    path = write_project(tmp_path)
    (tmp_path / "shaders" / "swirl_push.glsl").write_text(BROKEN_PUSH)
    s = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, SIZE, seed=3))
    with pytest.raises(KzError) as info:
        s.start()
    assert [(d.rule, Path(d.span.file).name, d.span.line) for d in info.value.diagnostics] == \
        [("shader.compile", "swirl_push.glsl", 4)]
    assert s.player is None                         # what it made is released


MESH_PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Skin" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Camera name="Camera"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 2,0,14)</Property></Camera>
    <ParticleSystem name="System">
      <ParticleEmitter name="Skin">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Mesh</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Mesh">Meshes/Shape</Property>
        <Property name="Emission.Rate">300</Property>
        <Property name="Emission.Lifetime">5</Property>
        <Property name="Emission.InitialVelocityStrength">0</Property>
        <Property name="ParticleEmitter.MaximumAmount">2000</Property>
      </ParticleEmitter>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Meshes><Mesh name="Shape"><Property name="Mesh.File">shape.glb</Property></Mesh></Meshes>
</Project>
"""


def test_a_mesh_edit_rebuilds_that_meshs_table_only(ctx, tmp_path, compiled):
    import os

    import trimesh
    box = trimesh.creation.box(extents=(1, 1, 1))
    box.export(tmp_path / "shape.glb")
    path = tmp_path / "skin.kzm"
    path.write_text(MESH_PROJECT)
    s = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, SIZE, seed=3))
    s.start()
    try:
        s.player.step(0.5)
        sim = s.player.sim
        before = particles(sim, "Skin")
        assert len(before) > 50 and np.abs(before["position"]).max() <= 0.5 + 1e-5      # on the unit box
        box.apply_translation((4, 0, 0))
        box.export(tmp_path / ".shape.glb")
        os.replace(tmp_path / ".shape.glb", tmp_path / "shape.glb")
        compiled.clear()
        outcome = s.reload([str(tmp_path / "shape.glb")])
        assert outcome.kind == "reloaded" and outcome.assets == [str(tmp_path / "shape.glb")]
        assert compiled == [] and s.player.sim is sim
        np.testing.assert_array_equal(particles(sim, "Skin"), before)                # kept where they were
        s.player.step(0.2)
        now = particles(sim, "Skin")
        born = now[~np.isin(now["serial"], before["serial"])]
        assert len(born) > 20 and np.all(np.abs(born["position"][:, 0] - 4) <= 0.5 + 1e-5)   # on the moved box
    finally:
        s.release()


def test_a_value_that_makes_a_force_global_reaches_the_other_system(session):
    swirl = '<Property name="ParticleAffector.AffectorMaterial">Materials/Swirl</Property>'
    text = project_text()
    assert swirl in text
    sim = session.player.sim
    right = next(r for r in sim.runners if r.system.item.path.endswith("/Right"))
    assert not any(MARK.format(n=0) in s.text for s in right.code.sources.values())
    save(path_of(session), text.replace(swirl, swirl + '<Property name="ParticleAffector.Global">true</Property>'))
    outcome = session.reload([session.path])
    assert outcome.kind == "applied" and [e.name for e in outcome.edits] == ["ParticleAffector.Global"]
    # the Right system accepts global forces (the default): its step runs the Swirl now too
    assert [a.item.name for a in right.system.affectors] == ["Swirl", "Gravity"]
    assert any(MARK.format(n=0) in s.text for s in right.code.sources.values())


def test_a_system_removed_or_added_leaves_the_others_running(session, compiled):
    text = project_text()
    start = text.index('    <ParticleSystem name="Right">')
    end = text.index("</ParticleSystem>", start) + len("</ParticleSystem>\n")
    right = text[start:end]
    jet = particles(session.player.sim, "Jet")
    save(path_of(session), text[:start] + text[end:])                     # Right removed
    outcome = session.reload([session.path])
    assert (outcome.kind, outcome.kept, outcome.rerun) == ("applied", ["Screens/Screen/Scene/Left"], [])
    sim = session.player.sim
    assert [r.system.item.name for r in sim.runners] == ["Left"]
    np.testing.assert_array_equal(particles(sim, "Jet"), jet)
    save(path_of(session), text[:start] + right.replace('"Right"', '"Again"') + text[end:])   # another one added
    outcome = session.reload([session.path])
    assert (outcome.kind, outcome.kept, outcome.rerun) == \
        ("rebuilt", ["Screens/Screen/Scene/Left"], ["Screens/Screen/Scene/Again"])
    sim = session.player.sim
    np.testing.assert_array_equal(particles(sim, "Jet"), jet)
    assert len(particles(sim, "Spray")) > 20                              # re-run to the running time


STREAK = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Streaks" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Camera name="Camera"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,1,6)</Property></Camera>
    <ParticleSystem name="System">
      <ParticleEmitter name="Sparks">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">300</Property>
        <Property name="Emission.InitialVelocityStrength">3</Property>
        <Property name="ParticleEmitter.MaximumAmount">800</Property>
        <Property name="ParticleEmitter.ParticleMaterial">Materials/Streak</Property>
      </ParticleEmitter>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Streak" slot="Particle" vertex="shaders/spark_streak.vert.glsl"
                  fragment="shaders/spark_streak.frag.glsl" geometry="billboard"
                  reads="ColorOverLife.StartColor ColorOverLife.EndColor">
      <PropertyType name="Streak.Length" type="float" default="0.03" min="0"/>
      <PropertyType name="Streak.Width" type="float" default="0.025" min="0"/>
    </MaterialType>
  </Materials>
</Project>
"""


def test_a_rendering_shader_that_does_not_compile_is_a_broken_save(ctx, tmp_path, compiled):
    import shutil
    (tmp_path / "shaders").mkdir()
    for name in ("spark_streak.vert.glsl", "spark_streak.frag.glsl"):
        shutil.copy(Path(__file__).parent / "data" / name, tmp_path / "shaders" / name)
    path = tmp_path / "streaks.kzm"
    path.write_text(STREAK)
    s = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, SIZE, seed=3))
    s.start()
    try:
        s.player.step(0.4)
        s.player.draw()
        before = s.player.image()
        assert before.any()
        frag = tmp_path / "shaders" / "spark_streak.frag.glsl"
        good = frag.read_text()
        save(frag, good.rstrip("\n") + "\nfloat broken = undeclared_name;\n")
        compiled.clear()
        outcome = s.reload([str(frag)])
        assert outcome.kind == "broken"
        line = len(good.rstrip("\n").splitlines()) + 1
        assert [(d.rule, d.span.file, d.span.line) for d in outcome.diagnostics] == [("shader.compile", str(frag), line)]
        s.player.draw()                           # the last good programs draw on, nothing left out
        assert s.player.renderer.problems == []
        np.testing.assert_array_equal(s.player.image(), before)
        save(frag, good)
        compiled.clear()
        outcome = s.reload([str(frag)])
        assert outcome.kind == "reloaded" and s.problems == []
        assert compiled and set(compiled) == {"render"}          # the streak's programs, no simulation one
    finally:
        s.release()
