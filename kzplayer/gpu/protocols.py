"""Kanzi Particles 3.0's custom-material protocols ("Writing custom compute materials"): the
include each slot's Kanzi shader starts with and the function it then defines. The
include files (shaders/Particles/emitter.glsl, affector.glsl, collider.glsl,
emission_count.glsl, events.glsl) map each entry point onto kzplayer's own hook; this module
checks, before anything is compiled, that a material which includes one of them is in that
protocol's slot and defines its function with its parameters, so that a Kanzi-style shader
kzplayer cannot run is named at its line (the same finding for validate and play: both build
the programs through kzplayer.gpu.variants)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.gpu.preprocessor import find_include, read_shader
from kzplayer.resources import shader_dir


@dataclass(frozen=True)
class Protocol:
    include: str              # the include a Kanzi shader of this slot starts with
    kinds: tuple              # the variant kinds (kzplayer.gpu.variants) that run it
    slot: str                 # the slot as messages name it
    entry: str                # the function the shader defines
    params: tuple             # its parameters' types with qualifiers, e.g. "inout Particle"
    signature: str


PROTOCOLS = (
    Protocol("Particles/emitter.glsl", ("emission",), "Emission", "EmitParticle", ("uint", "uint"),
             "void EmitParticle(uint index, uint emitIndex)"),
    Protocol("Particles/affector.glsl", ("affector", "self"), "Affector (or SelfAffect)", "Affector",
             ("uint", "inout Particle"), "vec3 Affector(uint index, inout Particle particle)"),
    Protocol("Particles/collider.glsl", ("collider",), "Collider", "Collide",
             ("vec3", "vec3", "out vec3", "out vec3"),
             "bool Collide(vec3 prevPosition, vec3 position, out vec3 hitPosition, out vec3 hitNormal)"),
    Protocol("Particles/emission_count.glsl", ("count",), "EmissionCount", "EmissionCount", (),
             "uint EmissionCount()"),
    Protocol("Particles/events.glsl", ("events",), "GenerateEvents", "GenerateEvents", ("uint",),
             "void GenerateEvents(uint index)"),
)
BY_INCLUDE = {p.include: p for p in PROTOCOLS}
SLOT_PROTOCOL = {kind: p for p in PROTOCOLS for kind in p.kinds}

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _blank_comments(text: str) -> str:
    """The text with its comments as spaces (newlines kept, so lines and columns stay)."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _params(text: str) -> tuple:
    """`uint index, inout Particle particle` -> ("uint", "inout Particle"); `void` or nothing -> ()."""
    parts = [p.split() for p in text.split(",") if p.strip()]
    if parts == [["void"]]:
        return ()
    return tuple(" ".join(p[:-1]) if len(p) > 1 else p[0] for p in parts)


def project_includes(path: Path, root: Path | None) -> str:
    """The text of the project's own files a material includes (its helpers beside it, not
    the shader library's), recursively: where a protocol's function may be defined too."""
    seen, texts, todo = {path.resolve()}, [], [path]
    while todo:
        here = todo.pop()
        for line in read_shader(here, None).split("\n"):
            m = _INCLUDE.match(line)
            if not m:
                continue
            try:
                found = find_include(m.group(1), here.parent, Span(str(here), 1, 1), (root,) if root else ())
            except KzError:
                continue            # the builder reports it
            if found.resolve() in seen or found.resolve().is_relative_to(shader_dir().resolve()):
                continue
            seen.add(found.resolve())
            texts.append(read_shader(found, None))
            todo.append(found)
    return "\n".join(texts)


def check_protocol(text: str, kind: str, file: str, material: str, helpers: str = "") -> list[Diagnostic]:
    """What keeps a shader written against a Kanzi protocol from running in the slot `kind`:
    a protocol include of another slot (at the include), no definition of the protocol's
    function in the file or its `helpers` (at the include), or one with other parameters
    (at the definition)."""
    code = _blank_comments(text)
    lines = code.split("\n")
    found = []
    for n, line in enumerate(lines, 1):
        m = _INCLUDE.match(line)
        if m and m.group(1) in BY_INCLUDE:
            found.append((n, line.index('"') + 1, BY_INCLUDE[m.group(1)]))
    diags = []

    def error(line, column, message, hint):
        return Diagnostic(code_for("shader.compile"), "shader.compile", Severity.ERROR,
                          message, Span(file, line, column), hint)

    for line, column, protocol in found:
        if kind not in protocol.kinds:
            mine = SLOT_PROTOCOL.get(kind)
            hint = (f"in this slot include \"{mine.include}\" and define `{mine.signature}`" if mine
                    else "this slot has no Kanzi protocol include")
            diags.append(error(line, column,
                               f"material '{material}' is in the {mine.slot if mine else kind} slot but includes "
                               f"\"{protocol.include}\", Kanzi's {protocol.slot} protocol", hint))
            continue
        definitions = [(m, code[:m.start()].count("\n") + 1) for m in
                       re.finditer(rf"\b{protocol.entry}\s*\(([^)]*)\)\s*\{{", code)]
        if not definitions and not re.search(rf"\b{protocol.entry}\s*\([^)]*\)\s*\{{", _blank_comments(helpers)):
            diags.append(error(line, column, f"material '{material}' includes \"{protocol.include}\" but does not "
                               f"define `{protocol.signature}`", f"define `{protocol.signature}` in this file"))
            continue
        for m, at in definitions:
            if _params(m.group(1)) != protocol.params:
                col = m.start() - (code.rfind("\n", 0, m.start()) + 1) + 1
                diags.append(error(at, col, f"`{protocol.entry}({' '.join(m.group(1).split())})` is not Kanzi's "
                                   f"{protocol.slot} protocol, which kzplayer runs as `{protocol.signature}`",
                                   f"give `{protocol.entry}` the parameters of `{protocol.signature}`"))
    return diags
