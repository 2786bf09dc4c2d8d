"""Custom rendering materials: a `<MaterialType slot="Particle" vertex=... fragment=...>` of
the project, its properties reaching the shaders as uniforms (a spark streak, tests/render/data/: what
sample 02 drew before the stock Particles_Stretched replaced it), an
error reported at the line of the user's own file, and the catalog's geometry honoured."""
from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.render.materials import resolve_render_material, stock_material
from kzplayer.render.renderer import Renderer
from pathlib import Path

from tests.render.helpers import FOCAL, DIST, H, W, draw, particles

MATERIAL = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Custom" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene"><ParticleSystem name="System">
    <ParticleEmitter name="Sparks">
      <Property name="ParticleEmitter.ParticleMaterial">Materials/Streak</Property>
    </ParticleEmitter>
  </ParticleSystem></Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Streak" slot="Particle" vertex="shaders/{vertex}" fragment="shaders/{fragment}"
                  geometry="billboard" reads="ColorOverLife.StartColor ColorOverLife.EndColor">
      <PropertyType name="Streak.Length" type="float" default="0.03" min="0"/>
      <PropertyType name="Streak.Width" type="float" default="0.025" min="0"/>
    </MaterialType>
  </Materials>
</Project>"""


SHADERS = Path(__file__).parent / "data"


def project_with(tmp_path, vertex="spark_streak.vert.glsl", fragment="spark_streak.frag.glsl"):
    """A project (tmp_path/p.kzm) whose one emitter draws with the custom Streak material."""
    (tmp_path / "shaders").mkdir(exist_ok=True)
    for name in ("spark_streak.vert.glsl", "spark_streak.frag.glsl"):
        shutil.copy(SHADERS / name, tmp_path / "shaders" / name)
    (tmp_path / "p.kzm").write_text(MATERIAL.format(vertex=vertex, fragment=fragment))
    return kzplayer.load(str(tmp_path / "p.kzm"))


def test_a_custom_material_is_its_vertex_and_fragment_pair(tmp_path):
    project = project_with(tmp_path)
    mat = resolve_render_material(project, project.catalog, "Materials/Streak", "here")
    assert mat.custom and mat.geometry == ("billboard",)
    assert mat.vertex.path == (tmp_path / "shaders" / "spark_streak.vert.glsl").resolve()
    assert {"Streak.Length", "Streak.Width", "ColorOverLife.StartColor"} <= set(mat.reads)


@pytest.mark.parametrize("length", [0.05, 0.1])
def test_its_properties_are_its_uniforms(ctx, tmp_path, length):
    project = project_with(tmp_path)
    mat = resolve_render_material(project, project.catalog, "Materials/Streak", "here")
    records = particles([(0, 0, 0)], scale=1.0)
    records["velocity"] = (20.0, 0.0, 0.0)             # 20 m/s along +X
    r = Renderer(ctx, (W, H))
    try:
        img = draw(r, ctx, records, material=mat, values={"Streak.Length": length, "Streak.Width": 0.2,
                                                           "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)})
    finally:
        r.release()
    cols = np.flatnonzero(img.max(axis=(0, 2)) > 0)
    rows = np.flatnonzero(img.max(axis=(1, 2)) > 0)
    metre = FOCAL / DIST * H / 2
    # from the head back along the velocity: 20 m/s x Length seconds; 0.2 m across
    assert cols[-1] - cols[0] + 1 == pytest.approx(20 * length * metre, abs=2)
    assert cols[-1] + 0.5 == pytest.approx(W / 2, abs=1.5)          # the head is at the particle
    assert rows[-1] - rows[0] + 1 <= math.ceil(0.2 * metre) + 1


def test_a_compile_error_points_at_the_users_file_and_line(ctx, tmp_path):
    project = project_with(tmp_path)
    broken = (tmp_path / "shaders" / "spark_streak.frag.glsl").read_text().replace("float along =", "float along = undefinedThing +")
    (tmp_path / "shaders" / "broken.frag.glsl").write_text(broken)
    project = project_with(tmp_path, fragment="broken.frag.glsl")
    mat = resolve_render_material(project, project.catalog, "Materials/Streak", "here")
    r = Renderer(ctx, (W, H))
    try:
        with pytest.raises(KzError) as exc:
            r.programs.render(mat.vertex, mat.fragment)
    finally:
        r.release()
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if "undefinedThing" in text)
    d = exc.value.diagnostics[0]
    assert (d.rule, d.span.file, d.span.line) == ("shader.compile", str(tmp_path / "shaders" / "broken.frag.glsl"), line)
    assert "undefinedThing" in d.message


def test_validate_compiles_custom_rendering_materials(tmp_path):
    from kzplayer.validate import validate_paths
    project_with(tmp_path)
    assert [d for d in validate_paths([str(tmp_path / "p.kzm")]).diagnostics if d.rule == "shader.compile"] == []
    (tmp_path / "shaders" / "spark_streak.vert.glsl").write_text("#version 430\nvoid main() { gl_Position = nope; }\n")
    found = [d for d in validate_paths([str(tmp_path / "p.kzm")]).diagnostics if d.rule == "shader.compile"]
    assert found and found[0].span.file.endswith("spark_streak.vert.glsl") and found[0].span.line == 2


TRAIL = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Custom trail" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene"><ParticleSystem name="System">
    <ParticleEmitter name="Comets">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
      <Property name="ParticleEmitter.ParticleMaterial">Materials/Comet</Property>
      <Property name="ParticleEmitter.MaximumAmount">4</Property>
      <Property name="Emission.Rate">0</Property>
      <Property name="Emission.ImpulseAtCycleStart">1</Property>
      <Property name="Emission.Lifetime">10</Property>
      <Property name="Emission.InitialVelocityDirection">(1, 0, 0)</Property>
      <Property name="Emission.InitialVelocityOuterAngle">0</Property>
      <Property name="Emission.InitialVelocityStrength">6</Property>
    </ParticleEmitter>
  </ParticleSystem></Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Comet" slot="Particle" vertex="shaders/comet.vert.glsl" fragment="shaders/comet.frag.glsl"
                  geometry="trail" history="{history}" reads="Line.Width"/>
  </Materials>
</Project>"""


