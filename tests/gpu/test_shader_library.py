"""The shader preprocessor (#include, #line mapping, defines) and driver errors reported in
the file and line the user wrote, for stock includes and custom materials."""
from __future__ import annotations

from pathlib import Path

import pytest

from kzplayer.diagnostics import KzError, Span
from kzplayer.gpu.preprocessor import LINE_STRIDE, preprocess
from kzplayer.gpu.shader_errors import compile_compute, parse_log
from kzplayer.project.model import Item

from .conftest import burst_emitter, make_project

DATA = Path(__file__).parent / "data" / "preprocessor"


def test_output_matches_golden_file():
    source = preprocess(DATA / "main.glsl", {"N": 3, "SCALE": 0.5, "FAST": True}, display_name="main.glsl")
    assert source.text == (DATA / "main.expected.glsl").read_text()
    assert source.files[0] == "main.glsl"
    assert Path(source.files[1]).name == "a.glsl" and Path(source.files[2]).name == "b.glsl"


def test_version_is_added_when_missing(tmp_path):
    f = tmp_path / "x.glsl"
    f.write_text("void main() {}\n")
    assert preprocess(f).text.splitlines()[:2] == ["#version 430", "#line 1 0"]


def test_include_cycle_is_an_error_at_the_include_line():
    with pytest.raises(KzError) as err:
        preprocess(DATA / "lib" / "cycle_a.glsl")
    d = err.value.diagnostics[0]
    assert d.rule == "shader.compile" and "cycle" in d.message
    assert Path(d.span.file).name == "cycle_b.glsl" and (d.span.line, d.span.column) == (2, 1)


def test_missing_include_is_reported_where_it_is_written(tmp_path):
    f = tmp_path / "x.glsl"
    f.write_text('void f();\n  #include "nowhere.glsl"\n')
    with pytest.raises(KzError) as err:
        preprocess(f, display_name="x.glsl")
    d = err.value.diagnostics[0]
    assert d.span == Span("x.glsl", 2, 3, 2, 26) and "nowhere.glsl" in d.message


def test_library_includes_resolve_from_anywhere(tmp_path):
    f = tmp_path / "x.glsl"
    f.write_text('#include "Particles/affector_falloff.glsl"\n')
    source = preprocess(f)
    assert "float sphereFalloff(float distance, float radius, float falloffExponent)" in source.text
    assert source.files[1] == "shaders/Particles/affector_falloff.glsl"


@pytest.mark.parametrize("log, file, line, column, message", [
    ("0:12(3): error: `foo' undeclared", "<prelude>", 12, 3, "`foo' undeclared"),           # Mesa
    (f"0:{LINE_STRIDE + 12}(3): error: `foo' undeclared", "swirl.glsl", 12, 3, "`foo' undeclared"),      # Mesa, K lost
    ('1(12) : error C1008: undefined variable "foo"', "swirl.glsl", 12, 1, 'undefined variable "foo"'),  # NVIDIA
    (f"ERROR: 1:{LINE_STRIDE + 12}: 'foo' : undeclared identifier", "swirl.glsl", 12, 1, "'foo' : undeclared identifier"),  # AMD
])
def test_vendor_logs_map_to_files_and_lines(log, file, line, column, message):
    from kzplayer.gpu.preprocessor import Source
    source = Source("", {0: "<prelude>", 1: "swirl.glsl"})
    [d] = parse_log("GLSL Compiler failed\n\ncompute_shader\n==============\n" + log, source)
    assert (d.span.file, d.span.line, d.span.column, d.message) == (file, line, column, message)


def test_without_a_column_the_caret_goes_to_the_start_of_the_line():
    from kzplayer.gpu.preprocessor import Source
    source = Source("", {1: "swirl.glsl"}, {1: ["// swirl", "void f() {", "    x = 1;"]})
    [d] = parse_log('1(3) : error C1008: undefined variable "x"', source)
    assert (d.span.line, d.span.column) == (3, 5)


def test_warnings_are_not_errors():
    from kzplayer.gpu.preprocessor import Source
    diags = parse_log("0:3(1): warning: unused\n0:4(2): error: bad", Source("", {0: "a.glsl"}))
    assert [(d.span.line, d.message) for d in diags] == [(4, "bad")]


