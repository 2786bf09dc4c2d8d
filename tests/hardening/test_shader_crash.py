"""The GL compiler's crash classes are kept out (issue 21): a macro bomb, an 80 KB
expression, a huge local array, deep nesting, a long chain of calls and a call tree that
inlines exponentially are refused by kzplayer.gpu.shader_limits at the material's own file
and line before the driver sees them (on llvmpipe they crash with SIGSEGV, compile for
minutes or take gigabytes). validate reports each (exit 1), play leaves the material out
(exit 0); neither takes long or much memory. The cases are made here."""
from __future__ import annotations

from pathlib import Path

import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu import shader_limits as SL
from kzplayer.gpu.preprocessor import preprocess
from tests.hostile import kzplayer

HEAD = "// a custom affector\n\n"


def macro_bomb(n=24):
    return ("#define A0 1.0\n" + "".join(f"#define A{i} (A{i - 1} + A{i - 1})\n" for i in range(1, n + 1)) +
            f"void affectParticle(uint index) {{\n    float x = A{n};\n}}\n"), 3 + n + 2, 5


def function_macro_bomb(n=24):
    return ("#define TWICE(x) (x + x)\n" +
            f"void affectParticle(uint index) {{\n    float x = {'TWICE(' * n}1.0{')' * n};\n}}\n"), 5, 5


def long_expression(terms=16_000):           # 80 KB on one line
    return "void affectParticle(uint index) {\n    float x = " + " + ".join(["1.0"] * terms) + ";\n}\n", 4, 5


def huge_array(n=100_000_000):
    return f"void affectParticle(uint index) {{\n    float big[{n}];\n    big[index] = 1.0;\n}}\n", 4, 5


def huge_array_by_constants():
    return ("#define SIDE 4096\nconst int DEPTH = 64;\n"
            "void affectParticle(uint index) {\n    vec4 grid[SIDE][SIDE * DEPTH];\n}\n"), 6, 5


def deep_nesting(n=1_000):
    return "void affectParticle(uint index) {\n    float x = " + "(" * n + "1.0" + ")" * n + ";\n}\n", 4, 15 + 255


def call_chain(n=3_000):
    return ("float f0(float x) { return x; }\n" +
            "".join(f"float f{i}(float x) {{ return f{i - 1}(x) + 1.0; }}\n" for i in range(1, n)) +
            f"void affectParticle(uint index) {{\n    float x = f{n - 1}(1.0);\n}}\n"), 3 + SL.MAX_CALL_DEPTH, 1


def call_tree(n=30):
    return ("float f0(float x) { return x; }\n" +
            "".join(f"float f{i}(float x) {{ return f{i - 1}(x) + f{i - 1}(x); }}\n" for i in range(1, n)) +
            f"void affectParticle(uint index) {{\n    float x = f{n - 1}(1.0);\n}}\n"), None, 1


CASES = {"macro": macro_bomb, "function-macro": function_macro_bomb, "expression": long_expression,
         "array": huge_array, "array-constants": huge_array_by_constants, "nesting": deep_nesting,
         "call-chain": call_chain, "call-tree": call_tree}


def _file(tmp_path: Path, name: str) -> tuple[Path, int | None, int]:
    text, line, col = CASES[name]()
    path = tmp_path / "shaders" / f"{name}.glsl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEAD + text)
    return path, line, col


@pytest.mark.parametrize("name", CASES)
def test_each_crash_class_is_refused_at_its_line(tmp_path, name):
    path, line, col = _file(tmp_path, name)
    with pytest.raises(KzError) as caught:
        SL.check_compilable(preprocess(path, display_name="shaders/x.glsl"))
    d = caught.value.diagnostics[0]
    assert d.rule == "shader.compile" and d.span.file == "shaders/x.glsl", d
    assert "does not hand it to the GL compiler" in d.message
    if line is not None:
        assert (d.span.line, d.span.column) == (line, col), d


