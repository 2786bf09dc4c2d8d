"""The layout of a system's generated programs: which materials are inlined (variants), which
nodes use them (instances) and where each node's parameter and per-step words lie.

Each material is inlined once per program as a *variant*: its files renamed with the
variant's prefix (kzplayer.gpu.program_builder), its `uniform`s turned into globals loaded
from the system's parameter words (one uniform block for all programs, written once per
refresh: kzplayer.gpu.params), its KZ_PER_STEP globals computed once per step by the count
program and loaded by the others. Nodes that share a material share a variant, with their
own parameter words: an affector's are at a base fixed in the program, an emitter's are
found through the emitter table. Read from a ProgramSpec (kzplayer.gpu.program_spec) only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.gpu.glsl import PARAM_TYPES
from kzplayer.gpu.preprocessor import read_shader
from kzplayer.gpu.materials import Material
from kzplayer.gpu.program_builder import Node, ProgramBuilder
from kzplayer.gpu.program_spec import ProgramSpec
from kzplayer.gpu.protocols import check_protocol, project_includes

# What each kind of node calls in its material, and what is inlined before the material.
HOOKS = {"self": "affectParticle", "affector": "affectParticle", "collider": "sweep",
         "events": "generateEvents", "count": "emissionCount", "emission": "emitParticle"}
MATERIAL_HOOK = {"self": "affectParticle", "affector": "affectParticle", "collider": "colliderCross",
                 "events": "generateEvents", "count": "emissionCount", "emission": "emitParticle"}
SIGNATURES = {"affectParticle": "void affectParticle(uint index)",
              "colliderCross": "bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n)",
              "generateEvents": "void generateEvents(uint index)", "emissionCount": "uint emissionCount()",
              "emitParticle": "void emitParticle(uint index)"}
HEADERS = {"collider": ("Particles/collider_stage.glsl",), "events": ("Particles/events_params.glsl",)}
# Words before a node's own parameters: an affector's enabled flag and node transform, a
# collider's enabled flag (its transforms are parameters of Particles/collider_stage.glsl).
COMMON_WORDS = {"affector": 17, "collider": 1}
# Storage blocks a material may index itself (then its program reads and writes them).
RAW_BLOCKS = {"particles", "coldParticles", "tracks", "events", "control", "slots"}
PREPARE = "prepareStep"
SPACE_WORDS = 32            # an emitter's own space: particle -> system space, and back (two mat4)
# An emitter's slots, in the order its instances are laid out.
EMITTER_SLOTS = (("self", "self_affect"), ("events", "events"), ("count", "count"), ("emission", "emission"))


def type_words(glsl_type: str) -> int:
    return PARAM_TYPES[glsl_type]


@dataclass(eq=False)
class Variant:
    """One material inlined into the system's programs."""
    kind: str
    material: Material
    prefix: str
    case: int                        # its number in its kind's switch (from 1)
    uniforms: list = field(default_factory=list)      # glsl.Uniform of its files, in order
    per_step: list = field(default_factory=list)      # (name, type)
    functions: set = field(default_factory=set)
    identifiers: set = field(default_factory=set)
    raw: bool = False

    @property
    def sets_time_scale(self) -> bool:
        """May it change a particle's time scale (TimeDilation)? Then the step keeps them."""
        return self.raw or "setParticleTimeScale" in self.identifiers

    @property
    def common_words(self) -> int:
        return COMMON_WORDS.get(self.kind, 0)

    @property
    def words(self) -> int:
        return self.common_words + sum(type_words(u.type) for u in self.uniforms)

    @property
    def step_words(self) -> int:
        return sum(type_words(t) for _, t in self.per_step)

    @property
    def prepares(self) -> bool:
        return bool(self.per_step) and PREPARE in self.functions


@dataclass(eq=False)
class Instance:
    """A node using a variant: its parameter words and per-step words. `owner` is the
    node's handle from the spec (kzplayer.gpu.program_spec), `name` its node path and
    `level` its subemitter level (0 for affectors and colliders)."""
    variant: Variant
    owner: object
    name: str
    level: int = 0
    param_base: int = 0
    derived_base: int = 0


@dataclass
class SystemCode:
    """What the generator made for one system."""
    variants: list[Variant]
    instances: list[Instance]
    emitter_instances: dict          # (emitter owner, kind) -> Instance
    param_words: int
    derived_words: int
    levels: list[int]                # subemitter levels present (0 first)
    events_levels: set[int]          # levels with a GenerateEventsMaterial (or a channel)
    sources: dict                    # ("count" | "emit" | "step" | "children", level) -> Source
    raw_programs: set                # keys of programs that index the storage blocks themselves
    time_scale: bool = True          # some material may set a particle's time scale
    spaced: list = field(default_factory=list)        # owners of emitters in a space of their own
    space_bases: dict = field(default_factory=dict)   # id(owner) -> its 32 parameter words
    history: bool = False            # some emitter keeps a position history (Particles/history.glsl)
    bound_pairs: list = field(default_factory=list)   # (source, channel) emitter indices


