"""Reading a .kzm project, in either layout, into the model (kzplayer.project.model):
`read_kzm` (the whole project) and `read_item_file` (one item file, for the saver).

The walk is one pass over each file (read by kzplayer.project.source, which also gives
every element's exact file:line:column). Nothing here raises for bad input: problems are
Diagnostics. In the folder layout a parent lists its children, in tree order, as
`<Child name="..."/>` placeholders; the child's file is `<folder of the parent>/<name>.kzm`
and its own children live in `<name>/`.
"""
from __future__ import annotations

import gc
import os
import stat
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, Severity, Span, closest
from kzplayer.project.bindings_reader import binding_item, short_binding
from kzplayer.project.catalog import catalog
from kzplayer.project.files import Outside, inside
from kzplayer.project.layout import (FORMAT_VERSION, ITEM_FILE_SUFFIX, PROJECT_FILE_SUFFIX, Documents,
                                     item_file_name, not_a_project)
from kzplayer.project.literals import LiteralError, example_hint, parse_literal
from kzplayer.project.model import Alias, Item, Project, Property
from kzplayer.project.spans import Deferred
from kzplayer.project.source import (BAD_NAME, DUPLICATE, MISSING_FILE, ORPHAN, OUTSIDE,
                                     PROPERTY_TYPE, STRUCTURE, UNKNOWN_TYPE, SourceFile, _diag,
                                     read_source)

MAX_DEPTH = 200        # items deep; well within Python's recursion limit
# Where a loaded Item or Property is written, worked out from its element when first read.
_ELEMENT_SPAN = Deferred(lambda obj: obj._source.element_span(obj.element))
_VALUE_SPAN = Deferred(lambda obj: obj._source.value_span(obj.element))