def test_the_limits_leave_room_below_them(tmp_path):
    """Just below each limit is handed on: the check counts, it does not guess."""
    for text in (macro_bomb(11)[0], long_expression(SL.MAX_STATEMENT_TOKENS // 2 - 10)[0],
                 huge_array(SL.MAX_ARRAY_ELEMENTS)[0], deep_nesting(SL.MAX_NESTING - 2)[0],
                 call_chain(SL.MAX_CALL_DEPTH - 1)[0], call_tree(12)[0],
                 "#define BIG 1 << 10\nvoid affectParticle(uint index) {\n float a[BIG * 1024];\n}\n"):
        path = tmp_path / "ok.glsl"
        path.write_text(text)
        SL.check_compilable(preprocess(path))


def test_a_statement_split_by_directives_is_reported_where_it_starts(tmp_path):
    text = ("void affectParticle(uint index) {\n    float x = 1.0\n#define Y 2.0\n" +
            "".join("        + 1.0 + 1.0\n" for _ in range(SL.MAX_STATEMENT_TOKENS // 4)) + "    ;\n}\n")
    path = tmp_path / "split.glsl"
    path.write_text(text)
    with pytest.raises(KzError) as caught:
        SL.check_compilable(preprocess(path, display_name="split.glsl"))
    assert (caught.value.diagnostics[0].span.line, caught.value.diagnostics[0].span.column) == (2, 5)


PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Crash" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="System">
      <ParticleEmitter name="Sparks"><Property name="Emission.Rate">100</Property></ParticleEmitter>
      <ParticleEmitter name="Drawn"><Property name="ParticleEmitter.ParticleMaterial">Materials/Drawn</Property></ParticleEmitter>
{affectors}
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
{materials}
    <MaterialType name="Drawn" slot="Particle" vertex="shaders/bomb.vert.glsl" fragment="shaders/bomb.frag.glsl"
                  geometry="billboard"/>
  </Materials>
</Project>
"""
CRASHERS = ("macro", "expression", "array", "nesting", "call-tree")


def _project(tmp_path: Path) -> Path:
    for name in CRASHERS:
        _file(tmp_path, name)
    bomb = "#define A0 1.0\n" + "".join(f"#define A{i} (A{i - 1} + A{i - 1})\n" for i in range(1, 25))
    (tmp_path / "shaders" / "bomb.vert.glsl").write_text(
        bomb + "layout(location = 0) in vec3 p;\nvoid main() {\n    gl_Position = vec4(p, A24);\n}\n")
    (tmp_path / "shaders" / "bomb.frag.glsl").write_text("out vec4 c;\nvoid main() { c = vec4(1.0); }\n")
    affectors = "\n".join(f'      <ParticleAffector name="{n}"><Property name="ParticleAffector.AffectorMaterial">'
                          f"Materials/{n}</Property></ParticleAffector>" for n in CRASHERS)
    materials = "\n".join(f'    <MaterialType name="{n}" slot="Affector" shader="shaders/{n}.glsl"/>' for n in CRASHERS)
    kzm = tmp_path / "crash.kzm"
    kzm.write_text(PROJECT.format(affectors=affectors, materials=materials))
    return kzm


def test_validate_and_play_survive_every_crash_class(tmp_path):
    kzm = _project(tmp_path)
    ran = kzplayer("validate", kzm, cwd=tmp_path, timeout=240).expect(1)
    for name in CRASHERS:
        assert f"shaders/{name}.glsl:" in ran.out, (name, ran.out[-3000:])
    assert "bomb.vert.glsl:28:5:" in ran.out and ran.out.count("does not hand it to the GL compiler") >= 6
    assert ran.peak_mib < 1500 and ran.seconds < 200, (ran.peak_mib, ran.seconds)
    played = kzplayer("play", kzm, "--frames", 3, "--size", "32x32", "--output", tmp_path / "p.png",
                      cwd=tmp_path, timeout=240).expect(0)
    assert "playing anyway" in played.out and (tmp_path / "p.png").is_file()
    assert played.peak_mib < 1500 and played.seconds < 200, (played.peak_mib, played.seconds)
