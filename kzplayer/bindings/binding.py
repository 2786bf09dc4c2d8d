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

from kzplayer.bindings.conversions import ConversionError, coerce, field_type, normalize_field, read_field
from kzplayer.bindings.lookups import Lookups
from kzplayer.bindings.problems import problem
# parse_program and fold_source_fields are importable from here too (binding.py held them).
from kzplayer.bindings.programs import (fold_source_fields, parse_program,  # noqa: F401
                                        single_reference, source_mismatch)
from kzplayer.bindings.record import LATER, CompiledBinding
from kzplayer.bindings.sources import (CONSUMERS, OUTPUTS, Input, Unresolved, check_property, find_item,
                                       node_type, resolve_reference, unresolved)
from kzplayer.diagnostics import Diagnostic, Severity, a_or_an
from kzplayer.expr import infer
from kzplayer.expr.compiled import compiled
from kzplayer.expr.fields import field_names
from kzplayer.expr.parser import shared as shared_tree
from kzplayer.expr.types import SAMPLES, sample

ONE_WAY, TWO_WAY, TO_SOURCE = "ONE_WAY", "TWO_WAY", "TO_SOURCE"
_MODES = {"ONEWAY": ONE_WAY, "TWOWAY": TWO_WAY, "TOSOURCE": TO_SOURCE,
          ONE_WAY: ONE_WAY, TWO_WAY: TWO_WAY, TO_SOURCE: TO_SOURCE}     # (as written mostly)
_WHOLE = (None, "WHOLE_PROPERTY")       # TargetPropertyAttribute values that name no field


def compile_binding(binding, index: int, project, look: Lookups | None = None
                    ) -> tuple[CompiledBinding, list[Diagnostic]]:
    """The graph's record of one binding and what compiling it found. `look`: the graph's
    Lookups while it builds (one is made for a binding compiled alone)."""
    cb, diags = _compile(binding, index, project, look or Lookups(project))
    if cb._inputs:                          # compiled the full way
        cb.nodes = tuple(i.node for i in cb._inputs.values())
    return cb, diags


def _compile(binding, index: int, project, look: Lookups) -> tuple[CompiledBinding, list[Diagnostic]]:
    owner = binding.owner
    diags: list[Diagnostic] = []
    target, spec, written_spec = look.target(binding.target)
    cb = CompiledBinding(binding, owner, owner, target, None, ONE_WAY, bool(binding.enabled), index)
    mode = _MODES.get(binding.mode) or _MODES.get((binding.mode or ONE_WAY).replace("_", "").upper())
    if mode is None:
        _fail(cb, diags, problem("binding.mode", f"unknown binding mode {binding.mode!r}", binding.span,
                                 hint="ONE_WAY, TWO_WAY or TO_SOURCE"))
    cb.mode = mode or ONE_WAY
    if binding.field not in _WHOLE:
        try:
            cb.field = normalize_field(binding.field)
        except ConversionError as exc:
            _fail(cb, diags, problem("binding.type-mismatch", f"TargetPropertyAttribute: {exc}", binding.span))
    if binding.push_target:
        found = find_item(project, binding.push_target, owner)
        cb.item = found or None
        if not found:
            _fail(cb, diags, unresolved(found, binding.push_target_span or binding.span, "PushTarget"))
    cb.target = look.node(cb.item, cb.name)
    if cb.field and cb.item and (problem_ := _field_problem(cb, project)):
        _fail(cb, diags, problem_)
    if cb.item is not None and spec is not None:
        cb.target_type = spec.type          # what a write converts to (record.LIVE: asked then)
    cb.consumer = CONSUMERS.get(cb.name)
    if cb.name in OUTPUTS:
        _fail(cb, diags, problem("binding.output-target", f"{cb.name} is an output of the emitter: "
                                 "a binding reads it, it cannot write it", binding.target_span or binding.span))
    elif spec is not None and spec.output:
        _fail(cb, diags, problem("binding.output-target", f"{cb.name} is computed by the engine: a binding "
                                 "reads it, it cannot write it", binding.target_span or binding.span))
    if cb.enabled and (why := undelivered(binding, cb.item, project, written_spec)):
        _fail(cb, diags, why)

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
    if not runs_raw and cb.ok and not diags and _compile_shared(cb, project, look):
        return cb, diags
    cb.program = parse_program(binding, "raw_code" if runs_raw else "expression")
    cb.runs = cb.program
    if runs_raw and not cb.program.diagnostics:
        cb.program = cb.runs = fold_source_fields(cb.program, binding.sources)
    if cb.program.diagnostics:
        for d in cb.program.diagnostics:
            _fail(cb, diags, d)
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
        _fail(cb, diags, d)
    for d in _check(cb, project):
        _fail(cb, diags, d)
    if cb.mode == TWO_WAY:
        ref = single_reference(cb.program)
        if ref is None:
            span = (binding.raw_code_span if runs_raw else binding.expression_span) or binding.span
            _fail(cb, diags, problem("binding.mode", f"a {cb.mode} binding writes back to its source, so "
                                     "its expression must be one plain reference", span or binding.span,
                                     severity=Severity.WARNING, hint="this binding works one way only"))
        else:
            cb.back = cb.inputs.get(ref.key)
    return cb, diags