def test_driver_error_in_an_included_file_points_into_it(ctx, tmp_path):
    (tmp_path / "helper.glsl").write_text("// helper\nfloat helper() {\n    return missing_name;\n}\n")
    main = tmp_path / "main.glsl"
    main.write_text('#include "helper.glsl"\nlayout(local_size_x = 1) in;\nvoid main() { helper(); }\n')
    with pytest.raises(KzError) as err:
        compile_compute(ctx, preprocess(main))
    d = err.value.diagnostics[0]
    assert Path(d.span.file).name == "helper.glsl" and d.span.line == 3
    assert "missing_name" in d.message


def _swirl_project(tmp_path, body: str):
    (tmp_path / "shaders").mkdir()
    (tmp_path / "shaders" / "swirl.glsl").write_text(body)
    swirl = Item("MaterialType", "Swirl", attributes={"name": "Swirl", "slot": "Affector",
                                                      "shader": "shaders/swirl.glsl"})
    strength = Item("PropertyType", "Swirl.Strength",
                    attributes={"name": "Swirl.Strength", "type": "float", "default": "2"})
    swirl.add_child(strength)
    emitter = burst_emitter("Emitter_Point", 8, **{"Emission.InitialVelocityStrength": 0.0})
    return make_project(emitters={"E": emitter},
                        affectors={"Swirl": {"ParticleAffector.AffectorMaterial": "Swirl"}},
                        materials=[swirl], path=str(tmp_path / "effect.kzm"))


def test_custom_material_error_is_reported_at_its_own_file_and_line(simulate, tmp_path):
    body = ("// Swirl: a custom affector\n"
            "void affectParticle(uint index) {\n"
            "    vec3 p = getParticlePosition(index);\n"
            "    addParticleAcceleration(index, cross(p, vec3(0, 1, 0)) * Swirl_Strengthh);\n"
            "}\n")
    with pytest.raises(KzError) as err:
        simulate(_swirl_project(tmp_path, body))
    d = err.value.diagnostics[0]
    assert d.rule == "shader.compile" and d.severity.value == "error"
    # the file as the user can open it (beside the project), the line and column written
    assert Path(d.span.file) == tmp_path / "shaders" / "swirl.glsl"
    assert (d.span.line, d.span.column) == (4, body.splitlines()[3].index("Swirl_Strengthh") + 1)
    assert "Swirl_Strengthh" in d.message


@pytest.mark.parametrize("line, folded, expected", [
    ("        float   a  =   1.0 +   bogus;", 18, "bogus"),     # Mesa: " float a = 1.0 + bogus;"
    ("\tfloat b = /* note */ nope; // tail", 12, "nope"),       # a comment folds like a blank
    ("x = y;", 5, "y"),
])
def test_mesa_columns_map_back_to_the_line_as_written(line, folded, expected):
    from kzplayer.gpu.shader_errors import column_in_written_line
    assert column_in_written_line(line, folded) == line.index(expected) + 1


def test_mesa_call_candidates_stay_with_their_error():
    from kzplayer.gpu.preprocessor import Source
    log = ("0:3(2): error: no matching function for call to `f(int)'; candidates are:\n"
           "0:3(2): error:    void f(vec3)\n0:3(2): error:    void f(vec2)\n0:4(1): error: other")
    diags = parse_log(log, Source("", {0: "a.glsl"}))
    assert [d.message for d in diags] == ["no matching function for call to `f(int)'; candidates are: "
                                          "void f(vec3) void f(vec2)", "other"]


def test_custom_material_runs_with_its_declared_property_as_uniform(simulate, tmp_path):
    body = ("uniform float Swirl_Strength;\n"
            "void affectParticle(uint index) {\n"
            "    addParticleAcceleration(index, vec3(Swirl_Strength, 0.0, 0.0));\n"
            "}\n")
    sim = simulate(_swirl_project(tmp_path, body))
    sim.step()
    live = sim.read_particles(sim.emitters[0])
    assert len(live) == 8
    # Declared default 2 -> a = (2, 0, 0) this step (the accumulator is kept until the next reset).
    assert live["acceleration"][:, 0] == pytest.approx(2.0)
    em_item = sim.project.root.children[0].children[0].children[0].children[0].children[1]
    sim.set_value(em_item, "Swirl.Strength", 5.0)
    sim.step()
    assert sim.read_particles(sim.emitters[0])["acceleration"][:, 0] == pytest.approx(5.0)


