"""What changed between two projects, as reviewers read it: items added, removed, renamed
or moved (tree order is affector order, so a reordered affector is "moved": it changes
what plays), properties changed (typed values, with the catalog's unit), bindings changed
(the expression, and the value it evaluates to in each version), bound values that follow
from another change, materials changed (a MaterialType's own properties, its shader files).

Only the model is compared, never the text: whitespace, attribute order, comments and the
layout (one file or a folder) make no change. Items are matched top-down: children of
matched items by name and type, then the rest by type and content (renamed); what is left
anywhere is matched by name and type, or by content (moved to another parent)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kzplayer.diagnostics import Span
from kzplayer.project.literals import format_literal

MATERIAL_TYPES = ("MaterialType", "Material")


@dataclass
class Change:
    kind: str                     # added removed renamed moved reordered property binding bound attribute shader
    path: str                     # the item (its new path; the old one for removed)
    what: str = ""                # a property / binding target / attribute / shader file
    old: str | None = None
    new: str | None = None
    old_at: Span | None = None
    new_at: Span | None = None
    unit: str = ""
    note: str = ""
    material: bool = False        # the change is to a material

    def as_dict(self, old_side=None, new_side=None) -> dict:
        def where(span, side):
            if span is None:
                return None
            return {"file": side.shown(span.file) if side else span.file, "line": span.line}
        return {"kind": self.kind, "path": self.path, "what": self.what, "old": self.old, "new": self.new,
                "unit": self.unit, "note": self.note, "material": self.material,
                "old_at": where(self.old_at, old_side), "new_at": where(self.new_at, new_side)}


def diff_projects(old_side, new_side) -> list[Change]:
    old, new = old_side.project, new_side.project
    pairs: list[tuple] = []
    unmatched_old: list = []
    unmatched_new: list = []
    changes: list[Change] = []
    _match_children(old.root, new.root, pairs, unmatched_old, unmatched_new, changes)
    # moved to another parent: by name and type, else by content
    for key in (lambda i: (i.name, i.type), lambda i: (i.type, _signature(i))):
        index: dict = {}
        for n in unmatched_new:
            index.setdefault(key(n), []).append(n)
        for o in list(unmatched_old):
            hits = index.get(key(o))
            if hits:
                n = hits.pop(0)
                unmatched_old.remove(o)
                unmatched_new.remove(n)
                changes.append(Change("moved", n.path, old=o.path, new=n.path, old_at=o.span, new_at=n.span,
                                      note="to another parent", material=_is_material(n)))
                pairs.append((o, n))
                _match_children(o, n, pairs, unmatched_old, unmatched_new, changes)
    for o in unmatched_old:
        changes.append(Change("removed", o.path, what=o.type, old_at=o.span, material=_is_material(o)))
    for n in unmatched_new:
        changes.append(Change("added", n.path, what=n.type, new_at=n.span, material=_is_material(n)))
    for o, n in pairs:
        changes.extend(_item_changes(old_side, new_side, o, n))
    order = {id(item): i for i, item in enumerate(new.walk())}
    old_order = {id(item): i for i, item in enumerate(old.walk())}
    by_path = {i.path: i for i in new.walk()}
    old_by_path = {i.path: i for i in old.walk()}

    def rank(c: Change):
        item = by_path.get(c.path)
        if item is not None:
            return (0, order.get(id(item), 0))
        return (1, old_order.get(id(old_by_path.get(c.path)), 0))
    changes.sort(key=rank)
    return changes


def _is_material(item) -> bool:
    node = item
    while node is not None:
        if node.type in MATERIAL_TYPES:
            return True
        node = node.parent
    return False


def _values(item) -> tuple:
    return tuple(sorted((n, _text(p.value if p.value is not None else p.text.strip())) for n, p in item.properties.items()))


def _signature(item) -> tuple:
    """An item's own content, without its name: what a rename keeps."""
    return (item.type, _values(item), tuple((b.target, b.expression) for b in item.bindings),
            tuple(sorted(item.attributes.items())))


def _match_children(o, n, pairs, unmatched_old, unmatched_new, changes) -> None:
    left = list(o.children)
    right = list(n.children)
    matched: list[tuple] = []
    for c in list(left):
        hit = next((d for d in right if d.name == c.name and d.type == c.type), None)
        if hit is not None:
            left.remove(c)
            right.remove(hit)
            matched.append((c, hit))
    for c in list(left):       # renamed: same type and content, or the only one of its type
        hit = next((d for d in right if _signature(d) == _signature(c)), None)
        if hit is None:
            same = [d for d in right if d.type == c.type]
            if len(same) == 1 and sum(x.type == c.type for x in left) == 1:
                hit = same[0]
        if hit is not None:
            left.remove(c)
            right.remove(hit)
            matched.append((c, hit))
            changes.append(Change("renamed", hit.path, old=c.name, new=hit.name, old_at=c.span, new_at=hit.span,
                                  material=_is_material(hit)))
    # reordered: matched siblings whose order changed (the fewest moves: outside the longest
    # run that kept its order)
    matched.sort(key=lambda p: o.children.index(p[0]))
    positions = [n.children.index(p[1]) for p in matched]
    keep = _longest_increasing(positions)
    for i, (c, d) in enumerate(matched):
        if i not in keep:
            changes.append(Change("reordered", d.path, old=str(o.children.index(c) + 1), new=str(n.children.index(d) + 1),
                                  old_at=c.span, new_at=d.span, note="tree order is affector order",
                                  material=_is_material(d)))
    for c, d in matched:
        pairs.append((c, d))
        _match_children(c, d, pairs, unmatched_old, unmatched_new, changes)
    unmatched_old.extend(left)
    unmatched_new.extend(right)


