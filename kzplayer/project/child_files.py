"""The folder layout's part of reading a project (docs/format.md): a parent lists its
children, in tree order, as `<Child name="..."/>` lines; the child's file is
`<folder of the parent>/<name>.kzm` and its own children live in `<name>/`. Every file read
stays inside the project folder (links included), and an item file no parent lists is
reported. A mixin of the reader (kzm_reader._Loader), whose walk meets the `<Child>` lines.
"""
from __future__ import annotations

import os
import stat

from kzplayer.diagnostics import Severity, Span
from kzplayer.project.layout import ITEM_FILE_SUFFIX, PROJECT_FILE_SUFFIX, item_file_name
from kzplayer.project.model import Item
from kzplayer.project.source import MISSING_FILE, ORPHAN, OUTSIDE, STRUCTURE, SourceFile, _diag

MAX_DEPTH = 200        # items deep; well within Python's recursion limit


class ChildFiles:
    """What the reader needs for `<Child>` lines (its `item`, `walk`, `source` and `name_ok`,
    its root folder and the tables below, are the reader's)."""

    def orphans(self) -> None:
        """Item files that no parent lists (a merge that added a file but not its <Child>
        line, say) would silently not load: say so."""
        read = {os.path.abspath(p) for p in (*self.docs.sources, *self.listed)}
        for folder, _, names in os.walk(self.root_dir):
            for n in names:
                path = os.path.join(folder, n)
                if n.endswith(ITEM_FILE_SUFFIX) and os.path.abspath(path) not in read \
                        and not n.endswith(PROJECT_FILE_SUFFIX):
                    self.diagnostics.append(_diag(
                        ORPHAN, f"{os.path.relpath(path, self.root_dir)} is in the project folder "
                                "but no parent lists it, so it is not loaded",
                        Span(path, 1, 1), hint="add a <Child name=...> line to its parent, or delete it",
                        severity=Severity.WARNING))

    def child_folder(self, item: Item) -> str:
        """Where the files of an item's children lie: the item's ProjectItemPath, each name
        stored as item_file_name() makes it."""
        if item.parent is None:
            return self.root_dir
        folder = self.folders.get(id(item))
        if folder is None:
            folder = self.folders[id(item)] = os.path.join(self.child_folder(item.parent),
                                                           item_file_name(item.name))
        return folder

    def real_path(self, path: str) -> str:
        """os.path.realpath, with the folders' answers cached (one look-up per folder, not
        per file, in a project of thousands of files)."""
        folder, name = os.path.split(path)
        real_folder = self.real_folders.get(folder)
        if real_folder is None:
            real_folder = self.real_folders[folder] = os.path.realpath(folder)
        full = os.path.join(real_folder, name)
        return os.path.realpath(full) if os.path.islink(full) else full

    def child_file(self, parent: Item, el, src: SourceFile, level: int) -> Item | None:
        """`<Child name="X"/>`: the item stored in `<parent's folder>/X.kzm`, `level` deep."""
        self.uses_child_files = True
        name = el.get("name")
        if not self.follow_children:
            return Item("Child", name or "")
        def nspan() -> Span:            # worked out only for a message
            return src.attribute_span(el, "name")
        if name is None:
            self.diagnostics.append(_diag(STRUCTURE, "<Child> needs a name attribute", src.element_span(el)))
            return None
        if "/" in name or name in (".", "..") or "\x00" in name:
            self.diagnostics.append(_diag(OUTSIDE, f"refused: <Child name={name!r}> would read a file "
                                          "outside its parent's folder", nspan()))
            return None
        if not self.name_ok(name, nspan):
            return None
        path = os.path.join(self.child_folder(parent), item_file_name(name) + ITEM_FILE_SUFFIX)
        real = self.real_path(path)
        if real != self.real_root and not real.startswith(self.root_prefix):
            self.diagnostics.append(_diag(OUTSIDE, f"refused: {path} leads outside the project "
                                          f"folder (to {real})", nspan()))
            return None
        try:
            is_folder = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError:
            self.diagnostics.append(_diag(MISSING_FILE, f"the file of child '{name}' is missing: {path}",
                                          nspan(), hint="restore the file or remove the <Child> line"))
            return None
        if is_folder:
            self.diagnostics.append(_diag(MISSING_FILE, f"the file of child '{name}' is a folder: {path}",
                                          nspan(), hint=f"an item's file is {item_file_name(name)}.kzm; "
                                                      "its children go in the folder without .kzm"))
            return None
        first = self.read_real.setdefault(real, path)
        if first != path:              # links that make the tree contain itself
            self.diagnostics.append(_diag(STRUCTURE, f"refused: {path} is {first} again (through a "
                                          "link); an item file can hold only one item", nspan()))
            return None
        self.listed.append(path)
        sub = self.source(path)
        if sub is None:
            return None
        top = sub.tree.getroot()
        if top.get("name", top.tag if parent.parent is None else None) != name:
            self.diagnostics.append(_diag(STRUCTURE, f"{path} holds <{top.tag} name="
                                          f"{top.get('name')!r}>, but its parent lists it as '{name}'",
                                          sub.element_span(top)))
            return None         # not read under a second name (no follow-on duplicate-name)
        item = self.item(parent, top, top.tag, sub, level, top.get("name"))
        if level <= MAX_DEPTH:
            self.walk(item, top, sub, level)
        return item
