"""The programs of one ParticleSystem, generated from its nodes' materials.

Per system and step (docs/player.md, The frame) the GPU runs:

    count   one invocation: every emitter's EmissionCountMaterial, the emission plan, the
            step plan, the per-step constants of the materials (KZ_PER_STEP)
    emit    one invocation per new particle of every emitter: its EmissionMaterial
    step    one invocation per live particle of every emitter: reset, SelfAffectMaterial,
            the affectors in tree order, integrate, the colliders, GenerateEventsMaterial,
            the death test - the fused kernel
    children (subemitter levels) the events of the children made in this step
    and fixed passes (Particles/pass_*.glsl) that put event records and freed slots in
    slot order and rebuild the live lists.

Each program is the library, the stage's helpers (`Particles/stage_<kind>.glsl`), the
system's materials inlined as variants (kzplayer.gpu.variants) with their parameter
loaders (kzplayer.gpu.loaders), and the stage's main, `Particles/stage_<kind>_main.glsl`,
whose splice points this module fills with what is the system's own: the switches over its
variants, its affectors and colliders in tree order, its bound subemitters. What depends
only on the subemitter level or on a build switch is the skeleton's, through the defines
(KZ_LEVEL, KZ_FULL_WALK, KZ_COLLIDERS...). Everything is read from a ProgramSpec
(kzplayer.gpu.program_spec).
"""
from __future__ import annotations

from kzplayer.gpu.loaders import loaders
from kzplayer.gpu.params import EMITTER_WORDS
from kzplayer.gpu.program_builder import ProgramBuilder
from kzplayer.gpu.program_spec import ProgramSpec
from kzplayer.gpu.variants import HOOKS, PREPARE, SystemCode, Variant, inline, lay_out, zero_bakes

# The programs: (kind, helpers included before the materials, the main with splice points).
STAGES = {"count": ("Particles/stage_count.glsl", "Particles/stage_count_main.glsl"),
          "emit": ("Particles/stage_emit.glsl", "Particles/stage_emit_main.glsl"),
          "step": ("Particles/stage_step.glsl", "Particles/stage_step_main.glsl"),
          "children": ("Particles/stage_step.glsl", "Particles/stage_children_main.glsl")}
HISTORY_CALLS = {"emit": "kz_historyCollapse();           // a new trail starts at the spawn point",
                 "step": "kz_history();"}


