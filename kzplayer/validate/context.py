"""What rules look at: the project, its catalog, and the facts several rules share, computed
once per project: the parsed and checked expressions, the resolved binding graph, which
bindings write which property, which material sits in a slot; and the problems the loader,
the expression checker and the binding graph found on their own (`pipeline_diagnostics`)."""
from __future__ import annotations

import bisect
import re
from functools import cached_property

from kzplayer.bindings import lights, resolve
from kzplayer.bindings.binding import parse_program
from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.expr import check
from kzplayer.project.model import Binding, Item, Project
from kzplayer.project.source import source_lines
from kzplayer.scene import Scene
from kzplayer.validate.problem import Problem

# the buffer properties: an emitter's outputs, a subemitter's consumers, which feeds which
from kzplayer.bindings.sources import (CONSUMERS, DATA_BUFFER, EVENT_BUFFER, FED_BY,  # noqa: F401
                                       SOURCE_DATA, SOURCE_EVENTS)
# the slots whose materials must read the consumer buffers of a subemitter
EVENT_SLOTS = ("ParticleEmitter.EmissionMaterial", "ParticleEmitter.EmissionCountMaterial")
PARTICLE_MATERIAL = "ParticleEmitter.ParticleMaterial"


class Context:
    def __init__(self, project: Project, loader_diagnostics: list[Diagnostic] | None = None,
                 graph=None):
        self.project = project
        self.loader_diagnostics = loader_diagnostics or []
        if graph is not None:
            self.graph = graph      # resolved by the caller already: the property is not run

    # -- the catalog and the tree ----------------------------------------------------------
    @property
    def catalog(self):
        """The stock catalog plus the project's custom types (built once, by the Project)."""
        return self.project.catalog

    @cached_property
    def material_slots(self) -> dict[str, str]:
        """Slot property (`ParticleEmitter.EmissionMaterial`) -> the slot it fills (`Emission`)."""
        return {p.name: p.slot for p in self.catalog.properties.values()
                if p.type == "material" and p.slot}

    @cached_property
    def items(self) -> list[Item]:
        return list(self.project.walk())

    @cached_property
    def emitters(self) -> list[Item]:
        return [i for i in self.items if i.type == "ParticleEmitter"]

    def find(self, path: str | None, relative_to: Item | None = None) -> Item | None:
        if not path:
            return None
        return self.project.find(path, relative_to=relative_to)

    @cached_property
    def scene(self) -> Scene:
        """The project read as it plays (kzplayer.scene), without node records: values,
        slot materials and meshes as the player reads them."""
        return Scene(self.project, self.graph, records=False)

    def value(self, item: Item, name: str):
        """A property's value after bindings (as written, else the catalog default; no
        presets or clamps: a range check sees what the file says). As it plays: scene.value."""
        return self.scene.values.bound(item, name)

    @cached_property
    def programs(self) -> dict[int, tuple]:
        """id(binding) -> (SourceExpression program, RawCode program or None), parsed once,
        with positions mapped as the bindings map them (`&lt;` is one character)."""
        out = {}
        for _, b in self.bindings:
            full = b.raw_code is not None and not b.short
            cb = self._compiled.get(id(b))             # the graph parsed what it runs already
            ran, parsed = getattr(cb, "program", None), getattr(cb, "shown", None)
            shown = ran if ran is not None and not full else parsed or parse_program(b, "expression")
            raw = None
            if full:
                raw = ran if ran is not None else parse_program(b, "raw_code")
            out[id(b)] = (shown, raw)
        return out

    @cached_property
    def expression_diagnostics(self) -> list[Diagnostic]:
        """Every problem inside every binding's text: syntax, types, functions, fields."""
        found = []
        for owner, b in self.bindings:
            target = self.catalog.property(b.target)
            for program in self.programs[id(b)]:
                if program is None:
                    continue
                try:
                    if on_material(owner):    # a uniform binding: the light lists and the uniform's type
                        found.extend(lights.check(self.project, owner, b, program))
                        continue
                    found.extend(check(program, self._ref_type(owner, b), target_type=target and target.type))
                except Exception as exc:    # a bug in the checker must not hide the other problems
                    found.append(internal_error("checking this expression", exc, program.span or b.span))
        return found

    def _ref_type(self, owner: Item, binding: Binding):
        """ref_type for the expression checker: a reference's catalog type (None: unknown)."""
        def ref_type(ref):
            name = ref.property
            if ref.kind == "index":
                src = next((s for s in binding.sources if s.name == str(ref.index)), None)
                name = src.source if src is not None and not src.field else None
            spec = self.catalog.property(name) if name else None
            return spec.type if spec is not None else None
        return ref_type

    @cached_property
    def pipeline_diagnostics(self) -> list[Diagnostic]:
        """What loading, checking the expressions and resolving the bindings found, each
        problem once: the first report of a rule at a spot wins (the checker's note on an
        engine-only function, say, over the evaluator's failure), and an evaluation error of
        a binding that has another error already (a bad path, a type error) is only its echo."""
        graph = self.graph.diagnostics if self.graph is not None else []
        first = [*self.loader_diagnostics, *self.expression_diagnostics,
                 *(d for d in graph if not _evaluation_error(d))]
        broken = {self.binding_at(d.span) for d in first if d.severity is Severity.ERROR} - {None}
        later = [d for d in graph if _evaluation_error(d) and self.binding_at(d.span) not in broken]
        out: dict[tuple, Diagnostic] = {}
        for d in (*first, *later):
            out.setdefault(spot(d), d)
        # schema.invalid is the catch-all: a specific report at the same spot says it better
        specific = {spot(d)[1:] for d in out.values() if d.rule != "schema.invalid"}
        return [d for d in out.values() if d.rule != "schema.invalid" or spot(d)[1:] not in specific]

    @cached_property
    def _extents(self) -> dict[str, tuple[list, list]]:
        """file -> (sorted starts, [(start, end, id(binding))]) of every binding's text, so
        that the binding holding a position is found by bisection."""
        by_file: dict[str, list] = {}
        for _, b in self.bindings:
            spans = [s for s in (b.span, b.target_span, b.expression_span, b.raw_code_span,
                                 b.push_target_span, *(x for src in b.sources for x in (src.span, src.item_span)))
                     if s is not None]
            if spans:
                start = min((s.line, s.column) for s in spans)
                end = max((s.end_line, s.end_column) for s in spans)
                by_file.setdefault(spans[0].file, []).append((start, end, id(b)))
        out = {}
        for file, extents in by_file.items():
            extents.sort()
            out[file] = ([e[0] for e in extents], extents)
        return out

    def binding_at(self, span) -> int | None:
        """id() of the binding whose text holds `span`."""
        if span is None or span.file not in self._extents:
            return None
        starts, extents = self._extents[span.file]
        k = bisect.bisect_right(starts, (span.line, span.column)) - 1
        if k >= 0 and (span.line, span.column) <= extents[k][1]:
            return extents[k][2]
        return None

    @cached_property
    def graph(self):
        """The resolved binding graph, or None where bindings cannot be resolved at all (the
        binding rules report why)."""
        try:
            return resolve(self.project)
        except Exception as exc:    # reported; the rules that need the graph then see no bindings
            self.loader_diagnostics.append(internal_error("resolving the bindings", exc, None))
            return None

    # -- materials -------------------------------------------------------------------------
    def material_name(self, item: Item, slot_property: str) -> str | None:
        """The material in a slot as the user wrote it (a legacy name stays legacy)."""
        prop = item.properties.get(slot_property)
        if prop is None:
            return None
        text = (prop.text or "").strip() or (str(prop.value) if prop.value is not None else "")
        return text or None

    def plays(self, item: Item, slot_property: str, material: str) -> bool:
        """Whether the slot, after bindings, holds the stock `material` under any of its
        names (alias, asset-package path)."""
        return self.scene.plays(item, slot_property, material)

    def material(self, item: Item, slot_property: str):
        """The catalog's MaterialSpec in that slot (None when empty or unknown)."""
        name = self.material_name(item, slot_property)
        return self.catalog.material(name) if name else None

    # -- bindings --------------------------------------------------------------------------
    @cached_property
    def bindings(self) -> list[tuple[Item, Binding]]:
        """(owner, binding) for every binding, in tree order."""
        return [(item, b) for item in self.items for b in item.bindings]

    def push_target(self, owner: Item, binding: Binding) -> Item | None:
        """The item a binding writes into: its PushTarget, or the owner when it has none."""
        if not binding.push_target:
            return owner
        return self.find(binding.push_target, relative_to=owner)

    @cached_property
    def bound(self) -> dict[tuple[int, str], list[tuple[Item, Binding]]]:
        """(id(item), property) -> the enabled bindings that write it. A consumer-buffer
        binding counts for the item that holds it: that is the subemitter it was made for,
        and binding.push-target reports a PushTarget that points elsewhere."""
        table: dict[tuple[int, str], list] = {}
        for owner, b in self.bindings:
            target = owner if b.target in CONSUMERS else self.push_target(owner, b)
            if target is not None and b.enabled:
                table.setdefault((id(target), b.target), []).append((owner, b))
        return table

    @cached_property
    def _compiled(self) -> dict[int, object]:
        return {id(cb.binding): cb for cb in getattr(self.graph, "bindings", ())}

    def reads(self, binding: Binding) -> set[tuple[Item, str]]:
        """The (item, property) nodes a binding reads, as the binding graph resolved them."""
        cb = self._compiled.get(id(binding))
        if cb is None:
            return set()
        return {node for node in (i.node for i in cb.inputs.values()) if node[0] is not None}

    def bindings_into(self, item: Item, name: str) -> list[tuple[Item, Binding]]:
        return self.bound.get((id(item), name), [])

    def consumers_bound(self, emitter: Item) -> list[str]:
        """The consumer buffer properties bindings write into (the emitter is a subemitter)."""
        return [c for c in CONSUMERS if self.bindings_into(emitter, c)]

    def event_driven_slots(self, emitter: Item) -> list[tuple[str, object]]:
        """(slot property, MaterialSpec) of each event-driven material the emitter uses."""
        return [(p, spec) for p in EVENT_SLOTS
                if (spec := self.material(emitter, p)) is not None and spec.event_driven]

    def buffer_sources(self, emitter: Item) -> dict[str, list[tuple[Item, Binding]]]:
        """Consumer property -> (source emitter, binding) for each output buffer bound into it."""
        out: dict[str, list] = {}
        for consumer, output in FED_BY.items():
            for _, b in self.bindings_into(emitter, consumer):
                for item, name in sorted(self.reads(b), key=lambda node: node[0].path):
                    if name == output and item.type == "ParticleEmitter":
                        out.setdefault(consumer, []).append((item, b))
        return out

    # -- positions -------------------------------------------------------------------------
    def name_span(self, prop):
        """Where a property's name is written (the caret goes under `Emission.Rat` in
        `<Property name="Emission.Rat">`), else its element (a .kzproj entry, an entity)."""
        s = prop.span
        if s is None:
            return None
        line = self._source_line(s.file, s.line)
        pattern = r"""\bname\s*=\s*(["'])""" + re.escape(prop.name) + r"\1"
        m = re.compile(pattern).search(line, s.column - 1)
        if m is None or (s.end_line == s.line and m.end() > s.end_column - 1):
            return s
        column = m.start(1) + 2          # 1-based, after the quote
        return Span(s.file, s.line, column, s.line, column + len(prop.name))

    def item_name_span(self, item):
        """Where an element's `name="..."` is written (the caret under the name), else the
        element."""
        s = item.span
        if s is None:
            return None
        line = self._source_line(s.file, s.line)
        m = re.compile(r"""\bname\s*=\s*(["'])""" + re.escape(item.name) + r"\1").search(line, max(s.column - 1, 0))
        if m is None:
            return s
        column = m.start(1) + 2          # 1-based, after the quote
        return Span(s.file, s.line, column, s.line, column + len(item.name))

    def property_value_span(self, start, name: str, value: str):
        """Where `<Property name="NAME">VALUE` is written in the lines from `start` on (a
        BindingSourceItem's Source, whose position the loader does not keep), else `start`."""
        if start is None or not value:
            return start
        pattern = re.compile(r"""name\s*=\s*(["'])""" + re.escape(name) + r"\1\s*>\s*(" + re.escape(value) + ")")
        for number in range(start.line, start.line + 12):      # the element's own few lines
            m = pattern.search(self._source_line(start.file, number))
            if m:
                column = m.start(2) + 1
                return Span(start.file, number, column, number, column + len(value))
        return start

    def _source_line(self, file: str, number: int) -> str:
        lines = source_lines(file)
        return lines[number - 1] if 0 < number <= len(lines) else ""


