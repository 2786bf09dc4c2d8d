"""A triangle budget for mesh particles (issue 21), as for collision meshes: every particle
draws the whole ParticleMesh, so a mesh of more than PARTICLE_MESH_TRIANGLE_BUDGET
triangles, or one whose full pool draws more than PARTICLE_MESH_DRAW_BUDGET triangles, is
drawn as billboards with a mesh.particle-budget warning (exit 0), never a draw of billions
of triangles. The meshes are made here."""
from __future__ import annotations

import numpy as np
import trimesh

from kzplayer.gpu.mesh_data import PARTICLE_MESH_DRAW_BUDGET, PARTICLE_MESH_TRIANGLE_BUDGET
from kzplayer.render.frame import particle_mesh_budget
from tests.hostile import kzplayer

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Meshy" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="System">
      <ParticleEmitter name="Rocks">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">600</Property>
        <Property name="ParticleEmitter.MaximumAmount">{pool}</Property>
        <Property name="ParticleEmitter.ParticleMaterial">ParticlesMesh</Property>
        <Property name="ParticleEmitter.ParticleMesh">Meshes/Rock</Property>
      </ParticleEmitter>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Meshes><Mesh name="Rock"><Property name="Mesh.File">rock.glb</Property></Mesh></Meshes>
</Project>
"""


def grid(triangles: int) -> trimesh.Trimesh:
    """A flat strip of `triangles` triangles."""
    quads = -(-triangles // 2)
    x = np.arange(quads + 1, dtype=np.float32) / quads
    vertices = np.concatenate([np.stack([x, np.zeros_like(x), np.zeros_like(x)], 1),
                               np.stack([x, np.full_like(x, 0.1), np.zeros_like(x)], 1)])
    i = np.arange(quads)
    top = i + quads + 1
    faces = np.concatenate([np.stack([i, i + 1, top], 1), np.stack([i + 1, top + 1, top], 1)])[:triangles]
    return trimesh.Trimesh(vertices, faces, process=False)


def test_the_budgets():
    assert particle_mesh_budget("E", PARTICLE_MESH_TRIANGLE_BUDGET, 1) is None
    assert "more than a particle's mesh may have" in particle_mesh_budget("E", PARTICLE_MESH_TRIANGLE_BUDGET + 1, 1)
    assert particle_mesh_budget("E", 1000, PARTICLE_MESH_DRAW_BUDGET // 1000) is None
    assert "more than one emitter's draw may be" in particle_mesh_budget("E", 1000, PARTICLE_MESH_DRAW_BUDGET // 1000 + 1)


def _play(tmp_path, triangles: int, pool: int):
    grid(triangles).export(tmp_path / "rock.glb")
    (tmp_path / "m.kzm").write_text(PROJECT.format(pool=pool))
    return kzplayer("play", "m.kzm", "--frames", 4, "--size", "64x64", "--output", "m.png", cwd=tmp_path,
                    timeout=240).expect(0)


def test_a_mesh_past_the_budget_is_drawn_as_billboards(tmp_path):
    ran = _play(tmp_path, 2 * PARTICLE_MESH_TRIANGLE_BUDGET, 100)
    assert "[mesh.particle-budget]" in ran.out and "131,072 triangles" in ran.out, ran.out[-2000:]
    assert "m.kzm:" in ran.out and (tmp_path / "m.png").is_file()
    assert ran.peak_mib < 1500 and ran.seconds < 200


def test_a_mesh_times_its_pool_past_the_budget_is_drawn_as_billboards(tmp_path):
    ran = _play(tmp_path, 20_000, 5_000)               # 100,000,000 triangles a frame
    assert "[mesh.particle-budget]" in ran.out and "100,000,000 triangles a frame" in ran.out, ran.out[-2000:]


def test_a_mesh_within_the_budget_is_drawn_as_a_mesh(tmp_path):
    ran = _play(tmp_path, 320, 100)
    assert "mesh.particle-budget" not in ran.out