class _Loader:
    def __init__(self, main: str):
        self.main = main
        self.root_dir = os.path.dirname(os.path.abspath(main))
        self.real_root = os.path.realpath(self.root_dir)
        self.root_prefix = os.path.join(self.real_root, "")     # with the trailing separator
        self.folders: dict[int, str] = {}    # id(item) -> the folder of its children's files
        self.diagnostics: list[Diagnostic] = []
        self.docs = Documents(self.root_dir, main)
        self.pending: list[tuple[Property, SourceFile, object]] = []
        self.uses_child_files = False
        self.item_types: dict[str, bool] | None = None     # item type -> is a library
        self.kanzi_item_types: frozenset[str] = frozenset()  # Kanzi's own: known, not played
        self.unplayed: dict[str, list[Span]] = {}          # types nobody knows -> where
        self.real_folders: dict[str, str] = {}
        self.listed: list[str] = []          # item files a <Child> names, read or not
        self.read_real: dict[str, str] = {}  # real path of each item file -> path it was read as
        self.depth = 0
        self.follow_children = True          # False: <Child> lines become placeholders
        self.typed = True                    # False: values stay untyped (positions only)
        self.custom: dict[str, list[Item]] = {"PropertyType": [], "MaterialType": []}
        self.bound: list[Item] = []          # the items that hold bindings

    # ---- files
    def source(self, path: str) -> SourceFile | None:
        src = read_source(path, self.diagnostics)
        if src is not None:
            self.docs.sources[path] = src
        return src

    def load(self) -> Project | None:
        src = self.source(self.main)
        if src is None:
            return None
        top = src.tree.getroot()
        base = os.path.basename(self.main)
        fallback = base[:-len(PROJECT_FILE_SUFFIX)] if base.endswith(PROJECT_FILE_SUFFIX) else Path(base).stem
        if top.tag != "Project":
            self.diagnostics.append(not_a_project(self.main, top.tag, src.element_span(top)))
            return None
        root = Item("Project", "", span=src.lazy_element_span(top), element=top)
        project = Project(name=top.get("name") or fallback, root=root, path=self.main,
                          format_version=top.get("format", FORMAT_VERSION))
        if project.format_version != FORMAT_VERSION:
            self.diagnostics.append(_diag(STRUCTURE, f"format {project.format_version!r} is not "
                                          f"supported (this kzplayer reads format {FORMAT_VERSION})",
                                          src.attribute_span(top, "format"), severity=Severity.WARNING))
        cat = catalog()
        self.item_types = {t: cat.item_type(t).is_library for t in cat.item_types}
        self.kanzi_item_types = cat.kanzi_item_types
        self.fill(root, top, src)
        self.report_unplayed()
        project.layout = "folder" if self.uses_child_files else "file"
        if self.uses_child_files:
            self.orphans()
        project.files = list(self.docs.sources)
        project.document = self.docs
        if self.typed:
            self.parse_values(project)
        project.diagnostics = sorted(self.diagnostics, key=Diagnostic.sort_key)
        return project

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

    # ---- the tree
    def fill(self, item: Item, el, src: SourceFile) -> None:
        """Read the properties, bindings, aliases and children of `item` from `el`."""
        seen: dict[str, Item] = {}
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):
                continue                     # comments, processing instructions
            if tag == "Property":
                self.property(item, child, src)
            elif tag == "Binding":
                short_binding(item, child, src, self.diagnostics)
                self.bound.append(item)
            elif tag == "BindingItem":
                binding_item(item, child, src, self.diagnostics)
                self.bound.append(item)
            elif tag == "Alias":
                self.alias(item, child, src)
            elif tag == "Child":
                sub = self.child_file(item, child, src)
                if sub is not None:
                    self.add(item, sub, seen)
            else:
                sub = self.item(item, child, src)
                self.add(item, sub, seen)

    def item(self, parent: Item, el, src: SourceFile) -> Item:
        library = parent.parent is None
        name = el.get("name")
        if name is None:
            name = el.tag if library else ""
            if not library:
                self.diagnostics.append(_diag(BAD_NAME, f"<{el.tag}> has no name attribute",
                                              src.element_span(el)))
        else:
            self.name_ok(name, lambda: src.attribute_span(el, "name"))
        item = Item.loaded(el.tag, name, _ELEMENT_SPAN, el, {k: v for k, v in el.items() if k != "name"}, src)
        if el.tag in self.custom:
            self.custom[el.tag].append(item)       # in tree order, as Project.items() lists them
        if self.item_types is not None and el.tag not in self.item_types \
                and el.tag not in self.kanzi_item_types:
            self.unknown_type(el.tag, item.span, library)
        if el.tag == "MaterialType":
            self.check_shader(item, el, src)
        item.parent = parent
        self.depth += 1
        if self.depth > MAX_DEPTH:          # folder projects nest files without a limit of lxml's
            self.diagnostics.append(_diag(STRUCTURE, f"the item tree is deeper than {MAX_DEPTH} "
                                          "levels; the items below are not read", item.span))
        else:
            self.fill(item, el, src)
        self.depth -= 1
        return item

    def unknown_type(self, tag: str, span: Span, library: bool) -> None:
        """A tag close to a known item type of its level (a library at the top, an item
        below) is a typo: an error. Anything else, not one of Kanzi's own types that the
        catalog lists (TextBlock2D, Material: kept silently), is kept in the tree, not played,
        with a warning (report_unplayed)."""
        candidates = sorted(t for t, is_library in self.item_types.items() if is_library == library)
        near = closest(tag, candidates, cutoff=0.85)
        if near:
            self.diagnostics.append(_diag(UNKNOWN_TYPE, f"unknown item type <{tag}>", span,
                                          f"did you mean <{near}>?"))
        else:
            self.unplayed.setdefault(tag, []).append(span)

    def report_unplayed(self) -> None:
        """One warning per type that kzplayer does not play, at its first item, with the
        others as related positions: an imported Kanzi project has dozens of such types and
        hundreds of such items."""
        for tag, spans in self.unplayed.items():
            more = f" ({len(spans)} items of this type)" if len(spans) > 1 else ""
            self.diagnostics.append(_diag(UNKNOWN_TYPE, f"<{tag}> is not an item type kzplayer knows; "
                                          f"it stays in the tree but is not played{more}", spans[0],
                                          severity=Severity.WARNING, related=spans[1:]))
        self.unplayed = {}

    def add(self, parent: Item, item: Item, seen: dict) -> None:
        first = seen.get(item.name)
        if first is not None and item.name:
            where = f"line {first.span.line}" if first.span and first.span.file == item.span.file \
                else str(first.span)
            self.diagnostics.append(_diag(
                DUPLICATE, f"{parent.path or 'the project'} already has a child named "
                           f"'{item.name}' ({where}); sibling names must be unique",
                item.span, related=[first.span] if first.span else []))
        else:
            seen[item.name] = item
        parent.children.append(item)
        item.parent = parent

    def name_ok(self, name: str, span) -> bool:
        """Whether `name` can be an item name; `span` is a Span or a function that gives it
        (worked out only when there is something to report)."""
        bad = None
        if name == "" or name.strip() == "":
            bad = "an item name may not be empty"
        elif "/" in name:
            bad = f"the item name '{name}' contains '/', which separates path segments"
        elif name in (".", ".."):
            bad = f"'{name}' is not an item name: it means this item / the parent in paths"
        if bad:
            self.diagnostics.append(_diag(BAD_NAME, bad, span() if callable(span) else span))
        return bad is None

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

    def child_file(self, parent: Item, el, src: SourceFile) -> Item | None:
        """`<Child name="X"/>`: the item stored in `<parent's folder>/X.kzm`."""
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
        return self.item(parent, top, sub)

    def check_shader(self, item: Item, el, src: SourceFile) -> None:
        for attribute in ("shader", "vertex", "fragment"):     # a rendering material has a pair
            self._check_shader_file(item, el, src, attribute)

    def _check_shader_file(self, item: Item, el, src: SourceFile, attribute: str) -> None:
        shader = el.get(attribute)
        if not shader:
            return
        what = "shader" if attribute == "shader" else f"{attribute} shader"
        try:
            inside(self.root_dir, shader, [self.real_root], f"the {what} of material '{item.name}' ({shader})")
        except Outside as exc:
            self.diagnostics.append(_diag(OUTSIDE, str(exc), src.attribute_span(el, attribute)))

    # ---- properties, bindings, aliases
    def property(self, item: Item, el, src: SourceFile) -> None:
        name = el.get("name")
        if not name:
            self.diagnostics.append(_diag(STRUCTURE, "<Property> needs a name attribute", src.element_span(el)))
            return
        prop = Property.loaded(name, el.text or "", _ELEMENT_SPAN, el, _VALUE_SPAN, src)
        first = item.properties.get(name)
        if first is not None:
            self.diagnostics.append(_diag(STRUCTURE, f"property {name} is set twice on {item.path} "
                                          f"(first at line {first.span.line}); the last one counts",
                                          prop.span, severity=Severity.WARNING))
        item.properties[name] = prop
        self.pending.append((prop, src))

    def alias(self, item: Item, el, src: SourceFile) -> None:
        name, target = el.get("name"), el.get("target")
        span = src.element_span(el)
        if not name or target is None:
            self.diagnostics.append(_diag(STRUCTURE, "<Alias> needs name and target attributes", span))
            return
        item.aliases[name] = Alias(name, target, span, el)

    # ---- typed values, once every custom PropertyType is known
    def parse_values(self, project: Project) -> None:
        for item in dict.fromkeys(self.bound):
            for b in item.bindings:
                b.as_loaded = b.key()
        # the project's catalog from the custom types met on the way (no walk to find them)
        project._catalog = cat = catalog().with_custom(self.custom["PropertyType"],
                                                       self.custom["MaterialType"])
        # Values are immutable, and projects repeat the same literals for the same property
        # types ("0.5", "Gravity", "(0, 1, 0)"): each distinct one is read once per load.
        read: dict[tuple, object] = {}
        rules: dict[str, tuple] = {}      # property name -> (spec, type, enum, aliases, rule number)
        numbers: dict[tuple, int] = {}    # (type, enum, aliases) -> rule number
        for prop, src in self.pending:
            rule = rules.get(prop.name)
            if rule is None:
                spec = cat.property(prop.name) if cat is not None else None
                type_name, enum = (spec.type, spec.enum or None) if spec else (None, None)
                aliases = spec.enum_aliases if spec else ()
                rule = rules[prop.name] = (spec, type_name, enum, aliases,
                                           numbers.setdefault((type_name, enum, aliases), len(numbers)))
            spec, type_name, enum, aliases, number = rule
            key = (prop.text, number)
            value = read.get(key, read)
            if value is read:
                try:
                    value = parse_literal(prop.text, type_name, enum=enum, enum_aliases=aliases)
                except LiteralError as e:
                    value = e
                read[key] = value
            if not isinstance(value, LiteralError):
                prop.value = value
                continue
            start = src.text_range(prop.element)[0]
            raw = src.text[start:start + len(prop.text)]
            where = src.span(start + value.start, start + value.end) if raw == prop.text else prop.value_span
            want = spec.type if spec else None
            self.diagnostics.append(_diag(PROPERTY_TYPE, value.about(prop.name, want, prop.text), where,
                                          example_hint(want)))
        self.pending = []


def read_kzm(main: str, typed: bool = True) -> tuple[Project | None, list[Diagnostic]]:
    """Read a .kzm project (either layout) from its main file, without the schema check;
    typed=False leaves property values unread (the saver wants only fresh positions)."""
    loader = _Loader(main)
    loader.typed = typed
    # Tens of thousands of new, linked objects would trigger full collections that scan every
    # live object again and again; nothing becomes cyclic garbage while loading.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        project = loader.load()
    finally:
        if gc_was_on:
            gc.enable()
    if project is None:
        return None, sorted(loader.diagnostics, key=Diagnostic.sort_key)
    return project, project.diagnostics


def read_item_file(path: str, root_dir: str) -> tuple[Item, SourceFile] | None:
    """One item file of a folder project on its own (values untyped, <Child> lines as
    placeholders without element): what the saver needs to refresh positions after writing."""
    loader = _Loader(os.path.join(root_dir, "_"))
    loader.follow_children = False
    src = loader.source(path)
    if src is None:
        return None
    return loader.item(Item("Project", ""), src.tree.getroot(), src), src