def spot(d: Diagnostic) -> tuple:
    """A rule at a position (where the problem starts); two reports of it are one problem."""
    s = d.span
    return (d.rule, s.file, s.line, s.column) if s else (d.rule, d.message)


def internal_error(doing: str, exc: Exception, span) -> Diagnostic:
    """A bug in kzplayer met while validating: said, not raised, so the rest still gets checked."""
    return Diagnostic(code_for("internal.error"), "internal.error", Severity.ERROR,
                      f"internal error while {doing}: {type(exc).__name__}: {exc}", span,
                      "this is a bug in kzplayer, not in the project; please report it")


def _evaluation_error(d: Diagnostic) -> bool:
    """An expression error the binding graph met while running a binding (not while reading it)."""
    return d.rule.startswith("expr.") and d.rule not in ("expr.self-reference", "expr.division-by-zero")


def value_span(prop):
    """Where a property's value is written (the caret goes under the value), else the element."""
    return prop.value_span or prop.span


def did_you_mean(suggestion: str | None) -> str | None:
    return f"did you mean '{suggestion}'?" if suggestion else None


def on_material(item: Item) -> bool:
    """A material type's bindings are evaluated by Kanzi for each node drawn with it (`./` is
    that node), never by kzplayer."""
    return item.type.endswith("MaterialType")


