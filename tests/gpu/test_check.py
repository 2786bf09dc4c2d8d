"""check_material_shaders: the compile check `kzplayer validate` runs on custom materials."""
from __future__ import annotations

from pathlib import Path

from kzplayer.gpu import check_material_shaders

from .conftest import burst_emitter, custom_material, make_project

GOOD = "uniform float Lift_By;\nvoid affectParticle(uint index) {\n    addParticleAcceleration(index, vec3(0.0, Lift_By, 0.0));\n}\n"
BAD = "// lift\nvoid affectParticle(uint index) {\n    addParticleAcceleration(index, vec3(0.0, lift, 0.0));\n}\n"


def _project(tmp_path, body):
    lift = custom_material(tmp_path, "Lift", "Affector", body, {"Lift.By": ("float", "2")})
    return make_project(emitters={"E": burst_emitter("Emitter_Point", 1)}, materials=[lift],
                        path=str(tmp_path / "fx.kzm"))


def test_a_good_custom_shader_gives_no_diagnostics(ctx, tmp_path):
    assert check_material_shaders(_project(tmp_path, GOOD), ctx) == []


def test_a_broken_custom_shader_is_reported_at_its_file_line_and_column(ctx, tmp_path):
    diags = check_material_shaders(_project(tmp_path, BAD), ctx)
    undeclared = [d for d in diags if "lift" in d.message and "undeclared" in d.message]
    assert undeclared and all(d.rule == "shader.compile" for d in diags)
    d = undeclared[0]
    assert Path(d.span.file) == (tmp_path / "shaders" / "Lift.glsl").resolve()
    assert (d.span.line, d.span.column) == (3, BAD.splitlines()[2].index("lift") + 1)


def test_a_project_without_custom_materials_needs_no_context(monkeypatch):
    def no_context(**_):
        raise AssertionError("a context was made")
    monkeypatch.setattr("kzplayer.gpu.context.create_context", no_context)
    assert check_material_shaders(make_project(emitters={"E": burst_emitter("Emitter_Point", 1)})) == []
