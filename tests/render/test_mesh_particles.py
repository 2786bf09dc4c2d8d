"""ParticleEmitter.ParticleMesh: a mesh per live particle, instanced with an indirect draw
whose instance count is the live count, scaled by the particle's scale, turned by its
rotation, lit by its own normals when asked."""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh
from scipy import ndimage

from kzplayer.gpu.views import RecordBuffers
import kzplayer
from kzplayer.bindings import resolve
from kzplayer.gpu import Simulation
from kzplayer.meshes import load_mesh
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.lights import SceneLights
from kzplayer.render.renderer import Renderer

from tests.render.helpers import DIST, FOCAL, H, W, camera, draw, particles


@pytest.fixture
def renderer(ctx):
    r = Renderer(ctx, (W, H))
    yield r
    r.release()


@pytest.fixture(scope="module")
def bar(tmp_path_factory):
    """A 1 x 0.2 x 0.2 m bar along X, flat-shaded."""
    box = trimesh.creation.box(extents=(1.0, 0.2, 0.2))
    box.unmerge_vertices()
    path = tmp_path_factory.mktemp("mesh") / "bar.glb"
    box.export(path)
    return load_mesh(path)


def lit_box(img):
    rows = np.flatnonzero(img.max(axis=(1, 2)) > 0)
    cols = np.flatnonzero(img.max(axis=(0, 2)) > 0)
    return cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1


def test_one_mesh_per_live_particle_instanced_by_the_live_count(renderer, ctx, bar):
    alive = [(x, 0, 0) for x in np.linspace(-4.5, 4.5, 7)]
    records = particles(alive[:1] + [(0, 3, 0)] + alive[1:3] + [(1, 3, 0)] + alive[3:6] + [(2, 3, 0)] + alive[6:], scale=1.0)
    records["flags"][[1, 4, 8]] = 0
    img = draw(renderer, ctx, records, mesh=bar, blend="Opaque")
    args = renderer.live_list("e").read_args()
    assert args[5] == bar.indices.size and args[6] == 7            # DrawElementsIndirect: indices, instances
    _, blobs = ndimage.label(img.max(axis=2) > 0)
    assert blobs == 7


def test_scale_stretches_and_rotation_turns_the_mesh(renderer, ctx, bar):
    one_metre = FOCAL / DIST * H / 2            # pixels of a metre at the origin
    plain = lit_box(draw(renderer, ctx, particles([(0, 0, 0)], scale=1.0), mesh=bar, blend="Opaque"))
    assert plain[0] == pytest.approx(1.0 * one_metre, abs=1.5) and plain[1] == pytest.approx(0.2 * one_metre, abs=1.5)
    records = particles([(0, 0, 0)], scale=1.0)
    records["scale"] = (3.0, 1.0, 1.0)
    wide = lit_box(draw(renderer, ctx, records, mesh=bar, blend="Opaque"))
    assert wide[0] == pytest.approx(3.0 * one_metre, abs=1.5) and wide[1] == plain[1]
    records["rotation"] = (0.0, 0.0, math.pi / 2)            # a quarter turn about Z: upright
    upright = lit_box(draw(renderer, ctx, records, mesh=bar, blend="Opaque"))
    assert upright[1] == pytest.approx(3.0 * one_metre, abs=1.5) and upright[0] == plain[1]


def test_a_lit_mesh_is_shaded_by_its_own_normals(renderer, ctx, bar):
    lights = SceneLights(directional=[(np.array([0.0, -1.0, 0.0]), np.array([1.0, 1.0, 1.0]))])
    records = particles([(0, 0, 0)], scale=2.0)
    cam = camera(distance=6.0, pitch_deg=-35.0)                # from above: top and front faces
    values = {"Particle.ReceiveLight": True, "Particle.AmbientColor": (0, 0, 0, 1), "ParticlesOverLife.OpacityEnd": 1.0, "ColorOverLife.EndColor": (1, 1, 1, 1)}

    def shot(lit):
        from kzplayer.render.frame import Frame
        from tests.render.helpers import emitter
        buf = RecordBuffers(ctx, records)
        try:
            renderer.draw(Frame(emitters=[emitter(buf, 1, material="ParticlesColorOverLife", mesh=bar, blend="Opaque",
                                                  values={**values, "Particle.ReceiveLight": lit})],
                                lights=lights), cam)
            return renderer.read_linear()
        finally:
            buf.release()
    covered = shot(False).max(axis=2) > 0
    img = shot(True)
    shades = np.unique(np.round(img[covered][:, 0], 3))
    # the top face is lit full (N.L = 1), the front face not at all (N.L = 0): two flat shades
    assert shades.max() == pytest.approx(1.0, abs=2e-3) and shades.min() == pytest.approx(0.0, abs=2e-3)


def test_a_simulated_mesh_emitter_draws_as_many_meshes_as_it_has_live_particles(ctx, tmp_path):
    box = trimesh.creation.icosphere(subdivisions=1, radius=0.1)
    (tmp_path / "rock.glb").write_bytes(box.export(file_type="glb"))
    (tmp_path / "p.kzm").write_text("""<?xml version="1.0" encoding="utf-8"?>
<Project name="Rocks" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene"><ParticleSystem name="System">
    <ParticleEmitter name="Rocks">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Sphere</Property>
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
      <Property name="ParticleEmitter.ParticleMesh">Meshes/Rock</Property>
      <Property name="ParticleEmitter.MaximumAmount">500</Property>
      <Property name="Emission.Rate">600</Property>
      <Property name="Emission.Lifetime">0.3</Property>
    </ParticleEmitter>
  </ParticleSystem></Scene></Screen></Screens>
  <Meshes><Mesh name="Rock"><Property name="Mesh.File">rock.glb</Property></Mesh></Meshes>
</Project>""")
    project = kzplayer.load(str(tmp_path / "p.kzm"))
    graph = resolve(project)
    sim = Simulation(ctx, project, graph, seed=3)
    renderer = Renderer(ctx, (64, 64))
    builder = FrameBuilder(project, graph)
    try:
        for _ in range(5):
            sim.step_frame(1 / 30)
            frame = builder.build(sim)
            assert frame.emitters[0].mesh is not None and frame.emitters[0].opaque   # solid by default
            renderer.draw(frame, camera(distance=5.0))
            alive = sim.stats[sim.emitters[0].path].alive
            assert 0 < alive and renderer.live_list(sim.emitters[0].path).read_args()[6] == alive
        assert builder.problems == []
    finally:
        renderer.release()
        sim.release()