def test_include_chain_deeper_than_the_guard_is_an_error(tmp_path):
    from kzplayer.gpu.preprocessor import MAX_DEPTH
    for k in range(MAX_DEPTH + 2):
        (tmp_path / f"f{k}.glsl").write_text(f'#include "f{k + 1}.glsl"\n')
    (tmp_path / f"f{MAX_DEPTH + 2}.glsl").write_text("// end\n")
    with pytest.raises(KzError) as err:
        preprocess(tmp_path / "f0.glsl")
    assert "deeper than" in err.value.diagnostics[0].message
    preprocess(tmp_path / f"f{3}.glsl")          # a chain within the guard is fine


# -- includes stay inside the project and the library (kzplayer.project.files) ----------------

@pytest.mark.parametrize("include, why", [
    ('"../../../../../../../../../etc/passwd"', "with '..'"),
    ('"/etc/passwd"', "absolute path"),
    ('"passwd.glsl"', "through a link"),
])
def test_an_include_outside_the_project_is_refused_before_it_is_read(tmp_path, include, why):
    project = tmp_path / "project"
    (project / "shaders").mkdir(parents=True)
    secret = tmp_path / "secret.glsl"
    secret.write_text("SECRET FIRST LINE\n")
    (project / "shaders" / "passwd.glsl").symlink_to(secret)
    main = project / "shaders" / "main.glsl"
    main.write_text(f"#include {include}\nvoid main() {{}}\n")
    with pytest.raises(KzError) as err:
        preprocess(main, roots=[project])
    (d,) = err.value.diagnostics
    assert d.rule == "shader.compile" and why in d.message and (d.span.line, d.span.column) == (1, 1)
    assert "SECRET" not in str(err.value)


def test_the_shader_library_and_the_project_folder_may_be_included(tmp_path):
    project = tmp_path / "project"
    (project / "shaders").mkdir(parents=True)
    (project / "common.glsl").write_text("float common() { return 1.0; }\n")
    main = project / "shaders" / "main.glsl"
    main.write_text('#include "../common.glsl"\n#include "Particles/accessors.glsl"\nvoid main() {}\n')
    source = preprocess(main, roots=[project])
    assert any(name.endswith("common.glsl") for name in source.files.values())
    assert "shaders/Particles/accessors.glsl" in source.files.values()


# -- generated programs (kzplayer.gpu.generate): materials inlined, renamed per variant ---------

def _affector_project(tmp_path, files: dict, material="Swirl", nodes=1):
    """A project whose affectors (`nodes` of them) use the custom material `material`, whose
    shader and helper files are `files` ({name: text}) under shaders/."""
    (tmp_path / "shaders").mkdir(exist_ok=True)
    for name, text in files.items():
        (tmp_path / "shaders" / name).write_text(text)
    swirl = Item("MaterialType", material, attributes={"name": material, "slot": "Affector",
                                                       "shader": f"shaders/{material}.glsl"})
    emitter = burst_emitter("Emitter_Point", 8, **{"Emission.InitialVelocityStrength": 0.0})
    affectors = {f"A{k}": {"ParticleAffector.AffectorMaterial": material} for k in range(nodes)}
    return make_project(emitters={"E": emitter}, affectors=affectors, materials=[swirl],
                        path=str(tmp_path / "effect.kzm"))


def _error(simulate, project):
    with pytest.raises(KzError) as err:
        simulate(project)
    return err.value.diagnostics


def test_an_error_after_a_renamed_name_points_at_the_column_written(simulate, tmp_path):
    """The generator renames a material's own names (helperValue -> kz_a0_helperValue): the
    driver's column, counted in the renamed line, is mapped back to the line as written."""
    body = ("float helperValue(uint i) { return 1.0; }\n"
            "void affectParticle(uint index) {\n"
            "    addParticleAcceleration(index, vec3(helperValue(index) + helperValue(index) * missing_thing));\n"
            "}\n")
    [d, *_] = _error(simulate, _affector_project(tmp_path, {"Swirl.glsl": body}))
    assert Path(d.span.file) == tmp_path / "shaders" / "Swirl.glsl"
    assert (d.span.line, d.span.column) == (3, body.splitlines()[2].index("missing_thing") + 1)


