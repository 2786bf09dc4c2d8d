"""`kzplayer inspect PROJECT [--json]`: the item tree with every property's value after
bindings (cli.md). Properties shown: those written in the files and those a binding writes.
JSON values: numbers, bools and strings as such; vectors and colours as lists; Srt3D/Srt2D
as {"scale", "rotation", "translation"}; matrices as lists; enum words, item paths and
material names as strings; buffers as {"buffer": kind, "of": emitter path}. A bound property
whose binding could not run (an error, a DataContext input without a value) shows the value
it would have without the binding, marked "(bound, not evaluated)" and listed in
"unevaluated"."""
from __future__ import annotations

import json
import math
import sys

import click

from kzplayer.bindings import resolve
from kzplayer.commands.report import print_diagnostics
from kzplayer.diagnostics import Severity
from kzplayer.project.literals import format_literal
from kzplayer.project.loader import load
from kzplayer.values import BufferHandle, Color4, Matrix, Srt2D, Srt3D, Vector


def json_value(v):
    """A property value as JSON data (cli.md, inspect --json)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else str(v)
    if isinstance(v, (Vector, Color4)):
        return [json_value(c) for c in v]
    if isinstance(v, Srt3D) or isinstance(v, Srt2D):
        rot = v.rotation if isinstance(v, Srt2D) else list(v.rotation)
        return {"scale": list(v.scale), "rotation": rot, "translation": list(v.translation)}
    if isinstance(v, Matrix):
        return list(v.values)
    if isinstance(v, BufferHandle):
        return {"buffer": v.kind, "of": v.owner}
    return str(v)


def _rows(project, graph, defaults: bool = False):
    """(item, [(name, value, bound, stale, default)]) for every item in tree order; `stale`:
    bound but no binding gave it its value; `default`: unset, shown with --defaults."""
    written = {}
    for b in getattr(graph, "bindings", []):
        node = getattr(b, "writes", None)
        if node and node[0] is not None:
            written.setdefault(id(node[0]), []).append(node[1])
    for item in project.walk():
        names = list(item.properties)
        names += [n for n in written.get(id(item), []) if n not in names]
        rows = []
        for n in names:
            bound = graph.is_bound(item, n)
            rows.append((n, graph.value(item, n), bound, bound and not graph.is_evaluated(item, n), False))
        if defaults:
            rows += [(n, graph.value(item, n), False, False, True)
                     for n in unset_properties(project.catalog, item, graph, set(names))]
        yield item, rows


def unset_properties(catalog, item, graph, present: set) -> list[str]:
    """The properties in effect on `item` that nothing sets, in catalog order: those of its
    type, and those the materials in its slots read (an empty Particle slot: the default
    billboard's). Engine outputs (the event buffers) are left out."""
    if catalog is None:
        return []
    materials = []
    for name, spec in catalog.properties.items():
        if spec.slot and item.type in spec.item_types:
            ref = graph.value(item, name)
            if ref is None and spec.slot == "Particle":
                ref = "ParticlesDefault"
            mat = catalog.material(str(getattr(ref, "name", ref))) if ref else None
            if mat is not None and mat.legacy and mat.replacement:
                materials.append(mat)
                mat = catalog.material(mat.replacement)
            if mat is not None:
                materials.append(mat)
    read = {n for m in materials for n in m.properties}
    return [n for n, spec in catalog.properties.items()
            if n not in present and not spec.output and not spec.slot
            and ((item.type in spec.item_types and not spec.materials) or n in read)]


def inspect_data(project, graph, defaults: bool = False) -> dict:
    items = []
    for item, props in _rows(project, graph, defaults):
        entry = {"path": item.path, "type": item.type,
                 "properties": {n: json_value(v) for n, v, *_ in props},
                 "bound": [n for n, _, bound, _, _ in props if bound],
                 "unevaluated": [n for n, _, _, stale, _ in props if stale]}
        if defaults:
            entry["defaults"] = [n for n, *_, default in props if default]
        items.append(entry)
    return {"project": project.name, "items": items}


def _shown(v) -> str:
    if isinstance(v, BufferHandle):
        return f"{v.kind} of {v.owner}"
    try:
        return format_literal(v, "float") if v is not None else "(empty)"
    except TypeError:
        return repr(v)


def _mark(bound: bool, stale: bool, default: bool = False) -> str:
    return "(bound, not evaluated)" if stale else "(bound)" if bound else "(default)" if default else ""


def render_text(project, graph, fancy: bool, defaults: bool = False, paths: bool = False) -> None:
    """The tree (names, indented), or with `paths` one line per item with its full
    ProjectItemPath, which `--set 'PATH:Prop=VALUE'` takes as it is."""
    if paths:
        out = [f"{project.name} ({project.path})"]
        for item, props in _rows(project, graph, defaults):
            out.append(f"{item.path} [{item.type}]")
            for n, v, bound, stale, default in props:
                mark = _mark(bound, stale, default)
                out.append(f"  {n} = {_shown(v)}" + (f"  {mark}" if mark else ""))
        click.echo("\n".join(out))
        return
    if fancy:
        # rich only for a terminal: piped output and --json never load it
        from rich.console import Console
        from rich.markup import escape
        from rich.tree import Tree
        tree = Tree(f"[bold]{escape(project.name)}[/] ({escape(project.path)})")
        nodes = {id(project.root): tree}
        for item, props in _rows(project, graph, defaults):
            node = nodes[id(item.parent)].add(f"[bold]{escape(item.name)}[/] [dim]{item.type}[/]")
            nodes[id(item)] = node
            for n, v, bound, stale, default in props:
                mark = _mark(bound, stale, default)
                node.add(f"[cyan]{escape(n)}[/] = {escape(_shown(v))}"
                         + (f"  [{'dim' if default else 'yellow'}]{mark}[/]" if mark else ""))
        Console().print(tree)
        return
    out = [f"{project.name} ({project.path})"]
    for item, props in _rows(project, graph, defaults):
        depth = item.path.count("/") + 1
        pad = "  " * depth
        out.append(f"{pad}{item.name} [{item.type}]")
        for n, v, bound, stale, default in props:
            mark = _mark(bound, stale, default)
            out.append(f"{pad}  {n} = {_shown(v)}" + (f"  {mark}" if mark else ""))
    click.echo("\n".join(out))


def run(project_path: str, as_json: bool = False, defaults: bool = False, paths: bool = False) -> None:
    project = load(project_path)
    graph = resolve(project)
    diags = list(project.diagnostics) + list(graph.diagnostics)
    if as_json:
        click.echo(json.dumps(inspect_data(project, graph, defaults), indent=2, ensure_ascii=False))
    else:
        render_text(project, graph, fancy=sys.stdout.isatty(), defaults=defaults, paths=paths)
    shown = [d for d in diags if d.severity != Severity.NOTE]
    if shown:
        print_diagnostics(shown, stream=sys.stderr)
    notes = len(diags) - len(shown)
    if notes:     # notes are for `kzplayer validate`; here they would bury the tree
        click.echo(f"({notes} note{'s' if notes > 1 else ''}: see kzplayer validate {project_path})", err=True)
    if any(d.severity == Severity.ERROR for d in diags):
        sys.exit(1)
