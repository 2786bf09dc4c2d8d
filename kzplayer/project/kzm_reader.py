"""Reading a .kzm project, in either layout, into the model (kzplayer.project.model):
`read_kzm` (the whole project) and `read_item_file` (one item file, for the saver).

The walk is one pass over each file's elements in document order (read by
kzplayer.project.source, which also gives every element's exact file:line:column): it makes
the items and reports what it must of the rest, whose properties, bindings and aliases each
item builds when first read (contents.py); on the way it checks what kzm.rng checks
(schema_fit.py), so that the schema's own validation runs only where it could object.
Nothing here raises for bad input: problems are Diagnostics. The folder layout's `<Child>`
lines are read by child_files.py.
"""
from __future__ import annotations

import gc
import os
from pathlib import Path

from lxml import etree

from kzplayer.diagnostics import Diagnostic, Severity, Span, closest
from kzplayer.project import schema_fit
from kzplayer.project.bindings_reader import binding_item_problem, short_binding_problem
from kzplayer.project.catalog import catalog
from kzplayer.project.child_files import MAX_DEPTH, ChildFiles
from kzplayer.project.contents import (ELEMENT_SPAN, Contents, literal_problems, literal_values,
                                       set_twice)
from kzplayer.project.files import Outside, inside
from kzplayer.project.layout import FORMAT_VERSION, PROJECT_FILE_SUFFIX, Documents, not_a_project
from kzplayer.project.model import Item, Project
from kzplayer.project.source import (BAD_NAME, DUPLICATE, OUTSIDE, STRUCTURE, UNKNOWN_TYPE, SourceFile,
                                     _diag, read_source)

_COMMENT, _PI = etree.Comment, etree.PI


def _attributes(el) -> dict[str, str]:
    return {k: v for k, v in el.items() if k != "name"}


