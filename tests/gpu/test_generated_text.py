"""The text of generated programs (kzplayer.gpu.generate), without GL: what the generator
writes for a few systems, compared with golden files under tests/gpu/golden/, and the #line
mapping of a stage skeleton's splice points.

A golden holds a program's outline: its defines, the stage skeleton with its splices filled
and every generated part, each library or material file named where it comes in (their text
is the shader library's). After an intended change of the generator or a skeleton:
    KZPLAYER_UPDATE_GOLDENS=1 python -m pytest tests/gpu/test_generated_text.py
and read the diff of tests/gpu/golden/ before committing it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu.check import one_slot_spec
from kzplayer.gpu.generate import Generator
from kzplayer.gpu.materials import resolve_material
from kzplayer.gpu.program_builder import ProgramBuilder
from kzplayer.gpu.program_spec import EmitterSpec, NodeSpec, ProgramSpec
from kzplayer.gpu.shader_errors import compile_compute
from kzplayer.project.catalog import catalog
from kzplayer.resources import shader_dir

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("KZPLAYER_UPDATE_GOLDENS") == "1"
LINE = re.compile(r"^#line (\d+) (\d+)$")


def stock(name: str, slot: str):
    return resolve_material(None, catalog(), name, slot, f"material '{name}'")


def fountain() -> ProgramSpec:
    """One emitter, a force with per-step constants (Wind), gravity, a floor."""
    jet = EmitterSpec("Fountain/Jet", count=stock("EmissionCount_Schedule", "EmissionCount"),
                      emission=stock("Emitter_Point", "Emission"))
    return ProgramSpec("'Fountain'", (jet,),
                       affectors=(NodeSpec("Fountain/Gravity", stock("Gravity", "Affector")),
                                  NodeSpec("Fountain/Wind", stock("Wind", "Affector"))),
                       colliders=(NodeSpec("Fountain/Floor", stock("Collider_Plane", "Collider")),))


def bound() -> ProgramSpec:
    """A parent, a subemitter bound to its particles (level 1) and the channel its parents
    write, with events on the parent."""
    parent = EmitterSpec("Shells/Shell", count=stock("EmissionCount_Schedule", "EmissionCount"),
                         emission=stock("Emitter_Point", "Emission"), events=stock("Event_Lifetime", "GenerateEvents"))
    sparks = EmitterSpec("Shells/Sparks", level=1, count=stock("EmissionCount_PerParticle", "EmissionCount"),
                         emission=stock("Emitter_FromEvents", "Emission"),
                         events=stock("Event_Lifetime", "GenerateEvents"))
    channel = EmitterSpec("Shells/Sparks#bound", level=0, channel=True, bound_source=0)
    return ProgramSpec("'Shells'", (parent, sparks, channel), verlet=True)


def trails() -> ProgramSpec:
    """An emitter keeping a position history, another in a space of its own."""
    comet = EmitterSpec("Trails/Comet", count=stock("EmissionCount_Schedule", "EmissionCount"),
                        emission=stock("Emitter_Sphere", "Emission"), history=16)
    dust = EmitterSpec("Trails/Dust", count=stock("EmissionCount_Schedule", "EmissionCount"),
                       emission=stock("Emitter_Box", "Emission"), spaced=True)
    return ProgramSpec("'Trails'", (comet, dust), affectors=(NodeSpec("Trails/Drag", stock("Drag", "Affector")),),
                       history_image=False)


SYSTEMS = {"fountain": fountain, "bound": bound, "trails": trails}


def outline(source) -> str:
    """The program with each library and material file's text left out (named instead)."""
    out, current, seen = [], None, set()
    for line in source.text.splitlines():
        m = LINE.match(line)
        if m:
            current = source.files[int(m.group(2))]
            if _kept(current):
                out.append(f"// -- {current} from line {int(m.group(1)) % 100000}")
            elif current not in seen:
                out.append(f"// -- {current} (text left out)")
            seen.add(current)
            continue
        if current is None or _kept(current):
            out.append(line)
    return "\n".join(out) + "\n"


