"""A binding's programs: its expression or RawCode parsed with exact file positions,
RawCode's `{N}.field` read once (`fold_source_fields`), the one reference two-way binding
writes back to, and the check that SourceExpression and RawCode + sources say the same thing
(`source_mismatch`: `binding.source-mismatch`, `path.stale`).
"""
from __future__ import annotations

import dataclasses

from kzplayer.bindings.conversions import ConversionError, normalize_field
from kzplayer.bindings.problems import problem
from kzplayer.bindings.sources import Unresolved, find_item, resolve_reference
from kzplayer.diagnostics import Diagnostic
from kzplayer import expr
from kzplayer.expr.ast import Field, Node, Program, Ref
from kzplayer.project.model import text_positions


def parse_program(binding, which: str):
    """The binding's `expression` or `raw_code` parsed, with positions exact in the file also
    where the file spells characters as entities (`&lt;` is one character of the text)."""
    text = getattr(binding, which) or ""
    span = getattr(binding, f"{which}_span") or binding.span
    # the loader records where entities sit in both texts (`expression_anchors`, `raw_code_anchors`)
    anchors = getattr(binding, f"{which}_anchors", ())
    position = text_positions(text, span, anchors) if anchors and span else None
    return expr.parse(text, span=span, position=position)    # looked up per call: a test counts the parses


def fold_source_fields(program, sources):
    """RawCode with `{N}.field` read as `{N}` where BindingSourceItem N already takes that field.

    Kanzi Studio writes a field read right after a reference twice: in the text
    (`{0}.translationY + 0.4`, as the SourceExpression has it) and as the source item's
    PropertyAttribute (TRANSLATION_Y). The runtime reads the field once: the source gives the
    component, and the `.translationY` in the text is that same read."""
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
    if len(program.statements) == 1 and isinstance(program.statements[0], Ref):
        return program.statements[0].reference
    return None


def source_mismatch(cb, project, lost: dict) -> list[Diagnostic]:
    """SourceExpression and RawCode + sources must compute the same thing from the same places
    (`cb` a binding.CompiledBinding being compiled).

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
