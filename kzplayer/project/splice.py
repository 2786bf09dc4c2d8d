"""The text edits that make a project's files say what its model says, keeping every other
byte (the saver's in-place save, saver.py): `plan(project)` compares each item with the
element it was read from (what nobody read of it is as the file has it) and returns a `Plan`
of (start, end, replacement) edits per file, new item files and item files to delete.

What it splices: property values (new text between the tags), added and removed properties,
bindings (splice_bindings.py), aliases (an `<Alias>` element edited, added or removed), an
item's start tag (its name, type or other attributes; the project's name), items removed
(their element and its line), added (writer.py's text, after the previous sibling or as the
last child, indented as the file is), moved or duplicated (their original text, re-indented
to the new depth, with their own edits and a duplicate's new name: splice_tree.py). In the
folder layout an added item is its new file(s) and a `<Child>` line, a removed one its
`<Child>` line and its files, a renamed or moved one its `<Child>` line edited or moved and
its files moved to the new name and folder, a duplicate its original's files copied.

`NotSpliceable` (the saver then writes anew) is left for: a project with no files to splice
(built in memory, imported from a .kzproj), a namespaced XML attribute of an item changed,
and an edit that would fall outside the element it moves with (a safety net); `Clash` for
two items that would be written to one file.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from kzplayer.project.contents import is_built
from kzplayer.project.layout import PROJECT_FILE_SUFFIX
from kzplayer.project.model import Item, Project
from kzplayer.project.splice_bindings import BINDINGS, BindingSplice
# NotSpliceable, apply and Clash: the saver's, importable from here
from kzplayer.project.splice_text import (NotSpliceable, apply, element_end, line_indent,  # noqa: F401
                                          removal, start_tag_edits)
from kzplayer.project.splice_tree import Clash, TreeSplice  # noqa: F401
from kzplayer.project.writer import INDENT, _attrs, property_text, studio_only, type_of

_KINDS = ("Alias", "Property", "Binding", "Item")     # the order writer.py writes an item's parts in


def _kind(tag: str) -> str:
    return "Alias" if tag == "Alias" else "Property" if tag == "Property" else "Binding" if tag in BINDINGS else "Item"


def _first(*elements):
    """The first that is not None (an element without children is false to `or`)."""
    return next((e for e in elements if e is not None), None)


@dataclass
class Plan:
    edits: dict[str, list] = field(default_factory=dict)     # source path -> [(start, end, text, seq)]
    new_files: dict[str, str] = field(default_factory=dict)  # path -> text (folder layout)
    deleted: list[str] = field(default_factory=list)          # item files no longer in the project
    tree_changed: bool = False
    # folder layout, for the order of a save (save_order.py): the files kept in place
    # whose items or <Child> lines are added, removed or renamed
    tree_files: set[str] = field(default_factory=set)


def plan(project: Project) -> Plan:
    docs = project.document
    if docs is None or project.root.element is None:
        raise NotSpliceable("no files to splice")
    splicer = _Splicer(project)
    if splicer.folder:
        splicer.kept_files.add(docs.main)
    splicer.item(project.root)
    out = splicer.plan
    both = set(out.new_files) & splicer.kept_files
    if both:
        raise Clash(f"two items of the project would be written to {sorted(both)[0]}")
    out.deleted = list(dict.fromkeys(p for p in out.deleted if p not in splicer.kept_files))
    out.tree_changed = out.tree_changed or bool(out.new_files or out.deleted or out.tree_files)
    return out


class _Splicer(BindingSplice, TreeSplice):
    def __init__(self, project: Project):
        self.project = project
        self.docs = project.document
        self.plan = Plan()
        self.roots = {src.tree.getroot(): src for src in self.docs.sources.values()}
        self.paths = {id(src): path for path, src in self.docs.sources.items()}
        self.folder = project.layout == "folder"
        self.seq = 0
        self.gone: set[int] = set()        # ids of the elements removed (in the text being planned)
        self.capturing: list[str] = []     # files whose edits are being kept apart (splice_tree.captured)
        self.copying = False               # planning a duplicate's text from its original's
        self.kept_files: set[str] = set()  # folder layout: the files that stay where they are
        self.changed = {id(p) for p in project.changed}      # the properties set since the last save
        self.folders: dict[int, str] = {}  # id(item) -> the folder of its children's files, in the model

    # ---- helpers
    def known(self, el) -> bool:
        return el.getroottree().getroot() in self.roots

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
        self.edit(src, *removal(src.text, start, element_end(src, el)), "")

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

    # ---- one item, spliced into `el` (its element, or its original's)
    def item(self, item: Item, el=None) -> None:
        el = item.element if el is None else el
        src = self.src_of(el)
        self.start_tag(src, el, item)
        kids = [c for c in el if isinstance(c.tag, str)]
        inserts = []          # (anchor element or None, text) in the order they are written
        # what nobody read of an item is as its file has it (contents.py): nothing to splice
        inserts += self.aliases(src, el, item, kids) if is_built(item, "aliases") else []
        inserts += self.properties(src, el, item, kids) if is_built(item, "properties") else []
        inserts += self.bindings(src, el, item, kids) if is_built(item, "bindings") else []
        inserts += self.children(src, el, item, kids)
        self.insert(src, el, kids, inserts, item.type if item.parent is not None else el.tag)

    def start_tag(self, src, el, item: Item) -> None:
        """The name, the type and the other attributes of the start tag, each edited alone."""
        if item.parent is None:            # the <Project>: its name (the file's name when it has none)
            name = el.get("name")
            if name is None:
                base = os.path.basename(self.docs.main)
                name = base[:-len(PROJECT_FILE_SUFFIX)] if base.endswith(PROJECT_FILE_SUFFIX) else Path(base).stem
            want = [("name", self.project.name)] if name != self.project.name else []
            tag = el.tag
        else:
            library = item.parent.parent is None
            want = [] if el.get("name", el.tag if library else "") == item.name else [("name", item.name)]
            if is_built(item, "attributes"):
                have = {k: v for k, v in el.items() if k != "name"}
                want += [(k, None) for k in have if k not in item.attributes]
                want += [(k, v) for k, v in item.attributes.items() if have.get(k) != v]
            tag = item.type
        if not want and tag == el.tag:
            return                         # (no src.tags: an untouched file is never scanned)
        if any(k.startswith("{") for k, _ in want):
            raise NotSpliceable("a namespaced attribute changed")
        for start, end, text in start_tag_edits(src, el, tag, want):
            self.edit(src, start, end, text)

    def aliases(self, src, el, item: Item, kids: list) -> list:
        mine = [c for c in kids if c.tag == "Alias"]
        written = {c.get("name"): c for c in mine}         # the last of a name counts
        claimed, inserts = set(), []
        for a in item.aliases.values():
            target = a.element if a.element is not None and a.element.getparent() is el else written.get(a.name)
            if target is None or target in claimed:
                inserts.append(("Alias", f"<Alias{_attrs([('name', a.name), ('target', a.target)])}/>"))
                continue
            claimed.add(target)
            if (target.get("name"), target.get("target")) != (a.name, a.target):
                for start, end, text in start_tag_edits(src, target, "Alias", [("name", a.name), ("target", a.target)]):
                    self.edit(src, start, end, text)
        for c in mine:
            if c not in claimed and c.get("name") not in item.aliases:
                self.remove(src, c)
        return inserts

    def properties(self, src, el, item: Item, kids: list) -> list:
        changed = self.changed
        written = {c.get("name"): c for c in kids if c.tag == "Property"}   # the last of a name counts
        inserts = []
        for c in kids:
            if c.tag == "Property" and c.get("name") not in item.properties:
                self.remove(src, c)
        for prop in item.properties.values():
            target = prop.element if prop.element is not None and prop.element.getparent() is el \
                else written.get(prop.name)
            if target is prop.element and id(prop) not in changed:
                continue                  # as read, where it was read: nothing to write
            if studio_only(item, prop.name):
                continue
            literal = property_text(prop, type_of(item, prop.name))
            text = escape(literal)
            if target is None:
                new = (f"<Property name={quoteattr(prop.name)}>{text}</Property>" if text
                       else f"<Property name={quoteattr(prop.name)}/>")
                inserts.append(("Property", new))
            elif (id(prop) in changed or target is not prop.element) and (target.text or "").strip() != literal:
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

    # ---- where new elements go
    def insert(self, src, el, kids: list, inserts: list, tag: str) -> None:
        """Each new element after the element before it in the model's order: a new alias,
        property or binding after the last of its kind (or of the kinds written before it),
        an item after its previous sibling; else as the first such child, before the first
        kept one; else as the last child."""
        if all(text is None for _, text in inserts):
            return
        alive = [c for c in kids if id(c) not in self.gone]
        pad = line_indent(src.text, src.tags[el][0])
        inner = line_indent(src.text, src.tags[alive[0]][0]) if alive else pad + self.unit(src)
        nl = self.newline(src)
        last_of = dict.fromkeys(_KINDS)
        for c in alive:
            last_of[_kind(c.tag)] = c
        at_end = []
        prev = None                       # the kept element an item goes after
        for anchor, text in inserts:
            if text is None:              # a kept child: the next new one goes after it
                prev = anchor
                continue
            block = text(inner, nl) if callable(text) else text.replace(nl, nl + inner)
            if anchor == "Item":
                after = prev
                if after is None:
                    first = next((c for c in alive if _kind(c.tag) == "Item"), None)
                    if first is not None:
                        self.edit(src, src.tags[first][0], src.tags[first][0], block + nl + inner)
                        continue
                    after = _first(last_of["Binding"], last_of["Property"], last_of["Alias"],
                                   alive[-1] if alive else None)
            else:
                after = _first(*(last_of[k] for k in reversed(_KINDS[:_KINDS.index(anchor) + 1])))
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
            if closed:                    # '/>' opens; the start tag's own edits stay apart
                slash = start + len(src.text[start:end][:-2].rstrip())
                self.edit(src, slash, end, f">{body}{nl}{pad}</{tag}>")
            else:
                self.edit(src, end, end, body)