def _longest_increasing(seq: list[int]) -> set[int]:
    """Indexes of one longest strictly increasing subsequence; of equal ones, the one of the
    latest items, so that what is reported as moved is the earliest of the choices (Gravity
    put after Swirl reads "Gravity moved", not "Swirl moved")."""
    best: list[list[int]] = []
    for i, v in enumerate(seq):
        chains = [c for c in best if seq[c[-1]] < v]
        chain = max(reversed(chains), key=len, default=[]) + [i]
        best.append(chain)
    return set(max(reversed(best), key=len, default=[]))


def _item_changes(old_side, new_side, o, n) -> list[Change]:
    out: list[Change] = []
    catalog = new_side.project.catalog
    mat = _is_material(n)
    for name in sorted(set(o.properties) | set(n.properties)):
        a, b = o.properties.get(name), n.properties.get(name)
        va = None if a is None else (a.value if a.value is not None else a.text.strip())
        vb = None if b is None else (b.value if b.value is not None else b.text.strip())
        if a is not None and b is not None and _same(va, vb):
            continue
        spec = catalog.property(name) if catalog is not None else None
        note = ""
        if a is None:
            note = "was its default" + (f" {_text(spec.default)}" if spec is not None and spec.default is not None else "")
        elif b is None:
            note = "now its default" + (f" {_text(spec.default)}" if spec is not None and spec.default is not None else "")
        kind = spec.type if spec is not None else None
        out.append(Change("property", n.path, name, None if a is None else _text(va, kind), None if b is None else _text(vb, kind),
                          a.span if a else None, b.span if b else None, unit=spec.unit if spec else "", note=note,
                          material=mat or bool(spec is not None and spec.slot)))
    ob = {(b.target, b.push_target): b for b in o.bindings}
    nb = {(b.target, b.push_target): b for b in n.bindings}
    for key in list(dict.fromkeys([*ob, *nb])):
        a, b = ob.get(key), nb.get(key)
        if a is not None and b is not None and (a.expression, a.enabled, a.mode) == (b.expression, b.enabled, b.mode):
            continue
        out.append(Change("binding", n.path, key[0], a.expression if a else None, b.expression if b else None,
                          a.span if a else None, b.span if b else None,
                          note=_evaluated(old_side, o, new_side, n, key[0]), material=mat))
    changed_targets = {c.what for c in out if c.kind == "binding"}
    for target in sorted({b.target for b in n.bindings if b.push_target is None} & {b.target for b in o.bindings}
                         - changed_targets):
        va, vb = _value(old_side, o, target), _value(new_side, n, target)
        if not _same(va, vb):
            spec = catalog.property(target) if catalog is not None else None
            binding = next(b for b in n.bindings if b.target == target)
            kind = spec.type if spec is not None else None
            out.append(Change("bound", n.path, target, _text(va, kind), _text(vb, kind),
                              next(b for b in o.bindings if b.target == target).span, binding.span,
                              unit=spec.unit if spec else "", note=f"{binding.expression} re-evaluated", material=mat))
    for name in sorted(set(o.aliases) | set(n.aliases)):
        a, b = o.aliases.get(name), n.aliases.get(name)
        if (a and a.target) != (b and b.target):
            out.append(Change("alias", n.path, name, a.target if a else None, b.target if b else None,
                              getattr(a, "span", None) or o.span, getattr(b, "span", None) or n.span, material=mat))
    for name in sorted(set(o.attributes) | set(n.attributes)):
        a, b = o.attributes.get(name), n.attributes.get(name)
        if a != b:
            out.append(Change("attribute", n.path, name, a, b, o.span, n.span, material=mat))
    if n.type == "MaterialType":
        for name in ("shader", "vertex", "fragment"):
            if o.attributes.get(name) and o.attributes.get(name) == n.attributes.get(name):
                ta = _read(old_side, o.attributes[name])
                tb = _read(new_side, n.attributes[name])
                if ta != tb:
                    out.append(Change("shader", n.path, o.attributes[name], old_at=o.span, new_at=n.span,
                                      note="the shader file's text changed", material=True))
    return out


def _read(side, relative: str):
    base = Path(side.path)
    folder = base if base.is_dir() else base.parent
    try:
        return (folder / relative).read_bytes()
    except OSError:
        return None


def _value(side, item, name):
    try:
        return side.graph.value(item, name)
    except (KeyError, LookupError, ValueError, TypeError):
        return None


def _evaluated(old_side, o, new_side, n, target) -> str:
    va, vb = _value(old_side, o, target), _value(new_side, n, target)
    if _same(va, vb):
        return f"evaluates to {_text(vb)} in both"
    return f"evaluates to {_text(va)} -> {_text(vb)}"


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (a != a and b != b)
    return type(a) is type(b) and a == b if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) else float(a) == float(b)


def _text(v, type_name: str | None = None) -> str:
    if v is None:
        return "none"
    try:
        return format_literal(v, type_name)
    except Exception:      # a value the literal writer does not know: its repr
        return str(v)
