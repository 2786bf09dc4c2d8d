"""mesh.particle-budget's case of a mesh past PARTICLE_MESH_TRIANGLE_BUDGET, made here (a
mesh of 131,072 triangles is too large a file to keep among the data cases), and play and
validate agreeing on both budgets: the same figures at the same ParticleMesh reference."""
from __future__ import annotations

from kzplayer.gpu.mesh_data import PARTICLE_MESH_TRIANGLE_BUDGET
from kzplayer.validate import validate_paths
from tests.hardening.test_particle_mesh_budget import PROJECT as HARDENING_PROJECT, grid
from tests.hostile import kzplayer

PROJECT = HARDENING_PROJECT.replace("ParticlesMesh", "ParticlesColorOverLife")     # a stock mesh material

# PROJECT's ParticleMesh value: line 11, after `        <Property name="ParticleEmitter.ParticleMesh">`
LINE, COLUMN = 11, 55


def _validate(tmp_path, triangles: int, pool: int):
    grid(triangles).export(tmp_path / "rock.glb")
    (tmp_path / "m.kzm").write_text(PROJECT.format(pool=pool))
    return validate_paths([str(tmp_path / "m.kzm")])


def test_a_mesh_past_the_triangle_budget_is_a_warning_at_the_reference(tmp_path):
    result = _validate(tmp_path, 2 * PARTICLE_MESH_TRIANGLE_BUDGET, 100)
    [d] = [d for d in result.diagnostics if d.rule == "mesh.particle-budget"]
    assert (d.code, d.severity.name, d.span.line, d.span.column) == ("KZ706", "WARNING", LINE, COLUMN)
    assert "131,072 triangles" in d.message and "65,536" in d.message
    ran = kzplayer("validate", "m.kzm", cwd=tmp_path, timeout=120)
    assert ran.code == 0 and "[mesh.particle-budget]" in ran.out, ran.out   # a warning: exit 0


def test_validate_says_what_play_says(tmp_path):
    result = _validate(tmp_path, 20_000, 5_000)            # 100,000,000 triangles a frame
    [d] = [d for d in result.diagnostics if d.rule == "mesh.particle-budget"]
    assert (d.span.line, d.span.column) == (LINE, COLUMN)
    played = kzplayer("play", "m.kzm", "--frames", 1, "--size", "32x32", "--output", "m.png", cwd=tmp_path,
                      timeout=240).expect(0)
    assert d.message in played.out and f"m.kzm:{LINE}:{COLUMN}" in played.out, played.out[-2000:]


def test_a_mesh_within_both_budgets_is_clean(tmp_path):
    result = _validate(tmp_path, 320, 100)
    assert not [d for d in result.diagnostics if d.rule == "mesh.particle-budget"]