class _Loader(ChildFiles):
    def __init__(self, main: str):
        self.main = main
        self.root_dir = os.path.dirname(os.path.abspath(main))
        self.real_root = os.path.realpath(self.root_dir)
        self.root_prefix = os.path.join(self.real_root, "")     # with the trailing separator
        self.folders: dict[int, str] = {}    # id(item) -> the folder of its children's files
        self.diagnostics: list[Diagnostic] = []
        self.docs = Documents(self.root_dir, main)
        self.contents = Contents()           # what the items build their fields with
        self.literals: dict[str, set] = {}   # property name -> every literal it is given, to type
        self.filled: list[Item] = []         # the items whose contents were read, in load order
        self.plain_types: frozenset | None = None   # item types that need no look at all
        self.uses_child_files = False
        self.item_types: dict[str, bool] | None = None     # item type -> is a library
        self.kanzi_item_types: frozenset[str] = frozenset()  # Kanzi's own: known, not played
        self.unplayed: dict[str, list[Span]] = {}          # types nobody knows -> where
        self.real_folders: dict[str, str] = {}
        self.listed: list[str] = []          # item files a <Child> names, read or not
        self.read_real: dict[str, str] = {}  # real path of each item file -> path it was read as
        self.follow_children = True          # False: <Child> lines become placeholders
        self.typed = True                    # False: values stay untyped (positions only)
        self.custom: dict[str, list[Item]] = {"PropertyType": [], "MaterialType": []}

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
        root = Item.loaded("Project", "", src.lazy_element_span(top), top, {}, src, self.contents)
        project = Project(name=top.get("name") or fallback, root=root, path=self.main,
                          format_version=top.get("format", FORMAT_VERSION))
        if project.format_version != FORMAT_VERSION:
            self.diagnostics.append(_diag(STRUCTURE, f"format {project.format_version!r} is not "
                                          f"supported (this kzplayer reads format {FORMAT_VERSION})",
                                          src.attribute_span(top, "format"), severity=Severity.WARNING))
        cat = catalog()
        self.item_types = {t: cat.item_type(t).is_library for t in cat.item_types}
        self.kanzi_item_types = cat.kanzi_item_types
        # the item types that need no look beyond the name: not the custom ones, no keyword
        self.plain_types = (frozenset(self.item_types) | self.kanzi_item_types) - set(self.custom) \
            - {"MaterialType"} - schema_fit.rules().keywords
        self.walk(root, top, src, 0)
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

    # ---- the tree
    def walk(self, item: Item, top, src: SourceFile, level: int) -> None:
        """Read the items below `item`, the top element `top` of file `src` at `level` items
        deep: one pass over the elements in document order, each item made where it is met.
        Of the rest, only what the load reports: their contents are built when first read.
        On the way, what kzm.rng says of every element (schema_fit.py): `src.fits_schema`."""
        rules = schema_fit.rules()
        restricted, not_items, keywords = rules.restricted, rules.not_items, rules.keywords
        diagnostics, contents, plain, new_item = self.diagnostics, self.contents, self.plain_types, Item.__new__
        item_class, unread = contents.item_class, contents.unread
        owners = {top: item}                 # element -> its Item, for what is below it
        levels = {top: level}
        names_on: dict[Item, set] = {}       # item -> the property names written on it
        literals: dict[str, set] = {}        # property name -> its literals, to type once each
        accepted: list[str] = []             # the texts of the elements that may hold text
        names: list[str] = []                # the other property names to check the pattern of
        fits = schema_fit.root_fits(top)
        parent_now = owner = names_now = None
        free = True
        for el in top.iterdescendants():
            parent = el.getparent()
            if parent is not parent_now:     # (siblings mostly come in a row)
                parent_now, owner = parent, owners.get(parent)
                if owner is not None:
                    names_now, free = names_on.get(owner), owner.type not in restricted
            tag = el.tag
            if owner is None:                # below something that is no item
                if fits:
                    fits = schema_fit.part_fits(el, tag, parent, accepted, names)
                continue
            if not free and fits:            # the top of a file, a PropertyType...
                fits = schema_fit.may_hold(owner.type, tag) if tag.__class__ is str else tag in (_COMMENT, _PI)
            if tag == "Property":
                attributes = el.items()
                if len(attributes) == 1 and attributes[0][0] == "name":
                    name = attributes[0][1]
                else:
                    name, fits = el.get("name"), False
                if not name:
                    diagnostics.append(_diag(STRUCTURE, "<Property> needs a name attribute", src.element_span(el)))
                    fits = False
                    continue
                text = el.text or ""
                if names_now is None:
                    names_now = names_on[owner] = set()
                if name in names_now:
                    diagnostics.append(set_twice(owner, el, name, src))
                names_now.add(name)
                texts = literals.get(name)
                if texts is None:
                    texts = literals[name] = set()
                texts.add(text)
                accepted.append(text)
            elif tag == "Binding":
                accepted.append(el.text or "")
                if not (fits and schema_fit.attributes_fit(tag, el.items())):
                    fits = False                 # (fitting, it has a target)
                    short_binding_problem(el, src, diagnostics, el.get("target"))
            elif tag == "BindingItem":
                binding_item_problem(el, src, diagnostics)
                fits = fits and schema_fit.attributes_fit(tag, el.items())
            elif tag == "Alias":
                if not el.get("name") or el.get("target") is None:
                    diagnostics.append(_diag(STRUCTURE, "<Alias> needs name and target attributes",
                                             src.element_span(el)))
                fits = fits and schema_fit.attributes_fit(tag, el.items())
            elif tag == "Child":
                fits = fits and schema_fit.attributes_fit(tag, el.items())
                sub = self.child_file(owner, el, src, levels[parent] + 1)
                if sub is not None:
                    owner.children.append(sub)
                    sub.parent = owner
            elif tag.__class__ is not str:   # the schema ignores comments and instructions
                fits = fits and tag in (_COMMENT, _PI)
            else:
                name = el.get("name")
                sub_level = levels[parent] + 1
                if plain is not None and tag in plain and sub_level <= MAX_DEPTH and name and "/" not in name \
                        and name not in (".", "..") and not name.isspace():
                    sub = new_item(item_class)       # the usual item: Item.loaded's fields, inline
                    sub.type, sub.name, sub.children, sub._span, sub.element = tag, name, [], ELEMENT_SPAN, el
                    sub._source, sub._contents = src, contents
                    unread.append(sub)
                else:
                    if fits:
                        fits = tag not in not_items and not tag.startswith("{") and (
                            schema_fit.item_name_fits(name) if tag not in keywords
                            else schema_fit.attributes_fit(tag, el.items()))
                    sub = self.item(owner, el, tag, src, sub_level, name)
                owner.children.append(sub)
                sub.parent = owner
                if sub_level <= MAX_DEPTH:
                    owners[el] = sub
                    levels[el] = sub_level
        for owner in owners.values():
            children = owner.children
            if len(children) > 1 and len({c.name for c in children}) < len(children):
                self.same_names(owner)
        self.filled += owners.values()
        for name, texts in literals.items():
            self.literals.setdefault(name, set()).update(texts)
        src.fits_schema = fits and schema_fit.text_fits(top, accepted) and \
            schema_fit.names_fit(names) and schema_fit.names_fit(literals)

    def item(self, parent: Item, el, tag: str, src: SourceFile, level: int, name: str | None) -> Item:
        """The item of element `el` (its tag and `name` attribute as given), `level` items
        deep; one deeper than MAX_DEPTH is made, reported and left empty."""
        library = parent.parent is None
        if name is None:
            name = tag if library else ""
            if not library:
                self.diagnostics.append(_diag(BAD_NAME, f"<{tag}> has no name attribute",
                                              src.element_span(el)))
        elif not name or "/" in name or name in (".", "..") or name.isspace():
            self.name_ok(name, lambda: src.attribute_span(el, "name"))
        if level <= MAX_DEPTH:             # (a custom type's attributes: the catalog reads them now)
            item = Item.loaded(tag, name, ELEMENT_SPAN, el, _attributes(el) if tag in self.custom else None,
                               src, self.contents)
        else:
            item = Item.loaded(tag, name, ELEMENT_SPAN, el, _attributes(el), src)
            self.diagnostics.append(_diag(STRUCTURE, f"the item tree is deeper than {MAX_DEPTH} "
                                          "levels; the items below are not read", item.span))
        if tag in self.custom:
            self.custom[tag].append(item)       # in tree order, as Project.items() lists them
        if self.item_types is not None and tag not in self.item_types and tag not in self.kanzi_item_types:
            self.unknown_type(tag, item.span, library)
        if tag == "MaterialType":
            self.check_shader(item, el, src)
        item.parent = parent
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

    def same_names(self, parent: Item) -> None:
        """A child named as a sibling before it, each at its place: sibling names are paths."""
        seen: dict[str, Item] = {}
        for item in parent.children:
            first = seen.setdefault(item.name, item) if item.name else item
            if first is item:
                continue
            where = f"line {first.span.line}" if first.span and first.span.file == item.span.file \
                else str(first.span)
            self.diagnostics.append(_diag(
                DUPLICATE, f"{parent.path or 'the project'} already has a child named "
                           f"'{item.name}' ({where}); sibling names must be unique",
                item.span, related=[first.span] if first.span else []))

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

    # ---- typed values, once every custom PropertyType is known
    def parse_values(self, project: Project) -> None:
        # the project's catalog from the custom types met on the way (no walk to find them)
        project._catalog = cat = catalog().with_custom(self.custom["PropertyType"],
                                                       self.custom["MaterialType"])
        values = self.contents.values
        failed = literal_values(self.literals, cat, values)
        self.contents.typed = True
        if failed:
            self.diagnostics += literal_problems(failed, self.filled)


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
        diagnostics = loader.diagnostics
        del loader                  # its look-up tables go now, not in the collector's first pass
    finally:
        if gc_was_on:
            gc.enable()
    if project is None:
        return None, sorted(diagnostics, key=Diagnostic.sort_key)
    return project, project.diagnostics


def read_item_file(path: str, root_dir: str) -> tuple[Item, SourceFile] | None:
    """One item file of a folder project on its own (values untyped, <Child> lines as
    placeholders without element): what the saver needs to refresh positions after writing."""
    loader = _Loader(os.path.join(root_dir, "_"))
    loader.follow_children = False
    src = loader.source(path)
    if src is None:
        return None
    top = src.tree.getroot()
    item = loader.item(Item("Project", ""), top, top.tag, src, 1, top.get("name"))
    loader.walk(item, top, src, 1)
    return item, src
