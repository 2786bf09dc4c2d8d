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

Each material is inlined once per program as a *variant*: its files renamed with the
variant's prefix (kzplayer.gpu.preprocessor.ProgramBuilder), its `uniform`s turned into
globals loaded from the system's parameter words (one uniform block for all programs,
written once per refresh: kzplayer.gpu.params), its KZ_PER_STEP globals computed once per
step by the count program and loaded by the others. Nodes that share a material share a
variant, with their own parameter words: an affector's are at a base fixed in the program,
an emitter's are found through the emitter table.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.gpu.glsl import PARAM_TYPES
from kzplayer.gpu.materials import Material
from kzplayer.gpu.preprocessor import ProgramBuilder

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
    """A node using a variant: its parameter words and per-step words."""
    variant: Variant
    owner: object                    # the Affector, Collider or Emitter record
    param_base: int = 0
    derived_base: int = 0


@dataclass
class SystemCode:
    """What the generator made for one system."""
    variants: list[Variant]
    instances: list[Instance]
    emitter_instances: dict          # (emitter, kind) -> Instance
    param_words: int
    derived_words: int
    levels: list[int]                # subemitter levels present (0 first)
    events_levels: set[int]          # levels with a GenerateEventsMaterial
    sources: dict                    # ("count" | "emit" | "step" | "children", level) -> Source
    raw_programs: set                # keys of programs that index the storage blocks themselves
    time_scale: bool = True          # some material may set a particle's time scale
    spaced: list = field(default_factory=list)        # emitters in a space of their own (ParticleEmitter.Space)
    space_bases: dict = field(default_factory=dict)   # id(emitter) -> its 32 parameter words
    history: bool = False            # some emitter keeps a position history (Particles/history.glsl)


