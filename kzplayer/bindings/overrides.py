"""`--set 'ITEM-PATH:Prop=VALUE'`: one property override from the command line.

    item, name, value = parse_override("Screens/Screen/.../Nozzle:Emission.Rate=800", project)
    graph.set_value(item, name, value)       # re-runs what depends on it

`DataContext.gauges.battery=39` (no item path) gives `{DataContext.gauges.battery}` its
value: the result is `(None, "DataContext.gauges.battery", 39)`. Every mistake is a KzError
with exit code 2 (a wrong command line) and a message that says what to write instead.
"""
from __future__ import annotations

import re

from kzplayer.bindings.problems import problem
from kzplayer.bindings.sources import DATA_CONTEXT, find_item, output_value, path_message
from kzplayer.diagnostics import KzError
from kzplayer.project.catalog import number_problem
from kzplayer.project.literals import LiteralError, check_value, parse_literal

# the property is the `Type.Name` right before the first `=`; the path is all before its ':'
_FORM = re.compile(r"^(?P<path>.*?):\s*(?P<prop>[A-Za-z_]\w*(?:\.\w+)+)\s*=(?P<value>.*)$", re.S)
_DATA = re.compile(rf"^{DATA_CONTEXT}\.(?P<key>\w+(?:\.\w+)*)\s*=(?P<value>.*)$", re.S)


def parse_override(text: str, project) -> tuple:
    """(item, property name, typed value) for one `--set` argument; raises KzError."""
    text = text.strip()
    data = _DATA.match(text)
    if data:
        try:
            return None, f"{DATA_CONTEXT}.{data['key']}", _number_ok(text, parse_literal(data["value"]))
        except LiteralError as exc:
            raise _bad(text, f"the value {data['value']!r} does not parse: {exc.message}",
                       _comma_hint(data["value"].strip(), "")) from None
    m = _FORM.match(text)
    if not m:
        raise _bad(text, "expected ITEM-PATH:Type.Property=VALUE, e.g. "
                   "'Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle:Emission.Rate=800'"
                   f", or {DATA_CONTEXT}.name=VALUE")
    path, name, raw = m["path"].strip(), m["prop"], m["value"].strip()
    item = find_item(project, path, None)
    if not item:
        raise _bad(text, path_message(item), _named_like(project, path, f"{name}={raw}"))
    spec = project.property_spec(name)
    if spec is None and name not in item.properties:
        near = project.catalog.suggest_property(name) if project.catalog is not None else None
        raise _bad(text, f"unknown property {name!r}" + (f"; did you mean {near!r}?" if near else ""))
    if output_value(item, name) is not None or (spec is not None and spec.output):
        raise _bad(text, f"{name} is an output of the emitter; it cannot be set")
    if spec is None:                       # a dynamic property: the type of the value it holds
        try:
            return item, name, _number_ok(text, parse_literal(raw))
        except LiteralError as exc:
            raise _bad(text, f"the value {raw!r} does not parse: {exc.message}",
                       _comma_hint(raw, "")) from None
    if spec.type in _TUPLES and "," in raw and not raw.endswith(")"):
        raw = f"({raw})"                   # `1,0,0`: a shell-friendly vector, one reading only
    try:
        return item, name, check_value(raw if spec.type != "string" else _unquote(raw), spec, name)
    except (ValueError, TypeError) as exc:
        raise _bad(text, str(exc), _comma_hint(raw, spec.type)) from None


# the types whose literal is a parenthesised comma list, so a bare comma list means it
_TUPLES = ("vector2", "vector3", "color4")
_MAX_LISTED = 5


def _named_like(project, path: str, assignment: str) -> str | None:
    """The full path(s) of the items named like the path's last part: `Nozzle:...` is the
    usual shorthand that the absolute path form does not take."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    paths = [i.path for i in project.walk() if i.path and i.name == last]
    if len(paths) == 1:
        return f"the item named {last!r} is {paths[0]}: write --set '{paths[0]}:{assignment}'"
    if paths:
        more = ", ..." if len(paths) > _MAX_LISTED else ""
        return f"{len(paths)} items are named {last!r}: {', '.join(paths[:_MAX_LISTED])}{more}"
    return None


def _comma_hint(raw: str, type_name: str) -> str | None:
    if "," not in raw or raw.startswith("(") or type_name in _TUPLES:
        return None
    if type_name in ("float", "int"):
        return "a decimal number is written with a '.' (1.5); a vector in parentheses: (1, 0, 0)"
    return "a vector or colour is written in parentheses: (1, 0, 0)"


def _number_ok(text: str, value):
    """`value`, unless it is a number no property holds (NaN, infinite, an int past 32 bits)."""
    bad = number_problem(value)
    if bad:
        raise _bad(text, f"the value {bad}")
    return value


def _unquote(raw: str) -> str:
    return raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] == '"' else raw


def _bad(text: str, message: str, hint: str | None = None) -> KzError:
    return KzError(problem("cli.override", f"--set {text!r}: {message}", None, hint=hint), exit_code=2)
