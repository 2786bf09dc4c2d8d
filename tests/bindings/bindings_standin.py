"""TEMPORARY stand-ins for the loader and the evaluator while they are being written
(used only when kzplayer.load / kzplayer.expr.evaluate are missing)."""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from kzplayer.diagnostics import Span
from kzplayer.project.literals import parse_literal
from kzplayer.project.model import Binding, BindingSource, Item, Project, Property

_NOT_ITEMS = {"Property", "Binding", "BindingItem", "BindingSourceItem", "PropertyType", "MaterialType", "Alias"}


def load(path):
    tree = etree.parse(str(path))
    root_el = tree.getroot()
    project = Project(root_el.get("name"), Item("Project", ""), path=str(path))

    def span(el):
        return Span(str(path), el.sourceline, 1)

    def props(el):
        return {p.get("name"): (p.text or "") for p in el if p.tag == "Property"}

    def build(el, parent):
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "Property":
                name = child.get("name")
                spec = project.property_spec(name)
                parent.properties[name] = Property(name, parse_literal(child.text, spec.type if spec else None),
                                                   child.text or "", span(child))
            elif child.tag == "Binding":
                parent.bindings.append(Binding(child.get("target"), child.text or "", short=True,
                                               field=child.get("field", "WHOLE_PROPERTY"),
                                               mode=child.get("mode", "ONE_WAY"), owner=parent,
                                               span=span(child), expression_span=span(child)))
            elif child.tag == "BindingItem":
                p = props(child)
                srcs = []
                for s in child:
                    if s.tag == "BindingSourceItem":
                        sp = props(s)
                        srcs.append(BindingSource(s.get("name"), sp.get("BindingSourceItem.Item", ""),
                                                  sp.get("BindingSourceItem.Source", ""),
                                                  sp.get("BindingSourceItem.Field"), span(s), span(s)))
                parent.bindings.append(Binding(
                    p.get("BindingItem.Target", ""), p.get("BindingItem.SourceExpression", ""),
                    name=child.get("name"), field=p.get("BindingItem.TargetPropertyAttribute", "WHOLE_PROPERTY"),
                    mode=p.get("BindingItem.BindingMode", "ONE_WAY"), push_target=p.get("BindingItem.PushTarget"),
                    enabled=p.get("BindingItem.IsBindingEnabled", "true").lower() == "true",
                    raw_code=p.get("BindingItem.RawCode"), sources=srcs, owner=parent, span=span(child),
                    expression_span=span(child), raw_code_span=span(child)))
            elif child.tag not in _NOT_ITEMS and child.get("name") is not None or child.getparent() is root_el:
                item = parent.add_child(Item(child.tag, child.get("name") or child.tag, span=span(child)))
                build(child, item)

    build(root_el, project.root)
    return project


@dataclass
class Result:
    value: object = None
    skipped: bool = False


class _Skip(Exception):
    pass


def evaluate(program, env):
    from kzplayer.expr import ast
    from kzplayer.expr.arithmetic import binary, unary
    from kzplayer.expr.fields import get_field
    variables = {}

    def ev(n):
        if isinstance(n, (ast.Number, ast.String, ast.Bool)):
            return n.value
        if isinstance(n, ast.Ref):
            return env.lookup(n.reference)
        if isinstance(n, ast.Name):
            return variables[n.name]
        if isinstance(n, ast.Binary):
            return binary(n.op, ev(n.left), ev(n.right))
        if isinstance(n, ast.Unary):
            return unary(n.op, ev(n.operand))
        if isinstance(n, ast.Ternary):
            return ev(n.then) if ev(n.cond) else ev(n.otherwise)
        if isinstance(n, ast.Field):
            return get_field(ev(n.value), n.field)
        if isinstance(n, ast.Assign):
            variables[n.name] = ev(n.value)
            return variables[n.name]
        if isinstance(n, ast.Call):
            name, args = n.name.lower(), [ev(a) for a in n.args]
            if name == "continueif":
                if not args[0]:
                    raise _Skip
                return None
            if name == "getcurrentvalue":
                return env.current_value()
            return {"min": min, "max": max, "int": int, "float": float,
                    "clamp": lambda lo, hi, v: max(lo, min(hi, v))}[name](*args)
        raise NotImplementedError(type(n).__name__)

    value = None
    try:
        for s in program.statements:
            value = ev(s)
    except _Skip:
        return Result(None, True)
    return Result(value)