class Generator:
    """Lays out the variants and instances of a system and writes its programs' sources.

    `emitters`: the system's Emitter records in dependency order (with .count, .emission,
    .self_affect, .events materials and .level); `affectors` and `colliders` in tree order."""

    def __init__(self, emitters, affectors, colliders, *, verlet: bool, image_io: bool,
                 table_vec4s: int, params_limit_vec4s: int, system_name: str = "system", full_walk: bool = False,
                 host_events: bool = False, history_image: bool = True):
        self.emitters, self.affectors, self.colliders = emitters, affectors, colliders
        self.verlet, self.image_io = verlet, image_io
        self.full_walk = full_walk
        self.host_events = host_events      # some emitter's births, deaths or hits go to the host
        self.history_image = history_image
        self.table_vec4s = table_vec4s
        self.params_limit = params_limit_vec4s
        self.name = system_name
        self._variants: dict[tuple, Variant] = {}
        self._scans: dict[tuple, object] = {}

    # -- layout ------------------------------------------------------------------------------

    def _variant(self, kind: str, material: Material) -> Variant:
        key = (kind, material.name, str(material.shader))
        if key not in self._variants:
            count = sum(1 for v in self._variants.values() if v.kind == kind)
            v = Variant(kind, material, f"kz_{kind[0]}{count}_", count + 1)
            node = self._scan(v)
            v.uniforms, v.per_step, v.functions = node.uniforms, node.per_step, node.functions
            v.identifiers = node.identifiers
            v.raw = bool(node.indexed & RAW_BLOCKS)
            hook = MATERIAL_HOOK[kind]
            if hook not in node.functions:
                raise KzError(Diagnostic(
                    "KZ801", "shader.compile", Severity.ERROR,
                    f"{material.display}: the {material.slot} material '{material.name}' does not define "
                    f"`{SIGNATURES[hook]}`", Span(material.display, 1, 1)), exit_code=1)
            self._variants[key] = v
        return self._variants[key]

    def _scan(self, v: Variant):
        builder = ProgramBuilder()
        return self._node(builder, v)

    def _node(self, builder: ProgramBuilder, v: Variant):
        return builder.node(v.material.shader, v.material.display, v.prefix,
                            before=[h for h in HEADERS.get(v.kind, ())], root=getattr(v.material, "root", None))

    def build(self, bakes: dict | None = None) -> SystemCode:
        code = self.layout()
        self.write(code, bakes or {})
        return code

    def layout(self) -> SystemCode:
        """The variants and instances and their parameter and per-step words (no source yet)."""
        instances, per_emitter = [], {}
        for aff in self.affectors:
            if aff.material is not None:
                instances.append(Instance(self._variant("affector", aff.material), aff))
        for col in self.colliders:
            if col.material is not None:
                instances.append(Instance(self._variant("collider", col.material), col))
        for em in self.emitters:
            for kind, material in (("self", em.self_affect), ("events", em.events), ("count", em.count),
                                   ("emission", em.emission)):
                if material is not None:
                    inst = Instance(self._variant(kind, material), em)
                    instances.append(inst)
                    per_emitter[(em, kind)] = inst
        words = derived = 0
        for inst in instances:
            inst.param_base = words
            words += inst.variant.words
            if inst.variant.prepares:
                inst.derived_base = derived
                derived += inst.variant.step_words
        spaced = [em for em in self.emitters if getattr(em, "space", None) is not None]
        space_bases = {}
        for em in spaced:
            space_bases[id(em)] = words
            words += 32
        levels = sorted({em.level for em in self.emitters}) or [0]
        if 0 not in levels:
            levels.insert(0, 0)
        events_levels = {em.level for em in self.emitters
                         if em.events is not None or getattr(em, "channel_of", None) is not None}
        code = SystemCode(list(self._variants.values()), instances, per_emitter, max(words, 1), derived,
                          levels, events_levels, {}, set(),
                          time_scale=any(v.sets_time_scale for v in self._variants.values()),
                          spaced=spaced, space_bases=space_bases,
                          history=any(getattr(em, "history", 0) for em in self.emitters))
        return code

    def write(self, code: SystemCode, bakes: dict) -> None:
        """The programs' sources. `bakes`: {(variant prefix, uniform): GLSL literal} of the
        parameters compiled in as constants (see zero_bakes)."""
        self._bakes = bakes
        code.sources.clear()
        code.raw_programs.clear()
        self._write_sources(code)

    # -- sources -----------------------------------------------------------------------------

    def _defines(self, code: SystemCode, level: int, raw: bool) -> dict:
        defines = {"KZ_IMAGE_IO": 1 if (self.image_io and not raw) else 0, "KZ_VERLET": 1 if self.verlet else 0,
                   "KZ_TIME_SCALE": 1 if code.time_scale else 0, "KZ_LEVEL": level,
                   "KZ_FULL_WALK": 1 if self.full_walk else 0, "KZ_HOST_EVENTS": 1 if self.host_events else 0,
                   "KZ_EMITTER_SPACES": 1 if code.spaced else 0,
                   "KZ_TABLE_VEC4S": self.table_vec4s, "KZ_SCHEDULE_VEC4S": self.table_vec4s}
        if code.history:
            defines["KZ_HISTORY"] = 1
            defines["KZ_HISTORY_IMAGE"] = 1 if self.history_image else 0
        if self.words_in_ssbo(code):
            defines["KZ_WORDS_IN_SSBO"] = 1
            defines["KZ_PARAMS_BASE"] = f"{self.table_words}u"
        else:
            defines["KZ_PARAMS_VEC4S"] = max(-(-code.param_words // 4), 1)
        return defines

    @property
    def table_words(self) -> int:
        from kzplayer.gpu.params import EMITTER_WORDS
        return max(len(self.emitters), 1) * EMITTER_WORDS

    def words_in_ssbo(self, code: SystemCode) -> bool:
        """Do the emitter table or the parameters outgrow a uniform block?"""
        return self.table_words > 4 * self.table_vec4s or -(-code.param_words // 4) > self.params_limit

    def _write_sources(self, code: SystemCode) -> None:
        by_kind = {}
        for v in code.variants:
            by_kind.setdefault(v.kind, []).append(v)
        for level in code.levels:
            count = [v for v in by_kind.get("count", []) if self._used_at(code, v, level)]
            prepare = [v for v in code.variants if v.prepares] if level == 0 else []
            self._program(code, ("count", level), "Particles/stage_count.glsl", count + prepare,
                          lambda b, c=count, p=prepare, lv=level: self._count_main(code, c, p, lv))
            emission = [v for v in by_kind.get("emission", []) if self._used_at(code, v, level)]
            self._program(code, ("emit", level), "Particles/stage_emit.glsl", emission,
                          lambda b, e=emission, lv=level: self._emit_main(code, e, lv))
            if level > 0 and level in code.events_levels:
                events = [v for v in by_kind.get("events", []) if self._used_at(code, v, level)]
                self._program(code, ("children", level), "Particles/stage_step.glsl", events,
                              lambda b, ev=events: self._children_main(code, ev))
        step = [v for v in code.variants if v.kind in ("self", "affector", "collider", "events")]
        self._program(code, ("step", 0), "Particles/stage_step.glsl", step, lambda b: self._step_main(code))

    def _used_at(self, code: SystemCode, v: Variant, level: int) -> bool:
        return any(inst.variant is v and getattr(inst.owner, "level", 0) == level for inst in code.instances)

    def _program(self, code: SystemCode, key: tuple, stage: str, variants: list[Variant], main) -> None:
        raw = any(v.raw for v in variants)
        builder = ProgramBuilder(self._defines(code, key[1], raw))
        builder.include("prelude", "Particles/common.glsl")
        builder.include("prelude", stage)
        if code.history and key[0] in ("emit", "step"):
            builder.include("prelude", "Particles/history.glsl")
        builder.include("prelude", "Particles/affector_falloff.glsl")
        if key[0] == "step":
            builder.include("prelude", "Particles/collider_resolve.glsl")
            if self._bound_pairs():
                builder.include("prelude", "Particles/bound_emission.glsl")
        for v in variants:
            self._node(builder, v)
            builder.text("nodes", self._loaders(v), f"<generated: parameters of {v.material.display}>")
        builder.text("main", main(builder), f"<generated: {self.name} {key[0]} program>")
        code.sources[key] = builder.source()
        if raw:
            code.raw_programs.add(key)

    # -- generated GLSL --------------------------------------------------------------------------

    def _loaders(self, v: Variant) -> str:
        """`<prefix>load(b)` assigns the variant's parameter globals from words b, b+1, ...;
        `<prefix>loadStep(d)` / `storeStep(d)` its per-step globals from / to derived words."""
        lines = [f"void {v.prefix}load(uint b) {{"]
        at = 0
        for u in v.uniforms:
            baked = getattr(self, "_bakes", {}).get((v.prefix, u.name))
            value = baked if baked is not None else _from_param(u.type, f'b + {at}u')
            lines.append(f"    {v.prefix}{u.name} = {value};" + ("     // compiled in" if baked else ""))
            at += type_words(u.type)
        lines.append("}")
        if v.per_step:
            load = [f"void {v.prefix}loadStep(uint d) {{"]
            store = [f"void {v.prefix}storeStep(uint d) {{"]
            at = 0
            for name, type_ in v.per_step:
                words = [f"kz_scheduleWord(kz_derivedWords + d + {at + k}u)" for k in range(type_words(type_))]
                load.append(f"    {v.prefix}{name} = {_from_words(type_, words)};")
                for k, expr in enumerate(_to_words(f"{v.prefix}{name}", type_)):
                    store.append(f"    kz_setScheduleWord(kz_derivedWords + d + {at + k}u, {expr});")
                at += type_words(type_)
            lines += load + ["}"] + store + ["}"]
        return "\n".join(lines)

    def _call(self, v: Variant, base: str, derived: str | None, hook_args: str = "kz_self") -> list[str]:
        """Load a node's parameters and call its variant's hook (bracketed when it indexes
        the storage blocks itself)."""
        out = [f"{v.prefix}load({base} + {v.common_words}u);"]
        if derived is not None and v.per_step:
            out.append(f"{v.prefix}loadStep({derived});")
        call = f"{v.prefix}{HOOKS[v.kind]}({hook_args});"
        out += ["kz_flush();", call, "kz_reload();"] if v.raw else [call]
        return out

    def _switch(self, code: SystemCode, kind: str, field: str, params: str, derived: str | None,
                before: list[str] = (), after: list[str] = (), variants=None) -> list[str]:
        variants = [v for v in (variants if variants is not None else code.variants) if v.kind == kind]
        if not variants:
            return []
        out = [f"switch (kz_table(kz_e, {field})) {{"]
        for v in variants:
            out.append(f"case {v.case}u: {{")
            out += ["    " + s for s in (*before, *self._call(v, params, derived), *after)]
            out.append("    break;")
            out.append("}")
        out.append("}")
        return out

    def _step_main(self, code: SystemCode) -> str:
        self_affect = self._switch(code, "self", "E_SELF", "kz_table(kz_e, E_SELF_PARAMS)",
                                   "kz_table(kz_e, E_SELF_DERIVED)",
                                   before=["kz_affectorTransform = kz_emitterTransform;"])
        affectors = []
        for inst in code.instances:
            if inst.variant.kind == "affector":
                b = inst.param_base
                affectors += [f"if (kz_param({b}u) != 0u) {{    // {inst.owner.item.path}",
                              f"    kz_affectorTransform = kz_paramMat4({b + 1}u);",
                              *("    " + s for s in self._call(inst.variant, f"{b}u", f"{inst.derived_base}u")),
                              "}"]
        events = self._switch(code, "events", "E_EVENTS", "kz_table(kz_e, E_EVENTS_PARAMS)",
                              "kz_table(kz_e, E_EVENTS_DERIVED)", before=["kz_eventsBegin();"],
                              after=["kz_eventsEnd();"])
        return "\n".join([
            "// 3. the emitter's SelfAffectMaterial",
            "void kz_selfAffect() {", *_indent(self_affect), "}",
            "// 4. the system's affectors, in tree order",
            "void kz_affectors() {", *_indent(affectors), "}",
            *self._collider_stage(code),
            *self._bound_stage(),
            "// 7. the emitter's GenerateEventsMaterial",
            "void kz_events() {", *_indent(events), "}",
            "",
            "void main() {",
            "    uint g = gl_WorkGroupID.x;",
            "    uint e = kz_planEmitter(kz_planStep, g);",
            "    uint k = (g - kz_scheduleWord(kz_planStep + e)) * uint(WORKGROUP_SIZE) + gl_LocalInvocationIndex;",
            "    kz_bindEmitter(e);",
            "    if (k >= kz_scheduleWord(kz_stepCounts + e)) {",
            "        return;",
            "    }",
            "#if KZ_FULL_WALK",
            "    kz_begin(kz_first + k);                          // every slot of the pool",
            "    if ((kz_p.flags & FLAG_ALIVE) == 0u) {",
            "        return;",
            "    }",
            "#else",
            "    kz_begin(kz_first + kz_slot(kz_first + k));     // the k-th entry of its live list",
            "#endif",
            "    kz_enterSystemSpace();           // an emitter in a space of its own steps in the system's",
            "    kz_reset();",
            "    kz_selfAffect();",
            "    kz_affectors();",
            "    kz_integrate();",
            "    kz_colliders();",
            "    kz_bound();",
            "    kz_events();",
            "    kz_deathTest();",
            "    kz_leaveSystemSpace();",
            # after leaving: the ring holds positions in the emitter's own space, as its records
            *(["    kz_history();                  // one write: the position history's ring (trails)"]
              if code.history else []),
            "    kz_end();",
            "}",
        ])

    def _collider_stage(self, code: SystemCode) -> list[str]:
        """Stage 6: `kz_sweepAll`, the earliest crossing of a path over every enabled collider
        of the system (in tree order, so a tie goes to the first), and `kz_colliders`, the
        resolver of Particles/collider_resolve.glsl when the system has any."""
        sweeps = []
        for inst in code.instances:
            if inst.variant.kind == "collider":
                b, p = inst.param_base, inst.variant.prefix
                sweeps += [f"if (kz_param({b}u) != 0u) {{    // {inst.owner.item.path}",
                           f"    {p}load({b + inst.variant.common_words}u);",
                           *(["    " + f"{p}loadStep({inst.derived_base}u);"] if inst.variant.per_step else []),
                           f"    if ({p}sweep(a, b, s, m) && s < t) {{",
                           "        t = s;",
                           "        n = m;",
                           f"        r = {p}response();",
                           "        found = true;",
                           "    }",
                           "}"]
        return [
            "// 6. the system's colliders, resolved together: a sequence of earliest hits over all of",
            "// them (Particles/collider_resolve.glsl asks this function for each sub-path)",
            "bool kz_sweepAll(vec3 a, vec3 b, out float t, out vec3 n, out KzResponse r) {",
            "    bool found = false;",
            "    float s;",
            "    vec3 m;",
            "    t = 2.0;",
            "    n = vec3(0.0);",
            "    r = KzResponse(0.0, 0.0, false);",
            *_indent(sweeps),
            "    return found;",
            "}",
            "void kz_colliders() {",
            *(["    kz_collide();"] if sweeps else []),
            "}",
        ]

    def _bound_pairs(self) -> list[tuple[int, int]]:
        """(source, channel) emitter indices of the system's bound subemitters."""
        index = {id(em): k for k, em in enumerate(self.emitters)}
        return [(index[id(ch.particle_source)], index[id(ch)]) for ch in self.emitters
                if getattr(ch, "channel_of", None) is not None and id(ch.particle_source) in index]

    def _bound_stage(self) -> list[str]:
        """`kz_bound`: each particle of a source of bound subemitters writes its emission
        records into their channels (Particles/bound_emission.glsl)."""
        by_source: dict[int, list[int]] = {}
        for source, channel in self._bound_pairs():
            by_source.setdefault(source, []).append(channel)
        body = []
        for source, channels in sorted(by_source.items()):
            body += [f"if (kz_e == {source}u) {{", *(f"    kz_emitBound({c}u);" for c in channels), "}"]
        return ["// emitters bound to particles: the children due from this particle in this step",
                "void kz_bound() {", *_indent(body), "}"]

    def _children_main(self, code: SystemCode, events: list[Variant]) -> str:
        switch = self._switch(code, "events", "E_EVENTS", "kz_table(kz_e, E_EVENTS_PARAMS)",
                              "kz_table(kz_e, E_EVENTS_DERIVED)", before=["kz_eventsBegin();"],
                              after=["kz_eventsEnd();"], variants=events)
        return "\n".join([
            "// The events of the children this level's subemitters made in this step (born at the end",
            "// of the step: not integrated), then their death test.",
            "void main() {",
            "    uint j = gl_GlobalInvocationID.x;",
            "    if (j >= kz_scheduleWord(kz_planEmit + kz_emitterCount)) {",
            "        return;",
            "    }",
            "    uint e = kz_planEmitter(kz_planEmit, j);",
            "    uint n = j - kz_scheduleWord(kz_planEmit + e);",
            "    kz_bindEmitter(e);",
            "    uint s = e * KZ_STATE_WORDS;",
            "    if ((kz_flags & EF_EVENTS) == 0u) {",
            "        return;",
            "    }",
            "    kz_begin(kz_first + kz_slot(kz_freeSlots + kz_first + kz_word(s + 5u) - 1u - n));",
            "    kz_enterSystemSpace();",
            *_indent(switch),
            "    kz_deathTest();",
            "    kz_leaveSystemSpace();",
            "    kz_end();",
            "}",
        ])

    def _count_main(self, code: SystemCode, count: list[Variant], prepare: list[Variant], level: int) -> str:
        per_step = []
        for inst in code.instances:
            v = inst.variant
            if v.prepares and v.kind in ("affector", "collider"):
                b = inst.param_base
                per_step += [f"// {inst.owner.item.path}"]
                if v.kind == "affector":
                    per_step.append(f"kz_affectorTransform = kz_paramMat4({b + 1}u);")
                per_step += [f"{v.prefix}load({b + v.common_words}u);", f"{v.prefix}{PREPARE}();",
                             f"{v.prefix}storeStep({inst.derived_base}u);"]
        emitter_prepare = []
        for kind, slot, pfield, dfield in (("self", "E_SELF", "E_SELF_PARAMS", "E_SELF_DERIVED"),
                                           ("events", "E_EVENTS", "E_EVENTS_PARAMS", "E_EVENTS_DERIVED")):
            variants = [v for v in prepare if v.kind == kind]
            if not variants:
                continue
            emitter_prepare.append(f"switch (kz_table(kz_e, {slot})) {{")
            for v in variants:
                emitter_prepare += [f"case {v.case}u:"]
                if kind == "self":
                    emitter_prepare.append("    kz_affectorTransform = kz_emitterTransform;")
                emitter_prepare += [f"    {v.prefix}load(kz_table(kz_e, {pfield}) + {v.common_words}u);",
                                    f"    {v.prefix}{PREPARE}();",
                                    f"    {v.prefix}storeStep(kz_table(kz_e, {dfield}));", "    break;"]
            emitter_prepare.append("}")
        counts = []
        if count:
            counts.append("switch (kz_table(kz_e, E_COUNT)) {")
            for v in count:
                counts += [f"case {v.case}u:", f"    {v.prefix}load(kz_table(kz_e, E_COUNT_PARAMS));",
                           f"    wanted = {v.prefix}emissionCount();", "    break;"]
            counts.append("}")
        first = level == 0
        return "\n".join([
            "// The emitter's per-step constants (KZ_PER_STEP of its SelfAffect and GenerateEvents materials).",
            "void kz_prepareEmitter() {", *_indent(emitter_prepare), "}",
            "",
            "void main() {",
            "    if (gl_GlobalInvocationID.x != 0u) {",
            "        return;",
            "    }",
            *(_indent(per_step) if first else []),
            "    uint spawns = 0u;",
            "    uint walk = 0u;",
            "    for (uint e = 0u; e < kz_emitterCount; ++e) {",
            "        kz_setScheduleWord(kz_planEmit + e, spawns);",
            *(["        kz_setScheduleWord(kz_planStep + e, walk);", "        kz_setScheduleWord(kz_stepCounts + e, 0u);"] if first else []),
            "        if ((kz_table(e, E_FLAGS) & EF_RUNS) == 0u) {",
            "            continue;",
            "        }",
            "        kz_bindEmitter(e);",
            *(["        kz_setWord(kz_headerWord(e, H_COUNT), 0u);      // this step's Event Buffer starts empty",
               "        kz_setWord(kz_headerWord(e, H_DROPPED), 0u);",
               "        kz_prepareEmitter();"] if first else []),
            "        uint n = 0u;",
            f"        if (kz_table(e, E_LEVEL) == {level}u && kz_table(e, E_COUNT) != 0u && kz_table(e, E_EMISSION) != 0u) {{",
            "            state = kz_loadState(e);",
            "            uint wanted = 0u;",
            *_indent(counts, 3),
            "            kz_countEmitter(wanted);",
            "            kz_storeState(e, state);",
            "            n = state.count;",
            "        }",
            "        spawns += n;",
            *(["#if KZ_FULL_WALK",
               "        uint particles = kz_capacity;",
               "#else",
               "        uint particles = kz_word(kz_liveWord(e, 0u)) + n;     // its live list and its new particles",
               "#endif",
               "        kz_setScheduleWord(kz_stepCounts + e, particles);",
               "        walk += (particles + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);"] if first else []),
            "    }",
            "    kz_finishPlan(kz_planEmit, spawns, (spawns + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));",
            *(["    kz_finishPlan(kz_planStep, walk, walk);",
               "    kz_setScheduleWord(kz_endArgs, 0u);              // the end passes raise it if a list changes",
               "    kz_setScheduleWord(kz_endArgs + 1u, 1u);",
               "    kz_setScheduleWord(kz_endArgs + 2u, 1u);"] if first else []),
            "}",
        ])

    def _emit_main(self, code: SystemCode, emission: list[Variant], level: int) -> str:
        switch = self._switch(code, "emission", "E_EMISSION", "kz_table(kz_e, E_EMISSION_PARAMS)", None,
                              variants=emission)
        tail = (["    kz_setSlot(kz_first + kz_word(kz_liveWord(e, 0u)) + n, local);   // walked by this step's kernel"]
                if level == 0 else
                ["    kz_enterSystemSpace();  // (the record is stored; a host death is told in the system's space)",
                 "    kz_deathTest();         // born at the end of the step: a child with lifetime 0 dies in it"])
        return "\n".join([
            "void main() {",
            "    uint j = gl_GlobalInvocationID.x;      // the j-th new particle of the system",
            "    if (j >= kz_scheduleWord(kz_planEmit + kz_emitterCount)) {",
            "        return;",
            "    }",
            "    uint e = kz_planEmitter(kz_planEmit, j);",
            "    uint n = j - kz_scheduleWord(kz_planEmit + e);",
            "    kz_bindEmitter(e);",
            "    state = kz_loadState(e);",
            "    uint local = kz_slot(kz_freeSlots + kz_first + state.emitBase - 1u - n);   // popped in the count pass",
            "    uint i = kz_first + local;",
            "    kz_beginSpawn(i, n);",
            *(["    kz_spawnFrame(n);            // a subemitter at its event, in its emission basis"] if level > 0 else []),
            *_indent(switch),
            "    kz_endSpawn();",
            *(["    kz_historyCollapse();           // a new trail starts at the spawn point"]
              if code.history else []),
            *tail,
            "}",
        ])


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


def _indent(lines, depth: int = 1) -> list[str]:
    return ["    " * depth + s for s in lines]


def _from_param(glsl_type: str, at: str) -> str:
    name = {"float": "Float", "int": "Int", "uint": "", "bool": "Bool"}.get(glsl_type, glsl_type.capitalize())
    return f"kz_param{name}({at})"


def _from_words(glsl_type: str, words: list[str]) -> str:
    if glsl_type == "uint":
        return words[0]
    if glsl_type == "int":
        return f"int({words[0]})"
    if glsl_type == "bool":
        return f"({words[0]} != 0u)"
    floats = [f"uintBitsToFloat({w})" for w in words]
    if glsl_type == "float":
        return floats[0]
    if glsl_type.startswith(("ivec", "uvec")):
        cast = "int" if glsl_type[0] == "i" else ""
        return f"{glsl_type}({', '.join(f'{cast}({w})' if cast else w for w in words)})"
    return f"{glsl_type}({', '.join(floats)})"


def _to_words(expr: str, glsl_type: str) -> list[str]:
    n = type_words(glsl_type)
    if glsl_type == "uint":
        return [expr]
    if glsl_type in ("int", "bool"):
        return [f"uint({expr})"]
    if glsl_type == "float":
        return [f"floatBitsToUint({expr})"]
    if glsl_type.startswith("mat"):
        size = int(glsl_type[3])
        return [f"floatBitsToUint({expr}[{c}][{r}])" for c in range(size) for r in range(size)]
    if glsl_type.startswith(("ivec", "uvec")):
        return [f"uint({expr}[{k}])" for k in range(n)]
    return [f"floatBitsToUint({expr}[{k}])" for k in range(n)]


__all__ = ["Generator", "SystemCode", "Variant", "Instance", "zero_bakes"]
