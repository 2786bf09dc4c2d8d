"""Where a binding reads from: references resolved to graph nodes.

A node is `(item, property name)`. Relative paths resolve against the binding's OWNER (the
item that holds the BindingItem), as Kanzi does; absolute paths against the project, with
or without the project name. `{DataContext.a.b}` is an input node `(None, "a.b")` whose
value the user gives (`--set DataContext.a.b=39`). An emitter's `ParticleEmitter.EventBuffer`
and `.ParticleDataBuffer` are outputs: their value is the emitter's BufferHandle, computed
here and never stored in files.
"""
from __future__ import annotations

from dataclasses import dataclass

from kzplayer.bindings.problems import problem
from kzplayer.diagnostics import Diagnostic, Span
from kzplayer.project.spans import SpanField
from kzplayer.project.paths import resolve
from kzplayer.values import BufferHandle, type_name

EVENT_BUFFER, DATA_BUFFER = "ParticleEmitter.EventBuffer", "ParticleEmitter.ParticleDataBuffer"
SOURCE_EVENTS, SOURCE_DATA = "Emission.SourceEventBuffer", "Emission.SourceParticleDataBuffer"
# output property -> BufferHandle.kind
OUTPUTS = {EVENT_BUFFER: "EventBuffer", DATA_BUFFER: "ParticleDataBuffer"}
# a subemitter's consumer property -> the output property that feeds it
FED_BY = {SOURCE_EVENTS: EVENT_BUFFER, SOURCE_DATA: DATA_BUFFER}
# consumer property -> the kind of output buffer it takes
CONSUMERS = {consumer: OUTPUTS[output] for consumer, output in FED_BY.items()}
DATA_CONTEXT = "DataContext"


def output_value(item, name: str):
    """The computed value of an output property (a BufferHandle), or None if `name` is none."""
    kind = OUTPUTS.get(name)
    if kind is None or item is None or item.type != "ParticleEmitter":
        return None
    return BufferHandle(kind, item.path)


def node_type(project, node: tuple, spec_of=None) -> str | None:
    """The type of a node's value: declared (catalog or custom PropertyType), an output's
    "buffer", else the type of the value the item holds (a dynamic property, as Kanzi
    allows); None where unknown (DataContext inputs, an undeclared property with no value).
    `spec_of`: the project's property_spec, or a caller's cached twin of it (lookups.py)."""
    item, name = node
    if item is None:
        return None
    spec = (spec_of or project.property_spec)(name)
    if spec is not None:
        return spec.type
    if output_value(item, name) is not None:
        return "buffer"
    prop = item.properties.get(name)
    return type_name(prop.value) if prop is not None and prop.value is not None else None


def data_context_key(name: str) -> str | None:
    """`DataContext.gauges.battery` -> `gauges.battery`; None for any other name."""
    prefix = DATA_CONTEXT + "."
    return name[len(prefix):] if name.startswith(prefix) else None


@dataclass(eq=False)
class Input:
    """One source of a binding: the node it reads and the field it takes (a BindingSourceItem's
    field; fields written after a reference in the expression are the evaluator's business)."""
    node: tuple
    field: str | None = None
    span: Span | None = SpanField()       # may be worked out when read (binding._compile_shared)

    @property
    def label(self) -> str:
        return node_label(self.node)


def node_label(node: tuple) -> str:
    item, name = node
    if item is None:
        return f"{DATA_CONTEXT}.{name}"
    return f"{item.path}:{name}"


class Unresolved(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.message)


def find_item(project, path: str, owner):
    """The item `path` names (relative paths and aliases start at `owner`), or a falsy
    kzplayer.project.paths.PathError that says why not and names the nearest item."""
    return resolve(project, path, owner)


def path_message(error) -> str:
    """A PathError's message, naming the nearest item that exists on the way."""
    near = error.nearest
    if near is not None and near.path and near.path not in error.message:
        return f"{error.message} (the nearest item that exists: {near.path})"
    return error.message


def unresolved(error, span: Span | None, what: str) -> Diagnostic:
    """`path.unresolved` for a PathError."""
    return problem("path.unresolved", f"{what}: {path_message(error)}", span,
                   hint="a renamed or moved item breaks the paths that name it")


def check_property(project, item, name: str | None, span: Span | None, what: str,
                   unknown: str = "path.unresolved") -> None:
    """Raise Unresolved when `item` can have no property `name` (a typo, a missing one, or an
    emitter's output buffer asked of another kind of item). A name nothing declares is
    reported under the rule `unknown`: a path's last part is the path's problem, a
    BindingSourceItem's Source is a property name written as a value (`property.unknown`)."""
    if name in OUTPUTS and item.type != "ParticleEmitter":
        raise Unresolved(problem(
            "path.unresolved", f"{what}: {item.path} is a {item.type}; only a ParticleEmitter has "
            f"the output {name}", span, hint="point the path at the source emitter"))
    if name and (item.own_property(name) is not None or project.property_spec(name) is not None
                 or output_value(item, name) is not None):
        return
    near = project.catalog.suggest_property(name) if name and project.catalog is not None else None
    raise Unresolved(problem(
        unknown if name else "path.unresolved", f"{what}: {item.path} has no property {name!r}" if name
        else f"{what}: a reference names a property after the last '/'", span,
        hint=f"did you mean {near!r}?" if near else "declare custom properties in <PropertyTypes>"))


def resolve_reference(project, ref, owner) -> Input:
    """The node a (non-index) expression reference reads; raises Unresolved."""
    if ref.kind == "datacontext":
        return Input((None, ref.property or ""), None, ref.span)
    item = find_item(project, ref.path, owner)      # ##Template: the root of the owner's prefab
    if not item:
        raise Unresolved(unresolved(item, ref.span, ref.spelling))
    check_property(project, item, ref.property, ref.span, ref.spelling)
    cat = project.catalog
    name = cat.canonical(ref.property) if cat is not None and ref.property else ref.property
    return Input((item, name), None, ref.span)