def _fail(cb: CompiledBinding, diags: list, d: Diagnostic) -> None:
    """A problem of the binding; an error keeps it from running."""
    diags.append(d)
    if d.severity is Severity.ERROR:
        cb.ok = False


def _compile_shared(cb: CompiledBinding, project, look: Lookups) -> bool:
    """The usual case made cheap: an expression that parses, whose references all resolve and
    that type-checks clean runs its text's one shared tree (expr.parser.shared); its program
    with the file's positions, and its inputs with theirs, are made only if something reads
    them (record.py: validate's rules, a problem found when it runs). Where every reference
    reads an item's property as it is, it runs as one call of the tree's compiled function
    (expr.compiled). False, with `cb` untouched, where anything is to be reported: the caller
    then compiles it the full way, so every problem has its exact place."""
    tree = shared_tree(cb.binding.expression or "")
    if tree is None:
        return False
    nodes = []
    for ref in tree.shared_references:
        if ref.kind == "index":
            return False
        node = look.reference(ref, cb.owner)
        if node is None:
            if ref.kind != "datacontext":
                return False        # leads nowhere: the full way says why
            node = (None, ref.property or "")
        nodes.append(node)
    back = None
    if cb.mode == TWO_WAY:
        ref = single_reference(tree)
        if ref is None:
            return False
    node_type = look.node_type
    target = cb.item is not None and node_type(cb.target)
    key = (tree.text, target if cb.field is None else target and field_type(target, cb.field),
           tuple(map(node_type, nodes)))
    if key not in _CLEAN:
        types = {ref.key: t for ref, t in zip(tree.shared_references, key[2])}
        found = _check(cb, project, tree, lambda ref: types.get(ref.key))
        if found:
            return False
        if len(_CLEAN) >= _CLEAN_MAX:
            _CLEAN.clear()
        _CLEAN.add(key)
    cb.runs, cb.nodes = tree, look.reads(nodes)
    cb._inputs = None                        # made from the nodes when read (record.py)
    cb._program = LATER
    if cb.mode == TWO_WAY:
        cb.back = cb.inputs.get(single_reference(tree).key)
    if all(map(look.plain, nodes)):
        cb.run = compiled(tree)
    return True


# (text, target type, reference types) that type-checked clean: the check depends on nothing
# else, and a project repeats the same binding on every emitter of a kind.
_CLEAN: set[tuple] = set()
_CLEAN_MAX = 100_000


def undelivered(binding, target, project, spec=False) -> Diagnostic | None:
    """Why Kanzi delivers nothing from a binding into a buffer property (the events page's
    gotchas 1 and 2): a BindingItem without a PushTarget ("load-bearing: without a push
    target the buffer handle never reaches the GPU-side property"), or a push target that
    does not declare the property ("the binding has nowhere to write"). The graph then does
    not run the binding, as Kanzi would not: the one answer to "what runs" that validate
    (binding.push-target, binding.target-undeclared) and play (the subemitter stays
    unwired) both read."""
    if spec is False:        # not given: the spec of the target as written
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


def _check(cb: CompiledBinding, project, program=None, ref_type=None) -> list[Diagnostic]:
    """The type checker over the whole program, as Kanzi compiles a binding before it runs:
    an unknown function, a wrong argument count, a type or field error, an unassigned
    variable or a result the target cannot take ("invalid result type") is reported (and
    stops the binding) even in a branch that the current values never take; engine-only
    functions are notes. Value errors are left to the run. `ref_type`: the type of each
    reference (default: from `cb.inputs`)."""
    def inputs_type(ref):
        src = cb.inputs.get(ref.key)
        if src is None:
            return None
        return field_type(node_type(project, src.node), src.field)
    target = field_type(node_type(project, cb.target), cb.field) if cb.item else None
    result, found = infer(program or cb.program, ref_type or inputs_type, target_type=target)
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


def _canonical(project, name: str) -> str:
    cat = project.catalog
    return cat.canonical(name) if cat is not None and name else name


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
