"""The text edits that make a project's files say what its model says, keeping every other
byte (the saver's in-place save, saver.py): `plan(project)` compares each item with the
element it was read from (what nobody read of it is as the file has it) and returns a `Plan`
of (start, end, replacement) edits per file, new item files and item files to delete.

What it splices: property values (new text between the tags), added and removed properties,
bindings (a changed expression is new text in its element; a binding changed otherwise is
its element written again; added and removed ones), items removed (their element and its
line), added (writer.py's text, after the previous sibling or as the last child, indented as
the file is), renamed (the name attribute) and moved or duplicated (removed + added). In the
folder layout an added item is its new file(s) and a `<Child>` line, a removed one its
`<Child>` line and its files. What it cannot (an alias or an item attribute changed, a library
renamed without a name attribute, an item of a folder project renamed or moved to another
parent: its files would move) raises `NotSpliceable`; the saver then writes anew."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from kzplayer.project.layout import ITEM_FILE_SUFFIX, item_file_name
from kzplayer.project.contents import is_built
from kzplayer.project.model import Binding, Item, Project
from kzplayer.project.source import _MARKUP
from kzplayer.project.writer import (_DECLARATION, INDENT, _binding_lines, _item_lines, property_text, studio_only,
                                     type_of)

_BINDINGS = ("Binding", "BindingItem")
_NOT_ITEMS = ("Property", "Alias", *_BINDINGS)
# Binding.key() index -> the <Property> of a BindingItem that says it
_ITEM_FIELDS = {0: ("BindingItem.Target",),
                1: ("BindingItem.SourceExpression", "BindingItem.DisplayCodeForMerge"),
                3: ("BindingItem.TargetPropertyAttribute",), 4: ("BindingItem.BindingMode",),
                5: ("BindingItem.PushTarget",), 6: ("BindingItem.IsBindingEnabled",),
                7: ("BindingItem.RawCode",)}


def _first(*elements):
    """The first that is not None (an element without children is false to `or`)."""
    return next((e for e in elements if e is not None), None)


class NotSpliceable(Exception):
    """The model changed in a way no splice writes (the saver writes the files anew)."""


@dataclass
class Plan:
    edits: dict[str, list] = field(default_factory=dict)     # source path -> [(start, end, text, seq)]
    new_files: dict[str, str] = field(default_factory=dict)  # path -> text (folder layout)
    deleted: list[str] = field(default_factory=list)          # item files no longer in the project
    tree_changed: bool = False


def plan(project: Project) -> Plan:
    docs = project.document
    if docs is None or project.root.element is None:
        raise NotSpliceable("no files to splice")
    splicer = _Splicer(project)
    splicer.item(project.root)
    return splicer.plan


def apply(text: str, edits: list) -> str:
    """`text` with the edits made, last first (offsets stay right; same offset: plan order)."""
    for start, end, rep, _ in sorted(edits, key=lambda e: (e[0], e[1], e[3]), reverse=True):
        text = text[:start] + rep + text[end:]
    return text


def line_indent(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    m = re.match(r"[ \t]*", text[start:offset])
    return m.group() if m else ""


def element_end(src, el) -> int:
    """Offset just after the end tag of `el` (or its '/>'): past its last element, then its end tags."""
    start, end, closed = src.tags[el]
    if closed:
        return end
    last = el
    for last in el.iterdescendants(etree.Element):
        pass
    if last is el:
        levels, pos = 1, end
    else:
        levels = (0 if src.tags[last][2] else 1) + sum(1 for _ in last.iterancestors()) \
            - sum(1 for _ in el.iterancestors())
        pos = src.tags[last][1]
    for m in _MARKUP.finditer(src.text, pos):
        if m.group().startswith("</"):
            levels -= 1
            if levels == 0:
                return m.end()
    return len(src.text)


def _removal(text: str, start: int, end: int) -> tuple[int, int]:
    """The range to cut for an element: its whole line(s) when nothing else is on them."""
    line = text.rfind("\n", 0, start) + 1
    m = re.compile(r"[ \t]*(\r?\n|$)").match(text, end)
    if m and text[line:start].strip() == "":
        return line, m.end()
    return start, end


class _Splicer:
    def __init__(self, project: Project):
        self.project = project
        self.docs = project.document
        self.plan = Plan()
        self.roots = {src.tree.getroot(): src for src in self.docs.sources.values()}
        self.paths = {id(src): path for path, src in self.docs.sources.items()}
        self.folder = project.layout == "folder"
        self.seq = 0
        self.gone: set[int] = set()        # ids of the elements removed

    # ---- helpers
    def src_of(self, el):
        src = self.roots.get(el.getroottree().getroot())    # (not src.tags: no scan of untouched files)
        if src is None:
            raise NotSpliceable("an element from elsewhere")
        return src

    def edit(self, src, start: int, end: int, text: str) -> None:
        self.seq += 1
        self.plan.edits.setdefault(self.paths[id(src)], []).append((start, end, text, self.seq))

    def remove(self, src, el) -> None:
        self.gone.add(id(el))
        start = src.tags[el][0]
        self.edit(src, *_removal(src.text, start, element_end(src, el)), "")

    def lines(self, src, lines: list[str], pad: str) -> str:
        """writer.py's lines (indented by INDENT from 0), indented as the file is."""
        unit = self.unit(src)
        out = []
        for line in lines:
            depth = 0
            while line.startswith(INDENT, depth * len(INDENT)):
                depth += 1
            out.append(pad + unit * depth + line[depth * len(INDENT):])
        return self.newline(src).join(out)

    @staticmethod
    def newline(src) -> str:
        return "\r\n" if "\r\n" in src.text else "\n"

    @staticmethod
    def unit(src) -> str:
        """The file's indentation step: the smallest step between the indents of its lines."""
        if getattr(src, "_indent_unit", None) is None:
            widths = sorted({len(m.group(1)) for m in re.finditer(r"\n( +)<", src.text)})
            steps = [b - a for a, b in zip([0, *widths], widths)]
            src._indent_unit = " " * min(steps) if steps and min(steps) <= 8 else INDENT
        return src._indent_unit

    # ---- one item, its element kept
    def item(self, item: Item) -> None:
        el = item.element
        src = self.src_of(el)
        if item.parent is not None:
            attributes = {k: v for k, v in el.items() if k != "name"} if is_built(item, "attributes") else None
            if el.tag != item.type or attributes is not None and attributes != item.attributes:
                raise NotSpliceable("an item attribute changed")
            if el.get("name", item.type) != item.name:
                self.rename(src, el, item)
        if is_built(item, "aliases") and (
                any(a.element is None or a.element.get("target") != a.target for a in item.aliases.values())
                or {c.get("name") for c in el if c.tag == "Alias"} != set(item.aliases)):
            raise NotSpliceable("an alias changed")
        kids = [c for c in el if isinstance(c.tag, str)]
        inserts = []          # (anchor element or None, text) in the order they are written
        inserts += self.properties(src, el, item, kids) if is_built(item, "properties") else []
        inserts += self.bindings(src, el, item, kids) if is_built(item, "bindings") else []
        inserts += self.children(src, el, item, kids)
        self.insert(src, el, kids, inserts)

    def rename(self, src, el, item: Item) -> None:
        if self.folder:
            raise NotSpliceable("a renamed item of a folder project (its file moves)")
        start, end, _ = src.tags[el]
        m = re.compile(r"""\sname\s*=\s*(["'])(.*?)\1""", re.DOTALL).search(src.text, start, end)
        if not m:
            raise NotSpliceable("a library without a name attribute renamed")
        value = escape(item.name, {m.group(1): "&quot;" if m.group(1) == '"' else "&apos;"})
        self.edit(src, m.start(2), m.end(2), value)

    def properties(self, src, el, item: Item, kids: list) -> list:
        changed = {id(p) for p in self.project.changed}
        written = {c.get("name"): c for c in kids if c.tag == "Property"}   # the last of a name counts
        inserts = []
        for c in kids:
            if c.tag == "Property" and c.get("name") not in item.properties:
                self.remove(src, c)
        for prop in item.properties.values():
            if studio_only(item, prop.name):
                continue
            target = prop.element if prop.element is not None and prop.element.getparent() is el \
                else written.get(prop.name)
            text = escape(property_text(prop, type_of(item, prop.name)))
            if target is None:
                new = (f"<Property name={quoteattr(prop.name)}>{text}</Property>" if text
                       else f"<Property name={quoteattr(prop.name)}/>")
                inserts.append(("Property", new))
            elif id(prop) in changed or target is not prop.element:
                self.content(src, target, text, "Property")
        return inserts

    def content(self, src, el, text: str, tag: str) -> None:
        """Replace the text of an element that holds only text."""
        start, end, closed = src.tags[el]
        if closed:
            head = src.text[start:end][:-2].rstrip()
            self.edit(src, start, end, head + (f">{text}</{tag}>" if text else "/>"))
        else:
            stop = element_end(src, el)
            self.edit(src, end, src.text.rfind("</", end, stop), text)

    def bindings(self, src, el, item: Item, kids: list) -> list:
        mine = {c for c in kids if c.tag in _BINDINGS}
        kept, inserts = set(), []
        for b in item.bindings:
            if b.element in mine and b.element not in kept:
                kept.add(b.element)
                if b.as_loaded != b.key():
                    self.binding(src, b)
            else:
                inserts.append(("Binding", self.lines(src, _binding_lines(b, ""), "")))
        for c in kids:
            if c in mine and c not in kept:
                self.remove(src, c)
        return inserts

    def binding(self, src, b: Binding) -> None:
        """A changed binding: only the text of what changed, else its element anew."""
        old, new = b.as_loaded or (), b.key()
        differ = [k for k in range(len(new)) if k >= len(old) or old[k] != new[k]]
        el = b.element
        if b.short and differ == [1] and not src.tags[el][2] and len(el) == 0:
            return self.content(src, el, escape(b.expression), el.tag)
        if not b.short and old and differ and all(k in _ITEM_FIELDS or k == 9 for k in differ):
            props = {c.get("name"): c for c in el if c.tag == "Property"}
            values = {0: b.target, 1: b.expression, 3: b.field, 4: b.mode, 5: b.push_target,
                      6: "true" if b.enabled else "false", 7: b.raw_code}
            targets = [(next((props[n] for n in _ITEM_FIELDS[k] if n in props), None), values[k])
                       for k in differ if k != 9]
            if 9 in differ:
                targets += self.source_fields(b, old[9])
            if all(t is not None and v is not None for t, v in targets):
                for t, v in targets:
                    self.content(src, t, escape(v), "Property")
                return
        start = src.tags[el][0]
        text = self.lines(src, _binding_lines(b, ""), line_indent(src.text, start))
        self.edit(src, start, element_end(src, el), text.lstrip(" \t"))

    @staticmethod
    def source_fields(b: Binding, old: tuple) -> list:
        """(element, new text) for each changed field of a BindingItem's sources, or a
        (None, None) when a source was added, removed or renamed (its element anew)."""
        if len(old) != len(b.sources):
            return [(None, None)]
        out = []
        for s, was in zip(b.sources, old):
            if s.element is None or s.name != was[0]:
                return [(None, None)]
            props = {c.get("name"): c for c in s.element if c.tag == "Property"}
            for k, names, value in ((1, ("BindingSourceItem.Item",), s.item),
                                    (2, ("BindingSourceItem.Source",), s.source),
                                    (3, ("BindingSourceItem.PropertyAttribute", "BindingSourceItem.Field"), s.field)):
                if was[k] != value:
                    out.append((next((props[n] for n in names if n in props), None), value))
        return out

    def children(self, src, el, item: Item, kids: list) -> list:
        """Children kept in place and in order are spliced within; the others are written
        (inline, or in the folder layout as new files and a <Child> line) and their old
        elements removed. In the folder layout a child is kept when its <Child> line names
        it and its element is the top of the file that line names."""
        mine = [c for c in kids if c.tag not in _NOT_ITEMS]
        order = {c: k for k, c in enumerate(mine)}
        folder = self.child_folder(item) if self.folder else None
        lines = {c.get("name"): c for c in mine if c.tag == "Child"}
        kept, inserts, last = set(), [], -1
        for c in item.children:
            place = c.element if c.element is not None and c.element.getparent() is el else None
            if folder is not None and place is None and c.element is not None:
                own = self.docs.sources.get(self.file_of(folder, c.name))
                if own is not None and c.element is own.tree.getroot():
                    place = lines.get(c.name)
            k = order.get(place)
            if k is not None and k > last and place not in kept:     # in place, in order
                kept.add(place)
                last = k
                self.item(c)
                inserts.append((place, None))
                continue
            self.plan.tree_changed = True
            if k is not None and place.tag == "Child" and place not in kept:   # reordered: the
                kept.add(place)                                               # line moves, the file stays
                self.item(c)
                self.remove(src, place)
                inserts.append(("Item", f"<Child name={quoteattr(c.name)}/>"))
                continue
            if folder is None or (not lines and any(c.tag != "Child" for c in mine)):
                inserts.append(("Item", self.lines(src, _item_lines(c, 0, False), "")))
                continue
            path = self.file_of(folder, c.name)
            if c.element is not None and c.element.getroottree().getroot() in self.roots \
                    and c.element.getparent() is None:
                raise NotSpliceable("an item of a folder project moved or renamed (its files move)")
            if c.name in lines or os.path.exists(path):
                raise NotSpliceable(f"{path} is there already")
            self.new_files(c, folder)
            inserts.append(("Item", f"<Child name={quoteattr(c.name)}/>"))
        for c in mine:
            if c in kept:
                continue
            self.plan.tree_changed = True
            self.remove(src, c)
            if c.tag == "Child" and folder is not None:
                name = item_file_name(c.get("name", ""))
                below = os.path.join(folder, name, "")
                self.plan.deleted += [p for p in self.docs.sources
                                      if p == self.file_of(folder, c.get("name", "")) or p.startswith(below)]
        return inserts

    # ---- folder layout: children are <Child name=.../> lines and files of their own
    def child_folder(self, item: Item) -> str:
        if item.parent is None:
            return self.docs.root_dir
        return os.path.join(self.child_folder(item.parent), item_file_name(item.name))

    @staticmethod
    def file_of(folder: str, name: str) -> str:
        return os.path.join(folder, item_file_name(name) + ITEM_FILE_SUFFIX)

    def new_files(self, item: Item, folder: str) -> None:
        name = item_file_name(item.name)
        self.plan.new_files[os.path.join(folder, name + ITEM_FILE_SUFFIX)] = \
            _DECLARATION + "\n".join(_item_lines(item, 0, True)) + "\n"
        for c in item.children:
            self.new_files(c, os.path.join(folder, name))

    # ---- where new elements go
    def insert(self, src, el, kids: list, inserts: list) -> None:
        """Each new element after the element before it in the model's order: a new property
        after the last property, a binding after the last binding (or property), an item
        after its previous sibling; else as the first such child, before the first kept one;
        else as the last child."""
        if all(text is None for _, text in inserts):
            return
        alive = [c for c in kids if id(c) not in self.gone]
        pad = line_indent(src.text, src.tags[el][0])
        inner = line_indent(src.text, src.tags[alive[0]][0]) if alive else pad + self.unit(src)
        nl = self.newline(src)
        last_of = {"Property": None, "Binding": None, "Item": None}
        for c in alive:
            last_of["Property" if c.tag == "Property" else "Binding" if c.tag in _BINDINGS else "Item"] = c
        at_end = []
        prev = None                       # the kept element an item goes after
        for anchor, text in inserts:
            if text is None:              # a kept child: the next new one goes after it
                prev = anchor
                continue
            block = text.replace(nl, nl + inner)
            if anchor == "Item":
                after = prev
                if after is None:
                    first = next((c for c in alive if c.tag not in _NOT_ITEMS), None)
                    if first is not None:
                        self.edit(src, src.tags[first][0], src.tags[first][0], block + nl + inner)
                        continue
                    after = _first(last_of["Binding"], last_of["Property"], alive[-1] if alive else None)
            elif anchor == "Binding":
                after = _first(last_of["Binding"], last_of["Property"])
            else:
                after = last_of["Property"]
            if after is None and not alive:
                at_end.append(block)
                continue
            if after is None:             # before the first child
                first = alive[0]
                self.edit(src, src.tags[first][0], src.tags[first][0], block + nl + inner)
                continue
            at = element_end(src, after)
            self.edit(src, at, at, nl + inner + block)
        if at_end:
            start, end, closed = src.tags[el]
            body = "".join(nl + inner + b for b in at_end)
            if closed:
                head = src.text[start:end][:-2].rstrip()
                self.edit(src, start, end, f"{head}>{body}{nl}{pad}</{el.tag}>")
            else:
                self.edit(src, end, end, body)
