"""ProjectItemPaths: find the item a path names, or say where the path stops leading anywhere.

Forms (docs/format.md, "Paths"):

* absolute `Screens/Screen/RootNode`, with or without the project name in front
  (`Fountain/Screens/...`); a trailing `/` is ignored;
* relative to an item: `.` / `./` itself, `..` its parent, `../Source` a sibling,
  `./Child/Grandchild` deeper, `../../X/Y` and so on;
* `#Alias/rest`: the alias `Alias` declared with `<Alias name="Alias" target="..."/>` on the
  item or the nearest ancestor that declares it (in a Kanzi Studio project: a NODE entry of a
  node's resource dictionary); `rest` continues from the alias target;
* `##Template/rest`: the root of the prefab the item is in;
* `@` in front of any of these marks a tracked path (Kanzi's `{@...}`); it resolves the same.

Paths follow Kanzi's runtime tree (kzplayer.project.prefabs): relative paths from a node
component start at the node it is attached to, and `..` from a prefab's root, or an alias
looked up above it, continues at each placeholder that instantiates the prefab (the first
instance where the path leads somewhere wins).

A reference inside an expression, `{../Source/ParticleEmitter.EventBuffer}`, is a path and a
property: the property is the segment after the last `/` (a property name is `Type.Name`).
Item names may contain dots and spaces, never `/`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kzplayer.diagnostics import closest
from kzplayer.project import prefabs
from kzplayer.values import ItemRef

if TYPE_CHECKING:
    from kzplayer.project.model import Item, Project


@dataclass(frozen=True)
class PathError:
    """Why a path leads nowhere. `nearest` is the deepest item that exists on the way.
    Falsy, so `resolve(...) or fallback` reads naturally."""
    path: str
    message: str
    nearest: "Item | None" = None

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return self.message


def split_reference(ref: str) -> tuple[str, str | None]:
    """`../Source/ParticleEmitter.EventBuffer` -> (`../Source`, `ParticleEmitter.EventBuffer`).

    The property is the last segment when it holds a dot; a reference without `/`
    (`Emission.Rate`) is a property of the item itself (`.`). `#Alias/Prop` and `@path/Prop`
    keep their prefix in the path part."""
    ref = ref.strip()
    head, sep, last = ref.rpartition("/")
    if not sep:
        if "." in ref and ref not in (".", "..") and not ref.startswith(("#", "@")):
            return ".", ref
        return ref, None
    if "." in last and last not in (".", ".."):
        return head or "/", last
    return ref, None


def _segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s != ""]


def is_relative(path: str) -> bool:
    p = path.lstrip("@")
    return p in (".", "..") or p.startswith(("./", "../"))


def resolve(project: "Project", path: str, relative_to: "Item | None" = None) -> "Item | PathError":
    """The item `path` names. Relative paths and aliases need `relative_to`; an absolute
    path that fails is also tried below `relative_to` (so `Child/Grandchild` works there).
    A path whose `@` or `#` prefix leads nowhere is tried once more as written, for item
    names that start with those characters."""
    text = path.strip()
    if relative_to is not None:
        relative_to = prefabs.attachment(project, relative_to)
    if text.lstrip("@").startswith("##"):
        return _resolve_template(project, path, text.lstrip("@")[2:], relative_to)
    if not text.startswith(("@", "#")):
        return _plain(project, text, path, relative_to)
    if text.startswith("@"):
        found = _plain(project, text[1:], path, relative_to) if not text.startswith("@#") \
            else _resolve_alias(project, path, text[2:], relative_to)
    else:
        found = _resolve_alias(project, path, text[1:], relative_to)
    if not found:
        literal = _plain(project, text, path, relative_to)
        if literal:
            return literal
    return found


def _plain(project, text: str, path: str, relative_to) -> "Item | PathError":
    """An absolute or relative path without prefix."""
    if not text:
        return PathError(path, "the path is empty")
    if is_relative(text):
        if relative_to is None:
            return PathError(path, f"the relative path '{path}' needs an item to start from")
        return _walk(relative_to, _segments(text), path)
    segs = _segments(text)
    root = project.root
    if segs and segs[0] == project.name and root.child(segs[0]) is None:
        segs = segs[1:]
    if not segs:
        return PathError(path, f"'{path}' names the project, not an item", root)
    found = _walk(root, segs, path)
    if not found and relative_to is not None:
        below = _walk(relative_to, segs, path)
        if below:
            return below
    return found


def _walk(start: "Item", segs: list[str], path: str) -> "Item | PathError":
    node = start
    for k, seg in enumerate(segs):
        if seg == ".":
            continue
        if seg == "..":
            project = node.project
            up = runtime_parents(project, node) if project is not None else None
            if up:                  # a prefab's root: its parent is where it is instantiated
                return _first_found([_walk(parent, segs[k + 1:], path) for parent in up])
            if up is not None:
                return PathError(path, f"'{path}' goes above the root of the prefab "
                                       f"{node.parent.path}, which nothing instantiates", node)
            if node.parent is None:
                return PathError(path, f"'{path}' goes above the top of the project", node)
            node = node.parent
            continue
        nxt = node.child(seg)
        if nxt is None:
            return PathError(path, _no_child_message(node, seg), node)
        node = nxt
    if node.parent is None:
        return PathError(path, f"'{path}' leads to the project root, not an item", node)
    return node


def _first_found(tries: list) -> "Item | PathError":
    """The first instance where a path leads somewhere, else why the first one does not."""
    return next((t for t in tries if t), tries[0])


def _resolve_template(project, path: str, rest: str, relative_to) -> "Item | PathError":
    """`##Template/rest`: the root of the prefab `relative_to` is in."""
    name, _, rest = rest.partition("/")
    if name != "Template":
        return PathError(path, f"'##{name}' is not a path kzplayer can follow: ##Template is the root of "
                               "the prefab; ##RenderPass and ##Self exist only in material type bindings",
                         relative_to)
    if relative_to is None:
        return PathError(path, "##Template needs an item to start from")
    root = prefabs.prefab_root(relative_to)
    if root is None:
        return PathError(path, f"##Template is the root of the prefab an item is in; {relative_to.path} "
                               "is in no prefab", relative_to)
    return _walk(root, _segments(rest), path) if rest else root


def _no_child_message(node: "Item", seg: str) -> str:
    where = node.path or "the project"
    names = [c.name for c in node.children]
    if not names:
        return f"{where} has no child '{seg}'; it has no children"
    near = closest(seg, names)
    msg = f"{where} has no child '{seg}'; its children are: {', '.join(names)}"
    return msg + (f" (did you mean '{near}'?)" if near else "")


def _resolve_alias(project, path: str, text: str, relative_to) -> "Item | PathError":
    name, _, rest = text.partition("/")
    if relative_to is None:
        return PathError(path, f"the alias '#{name}' needs an item to start from")
    found = _alias_from(project, path, name, rest, relative_to, set())
    if found is not None:
        return found
    return PathError(path, f"no alias '#{name}' is declared on {relative_to.path} "
                           "or any item above it", relative_to)


def _alias_from(project, path, name, rest, start, seen) -> "Item | PathError | None":
    """The alias looked up from `start` upwards, through the placeholders that instantiate a
    prefab when the walk leaves its root; None when no holder declares it."""
    holder = start
    while holder is not None and id(holder) not in seen:
        seen.add(id(holder))
        alias = holder.aliases.get(name)
        if alias is not None:
            target = resolve(project, alias.target, holder)
            if not target:
                return PathError(path, f"the alias '#{name}' (declared on {holder.path}) "
                                       f"leads nowhere: {target.message}", target.nearest)
            return _walk(target, _segments(rest), path) if rest else target
        if prefabs.is_template(holder.parent):
            tries = [t for parent in instances(project, holder.parent)
                     if (t := _alias_from(project, path, name, rest, parent, seen)) is not None]
            return _first_found(tries) if tries else None
        holder = holder.parent
    return None


def relative_path(frm: "Item", to: "Item") -> str:
    """The shortest `./` or `../` path from `frm` to `to` (for writing references)."""
    up, node = 0, frm
    ancestors = []
    a = to
    while a is not None:
        ancestors.append(a)
        a = a.parent
    while node not in ancestors:
        node = node.parent
        up += 1
    down = []
    a = to
    while a is not node:
        down.append(a.name)
        a = a.parent
    head = "/".join([".."] * up) if up else "."
    return "/".join([head, *reversed(down)])


# -- prefab instances: where each template's root sits at runtime (kzplayer.project.prefabs)

_KZB_URL = re.compile(r"kzb://[^/,{}]+/([^,{}]+)")


def instances(project: "Project", template: "Item") -> list["Item"]:
    """Where `template`'s root sits at runtime: the parent of each placeholder that names it,
    and each activity host that lists it, in tree order (found once per project; adding an
    item finds them again)."""
    table = project._prefab_instances
    if table is None:
        table = project._prefab_instances = _instance_table(project)
    return table.get(id(template), [])


def _instance_table(project: "Project") -> dict[int, list["Item"]]:
    table: dict[int, list] = {}

    def add(path: str, where: "Item", parent: "Item | None") -> None:
        target = resolve(project, path, where)
        if target and parent is not None:
            table.setdefault(id(target), []).append(parent)
    for it in project.walk():
        for name in prefabs.PLACEHOLDER_PROPERTIES:
            prop = it.properties.get(name)
            if prop is not None and isinstance(prop.value, ItemRef):
                add(prop.value.path, it, it.parent)      # the placeholder becomes the root
        for name, prop in it.properties.items():
            if name.endswith(prefabs.ACTIVITY_CONTENT) and isinstance(prop.value, str):
                for url in _KZB_URL.findall(prop.value):
                    add(url.strip(), it, it)             # activities are the host's children
    return table


def runtime_parents(project: "Project", node: "Item") -> list["Item"] | None:
    """Where `..` from a prefab root goes at runtime (see `instances`). None when `node` is no
    prefab root."""
    if not prefabs.is_template(node.parent):
        return None
    return instances(project, node.parent)