@pytest.mark.parametrize("history", ["6", "Trail.Length"])
def test_a_custom_material_draws_a_stock_geometry_through_the_history_it_asks_for(ctx, tmp_path, history):
    """geometry="trail" history="6": the simulation keeps 6 positions per particle for it and
    the renderer draws its 2 x 6 vertices per particle with the stock trail's uniforms."""
    from kzplayer.bindings import resolve
    from kzplayer.render.frame import FrameBuilder
    from kzplayer.gpu import Simulation
    from kzplayer.render.camera import Camera
    from kzplayer.resources import shader_dir
    (tmp_path / "shaders").mkdir()
    shutil.copy(shader_dir() / "render" / "Particles_GradientLine.vert.glsl", tmp_path / "shaders" / "comet.vert.glsl")
    (tmp_path / "shaders" / "comet.frag.glsl").write_text(
        '#version 430\n#include "render/particle_fragment.glsl"\nin vec4 v_color;\n'
        'void main() { kzWriteParticle(vec4(v_color.rgb, 1.0)); }\n')
    (tmp_path / "p.kzm").write_text(TRAIL.format(history=history))
    project = kzplayer.load(str(tmp_path / "p.kzm"))
    sim = Simulation(ctx, project, resolve(project))
    r = Renderer(ctx, (64, 36))
    try:
        want = 6 if history == "6" else 16         # Trail.Length's default
        assert sim.emitters[0].history == want
        for _ in range(8):
            sim.step()
        world = np.eye(4)
        world[:3, 3] = (0.5, 0.0, 4.0)
        r.draw(FrameBuilder(project, sim.graph).build(sim), Camera(world))
        assert r.live_list(sim.emitters[0].path).read_args()[0] == 2 * want
        assert (r.read().max(axis=2) > 40).sum() > 10
    finally:
        r.release()
        sim.release()


