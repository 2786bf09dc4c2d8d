"""One binding's semantics: a model.Binding compiled into what the graph runs.

* The program that runs is RawCode with `{N}` read through the BindingSourceItem named N
  (what Kanzi's runtime runs); without RawCode (the short `<Binding>` form), the expression
  itself with its references resolved against the owner.
* When a BindingItem has both, SourceExpression and RawCode + sources must say the same
  thing: the same program shape, and each reference reading the same item and property.
  Otherwise `binding.source-mismatch`, pointing at both (the stale-path problem).
* PushTarget (default: the owner) receives the value; Target names the property and
  TargetPropertyAttribute one field of it. TWO_WAY also writes a change of the target back
  to its single source reference. TO_SOURCE (Kanzi's "to-source binding") writes its
  expression's value into the push target's property as that item's own value, which other
  inputs (the user toggling a button) may change again: to kzplayer's graph it runs as
  ONE_WAY does, with any expression.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from kzplayer.bindings.conversions import ConversionError, coerce, field_type, normalize_field, read_field
from kzplayer.bindings.problems import problem
from kzplayer.bindings.sources import (OUTPUTS, Input, Unresolved, check_property, find_item,
                                       node_label, node_type, resolve_reference, unresolved)
from kzplayer.diagnostics import Diagnostic, Severity, a_or_an

ONE_WAY, TWO_WAY, TO_SOURCE = "ONE_WAY", "TWO_WAY", "TO_SOURCE"
_MODES = {"ONEWAY": ONE_WAY, "TWOWAY": TWO_WAY, "TOSOURCE": TO_SOURCE}


@dataclass(eq=False)
class CompiledBinding:
    binding: object                 # kzplayer.project.model.Binding
    owner: object                   # the item that holds the binding; relative paths start here
    item: object | None             # the push target: the item whose property receives the value
    name: str                       # the target property
    field: str | None               # TargetPropertyAttribute (None: whole property)
    mode: str
    enabled: bool
    index: int                      # position in tree order
    program: object | None = None   # what runs: RawCode, else the expression
    shown: object | None = None     # the SourceExpression's program where RawCode runs (compared)
    inputs: dict[tuple, Input] = field(default_factory=dict)   # Reference.key -> what it reads
    back: Input | None = None       # the single source reference that TWO_WAY writes back
    ok: bool = True                 # False: a problem keeps it from running (reported)
    mismatched: bool = False        # SourceExpression and RawCode read different properties (reported)

    @property
    def target(self) -> tuple:
        return (self.item, self.name)

    @property
    def reads(self) -> set[tuple]:
        return {i.node for i in self.inputs.values()}

    @property
    def writes(self) -> tuple | None:
        return self.target

    @property
    def span(self):
        b = self.binding
        return b.target_span or b.span

    @property
    def label(self) -> str:
        return node_label(self.writes or self.target)

    def __repr__(self) -> str:
        return f"<binding {self.label} {self.mode}>"


def compile_binding(binding, index: int, project) -> tuple[CompiledBinding, list[Diagnostic]]:
    owner = binding.owner
    diags: list[Diagnostic] = []
    cat = project.catalog
    target = cat.canonical(binding.target) if cat is not None and binding.target else binding.target
    cb = CompiledBinding(binding, owner, owner, target, None, ONE_WAY, bool(binding.enabled), index)

    def fail(d: Diagnostic) -> None:
        diags.append(d)
        if d.severity is Severity.ERROR:
            cb.ok = False

    mode = _MODES.get((binding.mode or ONE_WAY).replace("_", "").upper())
    if mode is None:
        fail(problem("binding.mode", f"unknown binding mode {binding.mode!r}", binding.span,
                     hint="ONE_WAY, TWO_WAY or TO_SOURCE"))
    cb.mode = mode or ONE_WAY
    try:
        cb.field = normalize_field(binding.field)
    except ConversionError as exc:
        fail(problem("binding.type-mismatch", f"TargetPropertyAttribute: {exc}", binding.span))
    if binding.push_target:
        found = find_item(project, binding.push_target, owner)
        cb.item = found or None
        if not found:
            fail(unresolved(found, binding.push_target_span or binding.span, "PushTarget"))
    if cb.field and cb.item and (problem_ := _field_problem(cb, project)):
        fail(problem_)
    spec = project.property_spec(cb.name)
    if cb.name in OUTPUTS:
        fail(problem("binding.output-target", f"{cb.name} is an output of the emitter: "
                     "a binding reads it, it cannot write it", binding.target_span or binding.span))
    elif spec is not None and spec.output:
        fail(problem("binding.output-target", f"{cb.name} is computed by the engine: a binding "
                     "reads it, it cannot write it", binding.target_span or binding.span))
    if cb.enabled and (why := undelivered(binding, cb.item, project)):
        fail(why)

    if not cb.enabled:
        return cb, diags   # a disabled binding does nothing; its text is the validator's business
    if owner.type.endswith("MaterialType"):
        # Kanzi evaluates these for every node drawn with the material, `./` being that node
        cb.ok = False
        diags.append(problem("expr.not-evaluable", f"the binding of material uniform {cb.name} is "
                             "evaluated by Kanzi for each node drawn with the material; kzplayer "
                             "does not evaluate material bindings", binding.target_span or binding.span,
                             severity=Severity.NOTE))
        return cb, diags
    # an empty RawCode (hand-written files) is derived from the expression, as the short form's is
    runs_raw = bool((binding.raw_code or "").strip()) and not binding.short
    span = (binding.raw_code_span if runs_raw else binding.expression_span) or binding.span
    cb.program = parse_program(binding, "raw_code" if runs_raw else "expression")
    if runs_raw and not cb.program.diagnostics:
        cb.program = fold_source_fields(cb.program, binding.sources)
    if cb.program.diagnostics:
        for d in cb.program.diagnostics:
            fail(d)
        return cb, diags
    lost: dict[tuple, Diagnostic] = {}      # source items that lead nowhere, by reference
    for ref in cb.program.unique_references:
        try:
            cb.inputs[ref.key] = (_source_input(binding, ref, project, owner) if ref.kind == "index"
                                  else resolve_reference(project, ref, owner))
        except Unresolved as exc:
            lost[ref.key] = exc.diagnostic
    if runs_raw and (binding.expression or "").strip():
        mismatches = source_mismatch(cb, project, lost)
        cb.mismatched = any(d.rule == "binding.source-mismatch" for d in mismatches)
        diags.extend(mismatches)
    for d in lost.values():
        fail(d)
    for d in _check(cb, project):
        fail(d)
    if cb.mode == TWO_WAY:
        ref = single_reference(cb.program)
        if ref is None:
            fail(problem("binding.mode", f"a {cb.mode} binding writes back to its source, so its "
                         "expression must be one plain reference", span or binding.span,
                         severity=Severity.WARNING, hint="this binding works one way only"))
        else:
            cb.back = cb.inputs.get(ref.key)
    return cb, diags


def undelivered(binding, target, project) -> Diagnostic | None:
    """Why Kanzi delivers nothing from a binding into a buffer property (the events page's
    gotchas 1 and 2): a BindingItem without a PushTarget ("load-bearing: without a push
    target the buffer handle never reaches the GPU-side property"), or a push target that
    does not declare the property ("the binding has nowhere to write"). The graph then does
    not run the binding, as Kanzi would not: the one answer to "what runs" that validate
    (binding.push-target, binding.target-undeclared) and play (the subemitter stays
    unwired) both read."""
    spec = project.property_spec(binding.target)
    if spec is None or spec.type != "buffer" or spec.output:
        return None
    owner = binding.owner
    if not binding.short and not binding.push_target:
        return problem("binding.push-target", f"this {binding.target} binding has no PushTarget: Kanzi "
                       "delivers the buffer handle nowhere and the subemitter never fires (kzplayer plays "
                       "it so)", binding.span, hint=f"set BindingItem.PushTarget to {owner.path}")
    if target is owner and binding.target not in owner.properties:
        return problem("binding.target-undeclared", f"{binding.target} is not declared on '{owner.name}': "
                       "the binding has nowhere to write (kzplayer plays it so)",
                       binding.target_span or binding.span,
                       hint=f'add <Property name="{binding.target}"/> to {owner.type} \'{owner.name}\' '
                            "(empty: the binding fills it)")
    return None


# The problems of `undelivered`: the binding does nothing, as in Kanzi; play plays without it.
UNDELIVERED = ("binding.push-target", "binding.target-undeclared")


def _field_problem(cb: CompiledBinding, project) -> Diagnostic | None:
    """TargetPropertyAttribute names a field the target's type does not have (VECTOR_X of a
    float): the binding cannot run, whatever its expression gives."""
    from kzplayer.expr.fields import field_names
    from kzplayer.expr.types import SAMPLES
    kind = node_type(project, cb.target)
    if kind not in SAMPLES:
        return None
    try:
        read_field(SAMPLES[kind], cb.field)
    except ConversionError:
        names = field_names(SAMPLES[kind])
        return problem("binding.type-mismatch", f"TargetPropertyAttribute {cb.field}: {cb.name} is "
                       f"{a_or_an(kind)}, which has no such field", cb.span,
                       hint=f"{kind} has {', '.join(names)}" if names else "bind the WHOLE_PROPERTY")
    return None


def _check(cb: CompiledBinding, project) -> list[Diagnostic]:
    """The type checker over the whole program, as Kanzi compiles a binding before it runs:
    an unknown function, a wrong argument count, a type or field error, an unassigned
    variable or a result the target cannot take ("invalid result type") is reported (and
    stops the binding) even in a branch that the current values never take; engine-only
    functions are notes. Value errors are left to the run."""
    from kzplayer.expr import infer
    from kzplayer.expr.types import sample

    def ref_type(ref):
        src = cb.inputs.get(ref.key)
        if src is None:
            return None
        return field_type(node_type(project, src.node), src.field)
    target = field_type(node_type(project, cb.target), cb.field) if cb.item else None
    result, found = infer(cb.program, ref_type, target_type=target)
    # a constant 1/0 or int("x") is a problem only if the run reaches it (`false && 1/0`)
    found = [d for d in found if d.rule not in _RUNTIME]
    if cb.ok and result and target and not any(d.severity is Severity.ERROR for d in found):
        try:
            coerce(sample(result), target)
        except ConversionError as exc:
            found.append(problem("binding.type-mismatch", f"binding of {cb.label}: {exc}",
                                 cb.binding.expression_span or cb.span))
    return found


_RUNTIME = ("expr.division-by-zero", "expr.value")


def parse_program(binding, which: str):
    """The binding's `expression` or `raw_code` parsed, with positions exact in the file also
    where the file spells characters as entities (`&lt;` is one character of the text)."""
    from kzplayer.expr import parse
    from kzplayer.project.model import text_positions
    text = getattr(binding, which) or ""
    span = getattr(binding, f"{which}_span") or binding.span
    # the loader records where entities sit in both texts (`expression_anchors`, `raw_code_anchors`)
    anchors = getattr(binding, f"{which}_anchors", ())
    position = text_positions(text, span, anchors) if anchors and span else None
    return parse(text, span=span, position=position)


def _canonical(project, name: str) -> str:
    cat = project.catalog
    return cat.canonical(name) if cat is not None and name else name


def fold_source_fields(program, sources):
    """RawCode with `{N}.field` read as `{N}` where BindingSourceItem N already takes that field.

    Kanzi Studio writes a field read right after a reference twice: in the text
    (`{0}.translationY + 0.4`, as the SourceExpression has it) and as the source item's
    PropertyAttribute (TRANSLATION_Y). The runtime reads the field once: the source gives the
    component, and the `.translationY` in the text is that same read."""
    from kzplayer.expr.ast import Field, Node, Program, Ref
    fields = {}
    for s in sources:
        try:
            f = normalize_field(s.field)
        except ConversionError:
            continue
        if f and s.name.isdigit():
            fields[int(s.name)] = f

    def visit(node):
        if isinstance(node, Field) and isinstance(node.value, Ref) and node.value.reference.kind == "index" \
                and fields.get(node.value.reference.index) == _field_key(node.field):
            return node.value
        if isinstance(node, tuple):
            return tuple(visit(n) for n in node)
        if isinstance(node, Node) and dataclasses.is_dataclass(node):
            changed = {f.name: visit(getattr(node, f.name)) for f in dataclasses.fields(node)
                       if isinstance(getattr(node, f.name), (Node, tuple))}
            return dataclasses.replace(node, **changed) if changed else node
        return node
    if not fields:
        return program
    return Program([visit(st) for st in program.statements], program.text, program.diagnostics, program.span)


def single_reference(program):
    """The reference when the program is exactly one reference (what two-way binding needs)."""
    from kzplayer.expr.ast import Ref
    if len(program.statements) == 1 and isinstance(program.statements[0], Ref):
        return program.statements[0].reference
    return None


def _source_input(binding, ref, project, owner) -> Input:
    """`{N}` -> the BindingSourceItem named N: its Item (usually absolute), Source, field."""
    src = next((s for s in binding.sources if s.name == str(ref.index)), None)
    if src is None:
        raise Unresolved(problem("binding.source-mismatch", f"RawCode uses {ref.spelling} but the "
                                 f"binding has no BindingSourceItem named {ref.index}", ref.span))
    item = find_item(project, src.item, owner)
    if not item:
        raise Unresolved(unresolved(item, src.item_span or src.span, f"BindingSourceItem {src.name}: Item"))
    check_property(project, item, src.source, src.span, f"BindingSourceItem {src.name}: Source",
                   unknown="property.unknown")
    try:
        fld = normalize_field(src.field)
    except ConversionError as exc:
        raise Unresolved(problem("binding.type-mismatch", f"BindingSourceItem {src.name}: {exc}", src.span))
    return Input((item, _canonical(project, src.source)), fld, src.span)


# -- SourceExpression versus RawCode + sources ----------------------------------------------

def source_mismatch(cb: CompiledBinding, project, lost: dict) -> list[Diagnostic]:
    """SourceExpression and RawCode + sources must compute the same thing from the same places.

    A source item that names another item than the expression's path, or no item at all while
    the expression's path still finds one, is `path.stale` (in the second case it replaces the
    `path.unresolved` in `lost`); a source reading another property, or a different program,
    is `binding.source-mismatch`."""
    b = cb.binding
    shown = cb.shown = parse_program(b, "expression")
    if shown.diagnostics:
        return []            # the expression's own errors are reported by the expression rules
    def source_field(ref):          # as the BindingSourceItem says, whether or not its Item resolves
        src = next((s for s in b.sources if s.name == str(ref.index)), None) if ref.kind == "index" else None
        try:
            return normalize_field(src.field) if src is not None else None
        except ConversionError:
            return None
    if _shape(shown) != _shape(cb.program, source_field):
        return [problem("binding.source-mismatch", f"SourceExpression {b.expression.strip()!r} and "
                        f"RawCode {b.raw_code.strip()!r} are different programs",
                        b.expression_span or b.span, related=(b.raw_code_span,),
                        hint="Kanzi runs RawCode; edit the binding in one place so both agree")]
    out = []
    for shown_ref, raw_ref in zip(shown.references, cb.program.references):
        try:
            seen = (cb.inputs.get(shown_ref.key) if shown_ref.kind == "index"
                    else resolve_reference(project, shown_ref, cb.owner))
        except Unresolved:
            continue          # the expression's own path leads nowhere: nothing to compare with
        raw = cb.inputs.get(raw_ref.key)
        if seen is None or (raw is not None and seen.node == raw.node):
            continue
        src = next((s for s in b.sources if s.name == str(raw_ref.index)), None)
        if src is None:
            continue          # `{N}` without a source item: reported as it is
        meant = seen.node[0]
        if meant is None:     # the expression reads the DataContext, the source item an item
            out.append(problem(
                "binding.source-mismatch",
                f"SourceExpression {shown_ref.spelling} reads the data context, but RawCode "
                f"{raw_ref.spelling} reads {raw.label if raw else repr(src.item)} through "
                f"BindingSourceItem {src.name}", shown_ref.span or b.expression_span,
                related=(src.span,), hint="Kanzi runs RawCode; edit the binding in one place so both agree"))
            continue
        # the item the source names: it may be found while its Source or field is wrong
        named = raw.node[0] if raw is not None else find_item(project, src.item, cb.owner) or None
        if named is not meant:
            if raw is None and raw_ref.key not in lost:
                continue
            now = "leads to no item" if named is None else f"names {named.path}"
            stale = problem(
                "path.stale", f"BindingSourceItem {src.name}: Item {src.item!r} {now}, but the "
                f"SourceExpression's {shown_ref.spelling} names {meant.path} (renamed or moved?)",
                src.item_span or src.span, related=(shown_ref.span,),
                hint=f"set BindingSourceItem.Item to {meant.path}")
            if named is None:
                lost[raw_ref.key] = stale      # cannot run: reported in place of path.unresolved
            else:
                out.append(stale)              # names another item (runs, if its Source is right)
            continue
        if raw is None:
            continue          # the right item, but its Source or field is wrong: reported as it is
        out.append(problem(
            "binding.source-mismatch",
            f"SourceExpression {shown_ref.spelling} reads {seen.label}, but RawCode {raw_ref.spelling} "
            f"reads {raw.label} through BindingSourceItem {src.name}", shown_ref.span or b.expression_span,
            related=(src.span,), hint=f"set BindingSourceItem.Source to {seen.node[1]}"))
    return out


def _shape(node, source_field=lambda ref: None):
    """A program's structure with every reference replaced by a placeholder. A field read
    after a reference (`{../Src/Node3D.RenderTransformation}.translationY`) and a `{N}` whose
    BindingSourceItem takes that field are the same shape: both read one component."""
    from kzplayer.expr.ast import Field, Node, Program, Ref
    if isinstance(node, Program):
        return tuple(_shape(s, source_field) for s in node.statements)
    if isinstance(node, Field) and isinstance(node.value, Ref) and not source_field(node.value.reference):
        return ("REF", _field_key(node.field))
    if isinstance(node, Ref):
        fld = source_field(node.reference)
        return ("REF", fld) if fld else "REF"
    if isinstance(node, Node) and dataclasses.is_dataclass(node):
        return (type(node).__name__,) + tuple(
            _shape(getattr(node, f.name), source_field) for f in dataclasses.fields(node) if f.compare)
    if isinstance(node, tuple):
        return tuple(_shape(n, source_field) for n in node)
    return node


def _field_key(name: str) -> str:
    try:
        return normalize_field(name) or name
    except ConversionError:
        return name.lower()