def particle_system(item: Item) -> Item | None:
    """The ParticleSystem an emitter, affector or collider runs in (None: it runs in none)."""
    node = item.parent
    while node is not None and node.type != "ParticleSystem":
        node = node.parent
    return node


def other_names(context: Context):
    """(Alias, span where it is written) for every use of another name of a catalog entry:
    property names (on items, as binding targets and sources, in expressions), material
    names in slots, enum words; see [alias.*] in the catalog."""
    cat = context.catalog
    if not cat.aliases:
        return
    for item in context.items:
        for name, prop in item.properties.items():
            a = cat.alias(name)
            if a is not None:
                yield a, context.name_span(prop)
            spec = cat.property(name)
            word = (prop.text or "").strip()
            if spec is not None and spec.enum_aliases and word in dict(spec.enum_aliases):
                yield next(x for x in cat.aliases if x.kind == "enum" and x.name == word
                           and x.property == spec.name), value_span(prop)
    for item, slot_property, name, _ in slotted_materials(context):
        a = cat.alias(str(name).rsplit("/", 1)[-1], "material")
        if a is not None:
            yield a, value_span(item.properties[slot_property])
    for _, b in context.bindings:
        a = cat.alias(b.target) if b.target else None
        if a is not None:
            yield a, b.target_span or b.span
        for s in b.sources:
            a = cat.alias(s.source) if s.source else None
            if a is not None:
                yield a, s.span
        for program in context.programs[id(b)]:
            for ref in (program.references if program is not None else ()):
                a = cat.alias(ref.property) if ref.property else None
                if a is not None:
                    yield a, ref.span


def alias_problems(context: Context, origin: str, say):
    """One Problem per other name of `origin` in use, at its first use, the others related."""
    uses: dict = {}
    for a, span in other_names(context):
        if a.origin == origin:
            uses.setdefault(a, []).append(span)
    for a, spans in uses.items():
        message, hint = say(a)
        yield Problem(spans[0], message, hint, related=tuple(x for x in spans[1:] if x is not None))


def slotted_materials(context: Context):
    """(item, slot property, material name as written, MaterialSpec or None) for every
    filled material slot of the project."""
    for item in context.items:
        for slot_property in context.material_slots:
            if slot_property in item.properties:
                name = context.material_name(item, slot_property)
                if name:
                    yield item, slot_property, name, context.catalog.material(name)