def test_a_custom_trail_that_does_not_compile_is_drawn_as_billboards_and_said_once(ctx, tmp_path):
    """The renderer leaves a broken custom material out: the emitter draws as ParticlesDefault
    billboards (4 vertices a particle, not the trail's 2 x 6), its errors kept once over
    frames, the failed compile not tried again."""
    from kzplayer.bindings import resolve
    from kzplayer.gpu import Simulation
    from kzplayer.render.camera import Camera
    from kzplayer.render.frame import FrameBuilder
    (tmp_path / "shaders").mkdir()
    (tmp_path / "shaders" / "comet.vert.glsl").write_text(
        '#version 430\n#include "render/particle_vertex.glsl"\nvoid main() {\n    gl_Position = nowhere;\n}\n')
    (tmp_path / "shaders" / "comet.frag.glsl").write_text(
        '#version 430\n#include "render/particle_fragment.glsl"\nvoid main() { kzWriteParticle(vec4(1.0)); }\n')
    (tmp_path / "p.kzm").write_text(TRAIL.format(history="6"))
    project = kzplayer.load(str(tmp_path / "p.kzm"))
    sim = Simulation(ctx, project, resolve(project))
    r, reference = Renderer(ctx, (64, 36)), Renderer(ctx, (64, 36))
    builds = []
    real_build = r.programs.render

    def counted(vertex, fragment, defines=None):
        builds.append(str(getattr(vertex, "path", vertex)))
        return real_build(vertex, fragment, defines)
    r.programs.render = counted
    try:
        for _ in range(8):
            sim.step()
        world = np.eye(4)
        world[:3, 3] = (0.5, 0.0, 4.0)
        frames = FrameBuilder(project, sim.graph)
        for _ in range(2):
            r.draw(frames.build(sim), Camera(world))
        assert [(d.rule, Path(d.span.file).name, d.span.line) for d in r.problems] == [("shader.compile", "comet.vert.glsl", 4)]
        assert "nowhere" in r.problems[0].message and "drawn with ParticlesDefault" in r.problems[0].hint
        assert r.live_list(sim.emitters[0].path).read_args()[0] == 4          # billboards
        assert sum(name.endswith("comet.vert.glsl") for name in builds) == 2   # tried each frame, compiled once
        picture = r.read()
        frame = frames.build(sim)
        frame.emitters[0].material = stock_material(project.catalog)
        reference.draw(frame, Camera(world))
        assert (picture.max(axis=2) > 40).sum() >= 2 and np.array_equal(picture, reference.read())
    finally:
        r.release()
        reference.release()
        sim.release()


def test_a_shader_pair_outside_the_project_is_never_read(tmp_path):
    from kzplayer.validate import validate_paths
    (tmp_path / "secret.glsl").write_text("TOP SECRET LINE\n")
    inner = tmp_path / "p"
    inner.mkdir()
    project_with(inner)
    (inner / "p.kzm").write_text(MATERIAL.format(vertex="../../secret.glsl", fragment="spark_streak.frag.glsl"))
    project, _ = kzplayer.project.loader.load_project(str(inner / "p.kzm"))
    with pytest.raises(KzError) as exc:
        resolve_render_material(project, project.catalog, "Materials/Streak", "here")
    assert exc.value.diagnostics[0].rule == "path.outside-project"
    found = validate_paths([str(inner / "p.kzm")]).diagnostics
    assert [d.rule for d in found if d.severity == "error"] == ["path.outside-project"]     # compiled and shown before
    assert not any("TOP SECRET" in (d.message + str(d.span)) for d in found)


def test_its_includes_read_the_project_folder_and_nothing_outside(ctx, tmp_path):
    """As a simulation material's: an #include may reach the project folder (beside the
    project file), never a file outside it."""
    (tmp_path / "p").mkdir()
    project = project_with(tmp_path / "p")
    (tmp_path / "p" / "common.glsl").write_text("const float KZ_TEST_WIDTH = 0.2;\n")
    (tmp_path / "secret.glsl").write_text("TOP SECRET LINE\n")
    frag = tmp_path / "p" / "shaders" / "spark_streak.frag.glsl"
    original = frag.read_text()
    r = Renderer(ctx, (W, H))
    try:
        frag.write_text(original.replace("void main", '#include "../common.glsl"\nvoid main', 1))
        mat = resolve_render_material(project, project.catalog, "Materials/Streak", "here")
        r.programs.render(mat.vertex, mat.fragment)               # compiles
        frag.write_text(original.replace("void main", '#include "../../secret.glsl"\nvoid main', 1))
        with pytest.raises(KzError) as exc:
            r.programs.render(mat.vertex, mat.fragment, {"KZ_OTHER": 1})
    finally:
        r.release()
    d = exc.value.diagnostics[0]
    assert d.rule == "shader.compile" and "leads outside the project folder" in d.message
    assert "TOP SECRET" not in d.message
