"""The children of one item spliced (splice.py's `_Splicer` takes these methods): kept in
place and in order, they are spliced within; moved or duplicated, their original text goes
to the new place (re-indented; in the folder layout their files move or are copied, with
their own edits and the new name), the old place loses its element or its `<Child>` line;
new ones are writer.py's text. In the folder layout a renamed item keeps its `<Child>` line
(its name edited) and its file and folder go to the new name.

An item's original is its element, or for a duplicate (tree_ops.clone sets
`copied_from`) its original's: a duplicate never takes its original's place, only its
original text, while the items inside a duplicate take the places inside that text.
"""
from __future__ import annotations

import copy
import os
from xml.sax.saxutils import quoteattr

from kzplayer.project.layout import ITEM_FILE_SUFFIX, item_file_name
from kzplayer.project.model import Item
from kzplayer.project.splice_text import (NotSpliceable, apply, element_end, line_indent, moved_text, newline,
                                          start_tag_edits)
from kzplayer.project.writer import _DECLARATION, _item_lines

NOT_ITEMS = ("Property", "Alias", "Binding", "BindingItem")


class Clash(Exception):
    """Two items of a folder project would be written to one file (the save is refused)."""


class TreeSplice:
    def element_of(self, item: Item):
        """The element an item's text comes from: its own, or its original's (a duplicate
        of a duplicate: the first one's), when it is one of this project's files."""
        node, seen = item, 0
        while node is not None and seen < 1000:
            if node.element is not None:
                return node.element if self.known(node.element) else None
            node, seen = node.copied_from, seen + 1
        return None

    def children(self, src, el, item: Item, kids: list) -> list:
        """Children kept in place and in order are spliced within; the others go to their
        place (their text moved, or writer.py's) and their old elements or lines are removed.
        In the folder layout a child's place is the <Child> line that names its file."""
        mine = [c for c in kids if c.tag not in NOT_ITEMS]
        order = {c: k for k, c in enumerate(mine)}
        lines = [c for c in mine if c.tag == "Child"] if self.folder else []
        files = self.folder and (not mine or bool(lines))      # where a new child's element goes
        old_dir = self.old_folder(el) if lines else None
        new_dir = self.child_folder(item) if self.folder else None
        by_file = {self.file_of(old_dir, c.get("name", "")): c for c in lines}
        kept, inserts, last = set(), [], -1
        for c in item.children:
            own = self.element_of(c)
            own_file = own is not None and own.getparent() is None
            place = None
            if own is not None and (c.element is not None or self.copying):
                place = by_file.get(self.path_of(own)) if own_file else own if own.getparent() is el else None
            k = order.get(place)
            if k is not None and k > last and place not in kept:      # in place, in order
                kept.add(place)
                last = k
                inserts.append((place, None))
                if place.tag == "Child":
                    if place.get("name") != c.name:
                        self.rename_line(src, place, c.name)
                    self.file_item(c, own, new_dir)
                else:
                    self.item(c, own)
                continue
            self.tree_edit(src)
            if place is not None and place.tag == "Child" and place not in kept:   # reordered: the
                kept.add(place)                                                    # line moves
                self.remove(src, place)
            if own is not None and (not own_file or not files):
                inserts.append(("Item", self.relocated(c, own)))
            elif own is not None or files:
                inserts.append(("Item", f"<Child name={quoteattr(c.name)}/>"))
                if own is not None:
                    self.file_item(c, own, new_dir)
                else:
                    self.new_files(c, new_dir)
            else:
                inserts.append(("Item", self.new_text(src, c)))
        for c in mine:
            if c in kept:
                continue
            self.tree_edit(src)
            self.remove(src, c)
            if c.tag == "Child":
                if not self.copying:
                    self.drop(self.file_of(old_dir, c.get("name", "")))
        return inserts

    # ---- moved and duplicated text
    def captured(self, path: str, run, copying: bool) -> list:
        """The edits `run()` plans for `path`, kept apart from the others planned for it."""
        saved, gone, was = self.plan.edits.pop(path, None), self.gone, self.copying
        self.gone, self.copying = set(), copying
        self.capturing.append(path)
        try:
            run()
        finally:
            self.capturing.pop()
            got = self.plan.edits.pop(path, [])
            if saved is not None:
                self.plan.edits[path] = saved
            self.gone, self.copying = gone, was
        return got

    def relocated(self, item: Item, own):
        """The text of `own` with `item`'s edits made, as a function of the indent and the
        line end it goes to (splice_text.moved_text)."""
        src = self.src_of(own)
        start, stop = src.tags[own][0], element_end(src, own)
        got = self.captured(self.path_of(own), lambda: self.item(item, own), item.element is None)
        if any(s < start or e > stop for s, e, _, _ in got):
            raise NotSpliceable("an edit outside the element it moves with")
        text = apply(src.text[start:stop], [(s - start, e - start, t, q) for s, e, t, q in got])
        if own.getparent() is None and item.element is not None and not self.copying:
            self.drop(self.path_of(own))           # a file's item now inline: its file goes
        return moved_text(text, line_indent(src.text, start), newline(src.text))

    def new_text(self, src, item: Item):
        """writer.py's text of a new item; children that have an original keep its text."""
        if not any(self.element_of(c) is not None for c in item.walk()):
            return self.lines(src, _item_lines(item, 0, False), "")
        shallow = copy.copy(item)
        shallow.children = []
        own = _item_lines(shallow, 0, False)
        if len(own) == 1:
            own = [own[0][:-2] + ">", f"</{item.type}>"]
        parts = [self.relocated(c, self.element_of(c)) if self.element_of(c) is not None
                 else self.new_text(src, c) for c in item.children]
        unit, nl = self.unit(src), self.newline(src)

        def at(inner: str, to_nl: str) -> str:
            deeper = inner + unit
            text = self.lines(src, own[:-1], inner)[len(inner):]
            for part in parts:
                text += to_nl + deeper + (part(deeper, to_nl) if callable(part)
                                          else part.replace(nl, to_nl + deeper))
            return text + to_nl + inner + own[-1]
        return at

    # ---- folder layout: children are <Child name=.../> lines and files of their own
    def path_of(self, el) -> str:
        return self.paths[id(self.src_of(el))]

    def child_folder(self, item: Item) -> str:
        """Where the files of an item's children go: its ProjectItemPath in the model."""
        if item.parent is None:
            return self.docs.root_dir
        known = self.folders.get(id(item))       # (each item's parent is asked once per item)
        if known is None:
            known = self.folders[id(item)] = os.path.join(self.child_folder(item.parent), item_file_name(item.name))
        return known

    def old_folder(self, el) -> str:
        """Where the files of the children of `el` lie on disk (its path as read)."""
        path, parent = self.path_of(el), el.getparent()
        if parent is None:
            return self.docs.root_dir if path == self.docs.main else path[:-len(ITEM_FILE_SUFFIX)]
        library = parent.getparent() is None and parent.tag == "Project"
        return os.path.join(self.old_folder(parent), item_file_name(el.get("name", el.tag if library else "")))

    @staticmethod
    def file_of(folder: str, name: str) -> str:
        return os.path.join(folder, item_file_name(name) + ITEM_FILE_SUFFIX)

    def rename_line(self, src, line, name: str) -> None:
        for start, end, text in start_tag_edits(src, line, "Child", [("name", name)]):
            self.edit(src, start, end, text)
        self.tree_edit(src)

    def tree_edit(self, src) -> None:
        """An item or a <Child> line of `src` added, removed or renamed: when `src` is a file
        kept in place, the order of a save counts it (save_order.py)."""
        self.plan.tree_changed = True
        path = self.paths[id(src)]
        if path not in self.capturing:
            self.plan.tree_files.add(path)

    def file_item(self, item: Item, own, new_dir: str) -> None:
        """An item with a file of its own: spliced in place when its file stays, else its
        file's text with its edits goes to its new file (and a moved item's old one goes)."""
        src = self.src_of(own)
        path, new = self.path_of(own), self.file_of(new_dir, item.name)
        if new == path and item.element is not None and not self.copying:
            self.kept_files.add(path)
            return self.item(item, own)
        got = self.captured(path, lambda: self.item(item, own), self.copying or item.element is None)
        self.add_file(new, apply(src.text, got))
        if item.element is not None and not self.copying:
            self.drop(path)

    def new_files(self, item: Item, folder: str) -> None:
        """A new item's file (writer.py's), and its children's: new, or moved or copied."""
        name = item_file_name(item.name)
        self.add_file(os.path.join(folder, name + ITEM_FILE_SUFFIX),
                      _DECLARATION + "\n".join(_item_lines(item, 0, True)) + "\n")
        for c in item.children:
            own = self.element_of(c)
            if own is not None and own.getparent() is None:
                self.file_item(c, own, os.path.join(folder, name))
            else:
                self.new_files(c, os.path.join(folder, name))

    def add_file(self, path: str, text: str) -> None:
        if path in self.plan.new_files or path in self.kept_files:
            raise Clash(f"two items of the project would be written to {path}")
        self.plan.new_files[path] = text

    def drop(self, path: str) -> None:
        """An item file no longer where it was, and every file below its folder."""
        below = os.path.join(path[:-len(ITEM_FILE_SUFFIX)], "")
        self.plan.deleted += [p for p in self.docs.sources if p == path or p.startswith(below)]