def _kept(name: str) -> bool:
    return name.startswith("<") or re.fullmatch(r"shaders/Particles/stage_\w+_main\.glsl", name) is not None


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_generated_program_text_is_the_golden_one(system):
    code = Generator(SYSTEMS[system]()).build()
    for (kind, level), source in sorted(code.sources.items()):
        path = GOLDEN / f"{system}.{kind}{level}.glsl"
        text = outline(source)
        if UPDATE:
            GOLDEN.mkdir(exist_ok=True)
            path.write_text(text)
        assert path.exists(), f"no golden {path.name}: run with KZPLAYER_UPDATE_GOLDENS=1"
        assert text == path.read_text(), f"{path.name} differs from the golden (see the module docstring)"
    expected = {("count", 0), ("emit", 0), ("step", 0)}
    if system == "bound":
        expected |= {("count", 1), ("emit", 1), ("children", 1)}
    assert set(code.sources) == expected


def test_the_golden_systems_compile(ctx):
    """The programs of the golden texts are programs the driver takes."""
    for make in SYSTEMS.values():
        for source in Generator(make()).build().sources.values():
            compile_compute(ctx, source).release()


def test_the_plain_data_decides_the_splices():
    code = Generator(bound()).build()
    step = code.sources[("step", 0)].text
    assert "kz_emitBound(2u);" in step and "if (kz_e == 0u) {" in step      # the channel is emitter 2
    assert "kz_history();" not in step and "#define KZ_COLLIDERS 0" in step
    with_trails = Generator(trails()).build().sources
    assert "kz_history();" in with_trails[("step", 0)].text
    assert "kz_historyCollapse();" in with_trails[("emit", 0)].text
    assert "#define KZ_COLLIDERS 1" in Generator(fountain()).build().sources[("step", 0)].text


def test_a_check_spec_holds_the_material_in_its_slot_only():
    spec = one_slot_spec(stock("Gravity", "Affector"))
    assert [a.material.name for a in spec.affectors] == ["Gravity"] and not spec.colliders
    assert all(getattr(spec.emitters[0], s) is None for s in ("count", "emission", "self_affect", "events"))
    spec = one_slot_spec(stock("Event_Lifetime", "GenerateEvents"))
    assert spec.emitters[0].events.name == "Event_Lifetime" and not spec.affectors


# -- splice points and #line ----------------------------------------------------------------

def _skeleton_program(splices: dict):
    builder = ProgramBuilder()
    builder.skeleton("main", "Particles/stage_emit_main.glsl", splices, "'test' emit program")
    return builder.source()


def test_a_spliced_line_maps_to_its_generated_part_and_the_skeleton_resumes_at_its_own_line():
    stage = (shader_dir() / "Particles" / "stage_emit_main.glsl").read_text().splitlines()
    marker = next(n for n, line in enumerate(stage, 1) if line.strip() == "#splice EMISSION")
    source = _skeleton_program({"EMISSION": "float first = 1.0;\nfloat second = oops;", "HISTORY": ""})
    lines = source.text.splitlines()
    numbers = []                # (file number, line) of each line of the text, as a driver counts them
    current = (None, 0)
    for line in lines:
        m = LINE.match(line)
        if m:
            current = (int(m.group(2)), int(m.group(1)))
            numbers.append(None)
            continue
        numbers.append(current)
        current = (current[0], current[1] + 1)
    at = lines.index("    float second = oops;")
    fid, reported = numbers[at]
    assert source.locate(fid, reported) == ("<generated: 'test' emit program EMISSION>", 2)
    assert source.line_text(fid, reported) == "    float second = oops;"        # indented as the marker
    after = lines.index("    kz_endSpawn();")
    fid, reported = numbers[after]
    assert source.locate(fid, reported) == ("shaders/Particles/stage_emit_main.glsl", marker + 1)
    assert stage[marker] == "    kz_endSpawn();"
    history = next(n for n, line in enumerate(stage, 1) if line.strip() == "#splice HISTORY")
    fid, reported = numbers[after + 1]          # an empty splice: a blank line, numbers kept
    assert lines[after + 1] == "" and source.locate(fid, reported)[1] == history


@pytest.mark.parametrize("splices, why", [
    ({"EMISSION": ""}, "HISTORY: the generator has no text for it"),
    ({"EMISSION": "", "HISTORY": "", "EXTRA": "x"}, "EXTRA: no such splice point"),
])
def test_a_splice_point_and_its_text_go_together(splices, why):
    with pytest.raises(KzError) as err:
        _skeleton_program(splices)
    [d] = err.value.diagnostics
    assert why in d.message and d.span.file == "shaders/Particles/stage_emit_main.glsl"
