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

from kzplayer.commands.report import print_diagnostics
from kzplayer.diagnostics import Severity
from kzplayer.project.literals import format_literal
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


def _rows(project, graph):
    """(item, [(name, value, bound, stale)]) for every item in tree order; `stale`: bound
    but no binding gave it its value."""
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
            rows.append((n, graph.value(item, n), bound, bound and not graph.is_evaluated(item, n)))
        yield item, rows


def inspect_data(project, graph) -> dict:
    items = []
    for item, props in _rows(project, graph):
        items.append({"path": item.path, "type": item.type,
                      "properties": {n: json_value(v) for n, v, _, _ in props},
                      "bound": [n for n, _, bound, _ in props if bound],
                      "unevaluated": [n for n, _, _, stale in props if stale]})
    return {"project": project.name, "items": items}


def _shown(v) -> str:
    if isinstance(v, BufferHandle):
        return f"{v.kind} of {v.owner}"
    try:
        return format_literal(v, "float") if v is not None else "(empty)"
    except TypeError:
        return repr(v)


def _mark(bound: bool, stale: bool) -> str:
    return "(bound, not evaluated)" if stale else "(bound)" if bound else ""


def render_text(project, graph, fancy: bool) -> None:
    if fancy:
        from rich.console import Console
        from rich.markup import escape
        from rich.tree import Tree
        tree = Tree(f"[bold]{escape(project.name)}[/] ({escape(project.path)})")
        nodes = {id(project.root): tree}
        for item, props in _rows(project, graph):
            node = nodes[id(item.parent)].add(f"[bold]{escape(item.name)}[/] [dim]{item.type}[/]")
            nodes[id(item)] = node
            for n, v, bound, stale in props:
                node.add(f"[cyan]{escape(n)}[/] = {escape(_shown(v))}" + (f"  [yellow]{_mark(bound, stale)}[/]" if bound else ""))
        Console().print(tree)
        return
    out = [f"{project.name} ({project.path})"]
    for item, props in _rows(project, graph):
        depth = item.path.count("/") + 1
        pad = "  " * depth
        out.append(f"{pad}{item.name} [{item.type}]")
        for n, v, bound, stale in props:
            out.append(f"{pad}  {n} = {_shown(v)}" + (f"  {_mark(bound, stale)}" if bound else ""))
    click.echo("\n".join(out))


def run(project_path: str, as_json: bool = False) -> None:
    import kzplayer
    from kzplayer.bindings import resolve
    project = kzplayer.load(project_path)
    graph = resolve(project)
    diags = list(project.diagnostics) + list(graph.diagnostics)
    if as_json:
        click.echo(json.dumps(inspect_data(project, graph), indent=2, ensure_ascii=False))
    else:
        render_text(project, graph, fancy=sys.stdout.isatty())
    shown = [d for d in diags if d.severity != Severity.NOTE]
    if shown:
        print_diagnostics(shown, stream=sys.stderr)
    notes = len(diags) - len(shown)
    if notes:     # notes are for `kzplayer validate`; here they would bury the tree
        click.echo(f"({notes} note{'s' if notes > 1 else ''}: see kzplayer validate {project_path})", err=True)
    if any(d.severity == Severity.ERROR for d in diags):
        sys.exit(1)
