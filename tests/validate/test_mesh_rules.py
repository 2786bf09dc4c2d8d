"""mesh.collider-budget's failing case, made here: a collision mesh over the budget is a
file too large to keep among the data cases (an 81,920-triangle sphere)."""
from __future__ import annotations

import trimesh

from kzplayer.validate import validate_paths

CASE = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Case" format="1">
  <Screens>
    <Screen name="Screen">
      <Scene name="Scene">
        <ParticleSystem name="Particle System">
          <ParticleCollider name="Terrain">
            <Property name="ParticleCollider.ColliderMaterial">Collider_Mesh</Property>
            <Property name="Collider.Mesh">Meshes/Scan</Property>
          </ParticleCollider>
        </ParticleSystem>
      </Scene>
    </Screen>
  </Screens>
  <Meshes>
    <Mesh name="Scan">
      <Property name="Mesh.File">scan.glb</Property>
    </Mesh>
  </Meshes>
</Project>
"""


def test_a_collision_mesh_over_the_budget_is_an_error_at_the_reference(tmp_path):
    trimesh.creation.icosphere(subdivisions=6).export(tmp_path / "scan.glb")
    (tmp_path / "fx.kzm").write_text(CASE)
    result = validate_paths([str(tmp_path / "fx.kzm")])
    [d] = [d for d in result.diagnostics if d.rule == "mesh.collider-budget"]
    assert (d.code, d.severity.name, d.span.line, d.span.column) == ("KZ704", "ERROR", 9, 44)
    assert "81,920 triangles" in d.message and "65,536" in d.message
    # and Collider_Mesh's note: NeL's collision mesh, not a Kanzi stock collider (issue 20)
    assert sorted(x.rule for x in result.diagnostics) == ["material.kzplayer-only", "mesh.collider-budget"]