def test_a_material_used_by_several_nodes_reports_its_error_once(simulate, tmp_path):
    body = "void affectParticle(uint index) {\n    addParticleAcceleration(index, vec3(nope));\n}\n"
    diagnostics = _error(simulate, _affector_project(tmp_path, {"Swirl.glsl": body}, nodes=3))
    undeclared = [d for d in diagnostics if "nope" in d.message]
    assert len(undeclared) == 1 and (undeclared[0].span.line, undeclared[0].span.column) == (2, 41)


def test_an_error_in_a_helper_beside_the_material_points_into_the_helper(simulate, tmp_path):
    helper = "// a helper of the material\nvec3 swirlOf(vec3 p) {\n    return cross(p, up_axis);\n}\n"
    body = ('#include "helper.glsl"\n'
            "void affectParticle(uint index) {\n"
            "    addParticleAcceleration(index, swirlOf(getParticlePosition(index)));\n"
            "}\n")
    [d, *_] = _error(simulate, _affector_project(tmp_path, {"Swirl.glsl": body, "helper.glsl": helper}))
    assert Path(d.span.file).name == "helper.glsl" and (d.span.line, d.span.column) == (3, 21)


def test_a_uniform_line_keeps_its_columns(simulate, tmp_path):
    """A uniform declaration becomes a parameter: its text is blanked, not removed, so an
    error later on the same line keeps its column."""
    body = ("uniform float Swirl_Strength = 2.0; float broken = not_here;\n"
            "void affectParticle(uint index) {\n"
            "    addParticleAcceleration(index, vec3(Swirl_Strength));\n"
            "}\n")
    [d, *_] = _error(simulate, _affector_project(tmp_path, {"Swirl.glsl": body}))
    assert (d.span.line, d.span.column) == (1, body.index("not_here") + 1)


def test_a_custom_collider_error_points_at_its_file(simulate, tmp_path):
    """A collider material is inlined with the collider stage (Particles/collider_stage.glsl,
    renamed with it): an error in it is still reported in the user's file."""
    (tmp_path / "shaders").mkdir()
    body = ("bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {\n"
            "    t = 0.5;\n"
            "    n = vec3(0.0, 1.0, 0.0);\n"
            "    return a.y > 0.0 && b.y < floorLevel;\n"
            "}\n")
    (tmp_path / "shaders" / "Floor.glsl").write_text(body)
    floor = Item("MaterialType", "Floor", attributes={"name": "Floor", "slot": "Collider",
                                                      "shader": "shaders/Floor.glsl"})
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 4)}, materials=[floor],
                           path=str(tmp_path / "fx.kzm"))
    system = next(i for i in project.walk() if i.type == "ParticleSystem")
    from .conftest import make_item
    system.add_child(make_item("ParticleCollider", "C", {"ParticleCollider.ColliderMaterial": "Floor"}))
    [d, *_] = _error(simulate, project)
    assert Path(d.span.file) == tmp_path / "shaders" / "Floor.glsl"
    assert (d.span.line, d.span.column) == (4, body.splitlines()[3].index("floorLevel") + 1)


def test_a_material_without_its_slot_function_is_a_clear_error(simulate, tmp_path):
    body = "void affect(uint index) {}\n"
    [d] = _error(simulate, _affector_project(tmp_path, {"Swirl.glsl": body}))
    assert d.rule == "shader.compile" and "void affectParticle(uint index)" in d.message
    assert Path(d.span.file) == tmp_path / "shaders" / "Swirl.glsl"


def test_every_line_of_a_generated_program_maps_to_a_file(simulate, tmp_path):
    """Source.locate turns every #line of a generated program back into its file: the
    generated glue, the library, each material once per variant."""
    from .test_pipeline import _project
    sim = simulate(_project(together=True))
    source = sim.runners[0].code.sources[("step", 0)]
    names = set(source.files.values())
    assert any(n.startswith("<generated: ") for n in names)
    assert {"shaders/Wind.glsl", "shaders/CurlNoise.glsl", "shaders/Collider_Plane.glsl",
            "shaders/Particles/collider_stage.glsl", "shaders/Particles/common.glsl"} <= names
    import re
    for number, line in re.findall(r"^#line (\d+) (\d+)$", source.text, flags=re.M):
        name, at = source.locate(int(line), int(number))
        assert name == source.files[int(line)] and at >= 1