class Generator:
    """Lays out the variants and instances of a system and writes its programs' sources."""

    def __init__(self, spec: ProgramSpec):
        self.spec = spec

    def build(self, bakes: dict | None = None) -> SystemCode:
        code = self.layout()
        self.write(code, bakes or {})
        return code

    def layout(self) -> SystemCode:
        """The variants and instances and their parameter and per-step words (no source yet)."""
        return lay_out(self.spec)

    def write(self, code: SystemCode, bakes: dict) -> None:
        """The programs' sources. `bakes`: {(variant prefix, uniform): GLSL literal} of the
        parameters compiled in as constants (see zero_bakes)."""
        code.sources.clear()
        code.raw_programs.clear()
        by_kind: dict[str, list[Variant]] = {}
        for v in code.variants:
            by_kind.setdefault(v.kind, []).append(v)
        for level in code.levels:
            count = [v for v in by_kind.get("count", []) if _used_at(code, v, level)]
            prepare = [v for v in code.variants if v.prepares] if level == 0 else []
            self._program(code, bakes, ("count", level), count + prepare, _count_splices(code, count, prepare))
            emission = [v for v in by_kind.get("emission", []) if _used_at(code, v, level)]
            self._program(code, bakes, ("emit", level), emission, {
                "EMISSION": _switch(emission, "emission", "E_EMISSION", "kz_table(kz_e, E_EMISSION_PARAMS)", None),
                "HISTORY": HISTORY_CALLS["emit"] if code.history else ""})
            if level > 0 and level in code.events_levels:
                events = [v for v in by_kind.get("events", []) if _used_at(code, v, level)]
                self._program(code, bakes, ("children", level), events, {"EVENTS": _events(events)})
        step = [v for v in code.variants if v.kind in ("self", "affector", "collider", "events")]
        self._program(code, bakes, ("step", 0), step, _step_splices(code))

    def _defines(self, code: SystemCode, key: tuple, raw: bool) -> dict:
        spec = self.spec
        defines = {"KZ_IMAGE_IO": 1 if (spec.image_io and not raw) else 0, "KZ_VERLET": 1 if spec.verlet else 0,
                   "KZ_TIME_SCALE": 1 if code.time_scale else 0, "KZ_LEVEL": key[1],
                   "KZ_FULL_WALK": 1 if spec.full_walk else 0, "KZ_HOST_EVENTS": 1 if spec.host_events else 0,
                   "KZ_EMITTER_SPACES": 1 if code.spaced else 0,
                   "KZ_TABLE_VEC4S": spec.table_vec4s, "KZ_SCHEDULE_VEC4S": spec.table_vec4s}
        if key[0] == "step":
            defines["KZ_COLLIDERS"] = 1 if any(i.variant.kind == "collider" for i in code.instances) else 0
        if code.history:
            defines["KZ_HISTORY"] = 1
            defines["KZ_HISTORY_IMAGE"] = 1 if spec.history_image else 0
        if self.words_in_ssbo(code):
            defines["KZ_WORDS_IN_SSBO"] = 1
            defines["KZ_PARAMS_BASE"] = f"{self.table_words}u"
        else:
            defines["KZ_PARAMS_VEC4S"] = max(-(-code.param_words // 4), 1)
        return defines

    @property
    def table_words(self) -> int:
        return max(len(self.spec.emitters), 1) * EMITTER_WORDS

    def words_in_ssbo(self, code: SystemCode) -> bool:
        """Do the emitter table or the parameters outgrow a uniform block?"""
        return self.table_words > 4 * self.spec.table_vec4s or -(-code.param_words // 4) > self.spec.params_limit_vec4s

    def _program(self, code: SystemCode, bakes: dict, key: tuple, variants: list[Variant], splices: dict) -> None:
        raw = any(v.raw for v in variants)
        helpers, main = STAGES[key[0]]
        builder = ProgramBuilder(self._defines(code, key, raw))
        builder.include("prelude", "Particles/common.glsl")
        builder.include("prelude", helpers)
        if code.history and key[0] in ("emit", "step"):
            builder.include("prelude", "Particles/history.glsl")
        builder.include("prelude", "Particles/affector_falloff.glsl")
        if key[0] == "step":
            builder.include("prelude", "Particles/collider_resolve.glsl")
            if code.bound_pairs:
                builder.include("prelude", "Particles/bound_emission.glsl")
        for v in variants:
            inline(builder, v)
            builder.text("nodes", loaders(v, bakes), f"<generated: parameters of {v.material.display}>")
        builder.skeleton("main", main, splices, f"{self.spec.name} {key[0]} program")
        code.sources[key] = builder.source()
        if raw:
            code.raw_programs.add(key)


# -- the splices: what of a program is the system's own --------------------------------------

def _used_at(code: SystemCode, v: Variant, level: int) -> bool:
    return any(inst.variant is v and inst.level == level for inst in code.instances)


def _call(v: Variant, base: str, derived: str | None) -> list[str]:
    """Load a node's parameters and call its variant's hook (bracketed when it indexes the
    storage blocks itself)."""
    out = [f"{v.prefix}load({base} + {v.common_words}u);"]
    if derived is not None and v.per_step:
        out.append(f"{v.prefix}loadStep({derived});")
    call = f"{v.prefix}{HOOKS[v.kind]}(kz_self);"
    out += ["kz_flush();", call, "kz_reload();"] if v.raw else [call]
    return out


def _switch(variants: list[Variant], kind: str, field: str, params: str, derived: str | None,
            before=(), after=()) -> str:
    """A switch on the emitter table's variant number of a slot: each case loads the
    emitter's parameters and calls its variant."""
    variants = [v for v in variants if v.kind == kind]
    if not variants:
        return ""
    out = [f"switch (kz_table(kz_e, {field})) {{"]
    for v in variants:
        out.append(f"case {v.case}u: {{")
        out += ["    " + s for s in (*before, *_call(v, params, derived), *after)]
        out += ["    break;", "}"]
    out.append("}")
    return "\n".join(out)


def _events(variants: list[Variant]) -> str:
    return _switch(variants, "events", "E_EVENTS", "kz_table(kz_e, E_EVENTS_PARAMS)", "kz_table(kz_e, E_EVENTS_DERIVED)",
                   before=["kz_eventsBegin();"], after=["kz_eventsEnd();"])


def _step_splices(code: SystemCode) -> dict:
    affectors, sweeps = [], []
    for inst in code.instances:
        v, b = inst.variant, inst.param_base
        if v.kind == "affector":
            affectors += [f"if (kz_param({b}u) != 0u) {{    // {inst.name}",
                          f"    kz_affectorTransform = kz_paramMat4({b + 1}u);",
                          *("    " + s for s in _call(v, f"{b}u", f"{inst.derived_base}u")),
                          "}"]
        elif v.kind == "collider":      # the earliest crossing over every enabled one: a tie goes to the first
            p = v.prefix
            sweeps += [f"if (kz_param({b}u) != 0u) {{    // {inst.name}",
                       f"    {p}load({b + v.common_words}u);",
                       *([f"    {p}loadStep({inst.derived_base}u);"] if v.per_step else []),
                       f"    if ({p}sweep(a, b, s, m) && s < t) {{",
                       "        t = s;",
                       "        n = m;",
                       f"        r = {p}response();",
                       "        found = true;",
                       "    }",
                       "}"]
    by_source: dict[int, list[int]] = {}
    for source, channel in code.bound_pairs:
        by_source.setdefault(source, []).append(channel)
    bound = []
    for source, channels in sorted(by_source.items()):
        bound += [f"if (kz_e == {source}u) {{", *(f"    kz_emitBound({c}u);" for c in channels), "}"]
    return {"SELF_AFFECT": _switch(code.variants, "self", "E_SELF", "kz_table(kz_e, E_SELF_PARAMS)",
                                   "kz_table(kz_e, E_SELF_DERIVED)",
                                   before=["kz_affectorTransform = kz_emitterTransform;"]),
            "AFFECTORS": "\n".join(affectors), "COLLIDERS": "\n".join(sweeps), "BOUND": "\n".join(bound),
            "EVENTS": _events(code.variants), "HISTORY": HISTORY_CALLS["step"] if code.history else ""}


def _count_splices(code: SystemCode, count: list[Variant], prepare: list[Variant]) -> dict:
    """`prepare`: the variants with per-step constants in this program (level 0: all)."""
    nodes = []
    for inst in code.instances:
        v = inst.variant
        if v in prepare and v.kind in ("affector", "collider"):
            b = inst.param_base
            nodes.append(f"// {inst.name}")
            if v.kind == "affector":
                nodes.append(f"kz_affectorTransform = kz_paramMat4({b + 1}u);")
            nodes += [f"{v.prefix}load({b + v.common_words}u);", f"{v.prefix}{PREPARE}();",
                      f"{v.prefix}storeStep({inst.derived_base}u);"]
    emitter = []
    for kind, slot, pfield, dfield in (("self", "E_SELF", "E_SELF_PARAMS", "E_SELF_DERIVED"),
                                       ("events", "E_EVENTS", "E_EVENTS_PARAMS", "E_EVENTS_DERIVED")):
        variants = [v for v in prepare if v.kind == kind]
        if not variants:
            continue
        emitter.append(f"switch (kz_table(kz_e, {slot})) {{")
        for v in variants:
            emitter += [f"case {v.case}u:"]
            if kind == "self":
                emitter.append("    kz_affectorTransform = kz_emitterTransform;")
            emitter += [f"    {v.prefix}load(kz_table(kz_e, {pfield}) + {v.common_words}u);",
                        f"    {v.prefix}{PREPARE}();",
                        f"    {v.prefix}storeStep(kz_table(kz_e, {dfield}));", "    break;"]
        emitter.append("}")
    counts = []
    if count:
        counts.append("switch (kz_table(kz_e, E_COUNT)) {")
        for v in count:
            counts += [f"case {v.case}u:", f"    {v.prefix}load(kz_table(kz_e, E_COUNT_PARAMS));",
                       f"    wanted = {v.prefix}emissionCount();", "    break;"]
        counts.append("}")
    return {"PREPARE_EMITTER": "\n".join(emitter), "PREPARE_NODES": "\n".join(nodes), "COUNT": "\n".join(counts)}


__all__ = ["Generator", "SystemCode", "Variant", "zero_bakes"]