def lay_out(spec: ProgramSpec) -> SystemCode:
    """The variants and instances of a system and their parameter and per-step words (no
    source yet)."""
    variants: dict[tuple, Variant] = {}

    def variant(kind: str, material: Material) -> Variant:
        key = (kind, material.name, str(material.shader))
        if key not in variants:
            count = sum(1 for v in variants.values() if v.kind == kind)
            variants[key] = _scanned(Variant(kind, material, f"kz_{kind[0]}{count}_", count + 1))
        return variants[key]

    instances, per_emitter = [], {}
    for kind, nodes in (("affector", spec.affectors), ("collider", spec.colliders)):
        for node in nodes:
            if node.material is not None:
                instances.append(Instance(variant(kind, node.material), node.owner, node.name))
    for k, em in enumerate(spec.emitters):
        owner = em.owner if em.owner is not None else k
        for kind, slot in EMITTER_SLOTS:
            material = getattr(em, slot)
            if material is not None:
                inst = Instance(variant(kind, material), owner, em.name, em.level)
                instances.append(inst)
                per_emitter[(owner, kind)] = inst
    words = derived = 0
    for inst in instances:
        inst.param_base = words
        words += inst.variant.words
        if inst.variant.prepares:
            inst.derived_base = derived
            derived += inst.variant.step_words
    spaced = [em.owner if em.owner is not None else k for k, em in enumerate(spec.emitters) if em.spaced]
    space_bases = {}
    for owner in spaced:
        space_bases[id(owner)] = words
        words += SPACE_WORDS
    levels = sorted({em.level for em in spec.emitters} | {0})
    events_levels = {em.level for em in spec.emitters if em.events is not None or em.channel}
    pairs = [(em.bound_source, k) for k, em in enumerate(spec.emitters)
             if em.channel and em.bound_source is not None]
    return SystemCode(list(variants.values()), instances, per_emitter, max(words, 1), derived,
                      levels, events_levels, {}, set(),
                      time_scale=any(v.sets_time_scale for v in variants.values()),
                      spaced=spaced, space_bases=space_bases,
                      history=any(em.history for em in spec.emitters), bound_pairs=pairs)


def _scanned(v: Variant) -> Variant:
    """The variant with what its files declare (a throwaway build: only the scan counts)."""
    node = inline(ProgramBuilder(), v)
    v.uniforms, v.per_step, v.functions = node.uniforms, node.per_step, node.functions
    v.identifiers = node.identifiers
    v.raw = bool(node.indexed & RAW_BLOCKS)
    # A shader written against Kanzi's protocols: named at its line before the driver's link
    # error (an unresolved function) could name it nowhere.
    path = Path(v.material.shader)
    text = read_shader(path, None)
    helpers = project_includes(path, v.material.root) if v.material.root and '"Particles/' in text else ""
    kanzi = check_protocol(text, v.kind, v.material.display, v.material.name, helpers)
    if kanzi:
        raise KzError(kanzi, exit_code=1)
    hook = MATERIAL_HOOK[v.kind]
    if hook not in node.functions:
        material = v.material
        raise KzError(Diagnostic(
            "KZ801", "shader.compile", Severity.ERROR,
            f"{material.display}: the {material.slot} material '{material.name}' does not define "
            f"`{SIGNATURES[hook]}`", Span(material.display, 1, 1)), exit_code=1)
    return v


def inline(builder: ProgramBuilder, v: Variant) -> Node:
    """The variant's material inlined into a program (with its slot's header files)."""
    return builder.node(v.material.shader, v.material.display, v.prefix, before=HEADERS.get(v.kind, ()),
                        root=v.material.root)


def zero_bakes(code: SystemCode, words, bound) -> dict:
    """The parameters to compile in as constants: those that are zero (false) for every node
    of a variant and that no binding drives (`bound(owner, uniform) -> bool`). A zero often
    switches a feature off (Wind's turbulence, a falloff Radius, a variance), and a CPU
    rasteriser runs both sides of every branch, so only the compiler can drop the unused
    side. A change to such a value compiles the system's programs again."""
    by_variant: dict = {}
    for inst in code.instances:
        by_variant.setdefault(inst.variant, []).append(inst)
    bakes = {}
    for v, insts in by_variant.items():
        at = v.common_words
        for u in v.uniforms:
            n = type_words(u.type)
            literal = _zero_literal(u.type)
            if literal is not None and not u.name.startswith("kz_") and all(
                    not any(words[i.param_base + at:i.param_base + at + n]) and not bound(i.owner, u.name)
                    for i in insts):
                bakes[(v.prefix, u.name)] = literal
            at += n
    return bakes


def _zero_literal(glsl_type: str) -> str | None:
    if glsl_type.startswith("mat"):
        return None
    return {"float": "0.0", "int": "0", "uint": "0u", "bool": "false"}.get(
        glsl_type, f"{glsl_type}({'0.0' if glsl_type[0] == 'v' else '0' if glsl_type[0] == 'i' else '0u'})")


__all__ = ["Variant", "Instance", "SystemCode", "lay_out", "zero_bakes", "type_words"]
