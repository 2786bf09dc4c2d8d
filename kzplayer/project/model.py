"""The in-memory project: a tree of items with typed properties and bindings.

Both file layouts (one .kzm, or a folder with one .kzm per item) and Kanzi Studio .kzproj
imports load into these classes. Everything keeps the Span it came from, so every later
stage can point at the file, line and column of a problem.

The tree: `Project.root` is a nameless item whose children are the libraries (`Screens`,
`Materials`, `PropertyTypes`, ...); a library's name starts ProjectItemPaths
(`Screens/Screen/RootNode/...`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from kzplayer.diagnostics import Diagnostic, Span
from kzplayer.project.catalog import catalog
from kzplayer.project.literals import check_value, format_literal
from kzplayer.project.paths import resolve
# positions worked out when read, and of a text's characters: importable from here as before
from kzplayer.project.spans import Deferred, SpanField, copy_spans, text_position, text_positions  # noqa: F401


@dataclass
class Property:
    """One `<Property name="Type.Name">value</Property>`.

    `value` is the typed value (see kzplayer.values), None for a declared but empty
    property (a consumer buffer that only a binding fills). `text` is the literal as written.
    """
    name: str
    value: Any
    text: str = ""
    span: Span | None = SpanField()
    element: Any = field(default=None, repr=False, compare=False)   # lxml element, for saving
    value_span: Span | None = SpanField()   # where the value text starts (after the `>`)

    @classmethod
    def loaded(cls, name: str, text: str, span, element, value_span, source=None) -> "Property":
        """The loader's constructor (value None until typed): the attributes __init__ sets,
        in one step, and the file it came from (`_source`, which a Deferred span reads); a
        large project makes tens of thousands (tests/project compares both)."""
        prop = cls.__new__(cls)
        prop.name, prop.value, prop.text, prop._span = name, None, text, span
        prop.element, prop._value_span = element, value_span
        if source is not None:
            prop._source = source
        return prop


@dataclass
class BindingSource:
    """A BindingSourceItem: `{N}` in RawCode reads `source` (a property name) of `item`."""
    name: str                  # "0", "1", ...
    item: str                  # ProjectItemPath as written (usually absolute)
    source: str                # property name, e.g. "ParticleEmitter.EventBuffer"
    field: str | None = None   # optional field (VECTOR_X, TRANSLATION_Y, ...)
    span: Span | None = None
    item_span: Span | None = None
    element: Any = dataclasses.field(default=None, repr=False, compare=False)


@dataclass
class Binding:
    """A BindingItem, or the short `<Binding target=...>EXPR</Binding>` form (`short=True`).

    `expression` is the SourceExpression (DisplayCodeForMerge in .kzproj) as written, with
    relative paths; `raw_code` uses `{0}`, `{1}` for `sources`. A short binding has
    `raw_code=None` and no sources: they are derived from the expression.
    """
    target: str
    expression: str
    name: str | None = None
    field: str = "WHOLE_PROPERTY"
    mode: str = "ONE_WAY"
    push_target: str | None = None          # ProjectItemPath; None = the item itself
    enabled: bool = True
    raw_code: str | None = None
    sources: list[BindingSource] = dataclasses.field(default_factory=list)
    short: bool = False
    span: Span | None = SpanField()
    expression_span: Span | None = SpanField()   # where the expression text starts (line, column)
    target_span: Span | None = SpanField()
    push_target_span: Span | None = SpanField()
    raw_code_span: Span | None = SpanField()
    owner: "Item | None" = dataclasses.field(default=None, repr=False, compare=False)
    element: Any = dataclasses.field(default=None, repr=False, compare=False)
    # (offset in `expression`, line, column) after each XML entity or CDATA marker of the
    # file text, where the file and the expression stop counting alike; () when they agree.
    expression_anchors: tuple = dataclasses.field(default=(), repr=False, compare=False)
    raw_code_anchors: tuple = dataclasses.field(default=(), repr=False, compare=False)   # the same for raw_code
    as_loaded: tuple | None = dataclasses.field(default=None, repr=False, compare=False)  # key(), as read

    @classmethod
    def loaded(cls, target: str, expression: str, name, field: str, mode: str, span, expression_span,
               target_span, owner, element, anchors: tuple, source, as_read: bool) -> "Binding":
        """The loader's constructor of a short binding: what __init__ sets, in its order, in
        one step (see Property.loaded), and the file it came from (`_source`); `as_read`:
        `as_loaded` is its key() now, written out (tests/project compares both)."""
        b = cls.__new__(cls)
        b.target, b.expression, b.name, b.field, b.mode = target, expression, name, field, mode
        b.push_target, b.enabled, b.raw_code, b.sources, b.short = None, True, None, [], True
        b._span, b._expression_span, b._target_span = span, expression_span, target_span
        b._push_target_span = b._raw_code_span = None
        b.owner, b.element, b.expression_anchors, b.raw_code_anchors = owner, element, anchors, ()
        b.as_loaded = (target, expression, name, field, mode, None, True, None, True, ()) if as_read else None
        b._source = source
        return b

    def key(self) -> tuple:
        """Everything a file says about this binding (the saver compares it with `as_loaded`
        to know whether the binding's text must be written again; `loaded` writes it out)."""
        return (self.target, self.expression, self.name, self.field, self.mode, self.push_target,
                self.enabled, self.raw_code, self.short,
                tuple((s.name, s.item, s.source, s.field) for s in self.sources))

    def expression_position(self, offset: int) -> tuple[int, int]:
        """(line, column) in the file of character `offset` of `expression`, exact also when
        the file spells characters as entities (`a &lt; b`)."""
        return text_position(self.expression, self.expression_span, self.expression_anchors, offset)


@dataclass
class Alias:
    """`<Alias name="Nozzle" target="../Particle System/Nozzle"/>` on an item: `{#Nozzle/...}`
    in the item or anywhere below it starts at `target` (resolved from the declaring item)."""
    name: str
    target: str
    span: Span | None = None
    element: Any = field(default=None, repr=False, compare=False)


@dataclass(eq=False)
class Item:
    """A project item: a node (ParticleEmitter, Scene, ...), a library, a material type..."""
    type: str
    name: str
    parent: "Item | None" = field(default=None, repr=False)
    children: list["Item"] = field(default_factory=list, repr=False)
    properties: dict[str, Property] = field(default_factory=dict, repr=False)
    bindings: list[Binding] = field(default_factory=list, repr=False)
    attributes: dict[str, str] = field(default_factory=dict, repr=False)  # extra XML attributes
    span: Span | None = SpanField()
    element: Any = field(default=None, repr=False, compare=False)
    aliases: dict[str, Alias] = field(default_factory=dict, repr=False)
    # (not a dataclass field: no __init__ argument; an item reads the class's None until set)
    copied_from = None
    """The Item this one is a duplicate of (studio/tree_ops.clone sets it on each copy, a
    duplicate of a duplicate naming the copy it was made from), None for an item loaded or
    made anew: a save writes the original's text (comments, formatting) for a duplicate that
    has no element of its own (splice_tree.TreeSplice.element_of)."""

    @classmethod
    def loaded(cls, type: str, name: str, span, element, attributes: dict | None, source=None,
               contents=None) -> "Item":
        """The loader's constructor: what __init__ sets, in one step (see Property.loaded).
        With `contents` (kzplayer.project.contents.Contents) an item of its `item_class`, whose
        properties, bindings, aliases and (`attributes` None) attributes are built from
        `element` when first read."""
        item = cls.__new__(cls if contents is None else contents.item_class)
        item.type, item.name, item.parent, item.children = type, name, None, []
        item._span, item.element = span, element
        if source is not None:
            item._source = source
        if contents is None:
            item.properties, item.bindings, item.attributes, item.aliases = {}, [], attributes, {}
        else:
            item._contents = contents
            contents.unread.append(item)
            if attributes is not None:
                item.attributes = attributes        # kept when the rest is built
                contents.preset.add(item)           # (contents.is_built: these hold what they hold)
        return item

    @property
    def path(self) -> str:
        """Absolute ProjectItemPath without the project name: `Screens/Screen/RootNode`."""
        parts = []
        node = self
        while node is not None and node.parent is not None:
            parts.append(node.name)
            node = node.parent
        return "/".join(reversed(parts))

    def child(self, name: str) -> "Item | None":
        """The first child named `name`. A path walk asks this once per segment: an item with
        many children keeps a name index (rebuilt when its list of children is replaced or
        changes length, checked on every hit), so resolving the paths of thousands of
        siblings is not a scan of the siblings each."""
        children = self.children
        if len(children) < 16:
            return next((c for c in children if c.name == name), None)
        index = getattr(self, "_child_index", None)
        if index is None or index[0] is not children or index[1] != len(children):
            names: dict[str, int] = {}
            for k, c in enumerate(children):
                names.setdefault(c.name, k)
            index = self._child_index = (children, len(children), names)
        k = index[2].get(name)
        if k is not None and children[k].name == name:
            return children[k]
        return next((c for c in children if c.name == name), None)

    def walk(self) -> Iterator["Item"]:
        """This item and all below it, in tree order (depth first, children in file order)."""
        # A stack, not nested generators: a deep tree would cost a generator frame per level
        # for every item yielded.
        stack = [self]
        while stack:
            item = stack.pop()
            yield item
            if item.children:
                stack.extend(reversed(item.children))

    def add_child(self, item: "Item", index: int | None = None) -> "Item":
        item.parent = self
        self.children.insert(len(self.children) if index is None else index, item)
        project = self.project
        if project is not None and item.type in ("PropertyType", "MaterialType"):
            project._catalog = False          # the project's catalog is built again on next use
        if project is not None:
            project._prefab_instances = None  # placeholders are found again on next use
        return item

    def __repr__(self) -> str:
        return f"<{self.type} {self.path or '(root)'!r}>"

    @property
    def project(self) -> "Project | None":
        node = self
        while node.parent is not None:
            node = node.parent
        return getattr(node, "_project", None)

    def find(self, path: str) -> "Item | None":
        """The item `path` names, relative paths starting here."""
        project = self.project
        return project.find(path, relative_to=self) if project else None

    def own_property(self, name: str) -> "Property | None":
        """The Property written on this item under `name` or another name of the same catalog
        property (`ColorOverLife.StartColor` for `ParticlesOverLife.ColorStart`)."""
        prop = self.properties.get(name)
        if prop is None:
            project = self.project
            cat = project.catalog if project is not None else None
            if cat is not None and cat.aliases:
                for spelling in cat.spellings(name):
                    prop = self.properties.get(spelling)
                    if prop is not None:
                        break
        return prop

    def get(self, name: str, default=None):
        """The typed value of property `name`: as written (under any name of it), else the
        catalog default, else `default` (like dict.get; `item[name]` raises KeyError for an
        unknown name)."""
        prop = self.own_property(name)
        if prop is not None and prop.value is not None:
            return prop.value
        project = self.project
        spec = project.property_spec(name) if project else None
        if spec is not None and spec.default is not None:
            return spec.default
        return default

    def __getitem__(self, name: str):
        if name in self.properties:
            return self.get(name)
        project = self.project
        cat = project.catalog if project else None
        if cat is not None and cat.property(name) is not None:
            return self.get(name)
        raise KeyError(self._no_property(name, cat))

    def _no_property(self, name: str, cat) -> str:
        near = cat.suggest_property(name) if cat is not None else None
        return f"{self.path} has no property {name!r}" + (f"; did you mean {near!r}?" if near else "")

    def set(self, name: str, value) -> Property:
        """Set property `name`, checked against its declared type and range (ValueError
        otherwise). A string for a non-string property is read as a literal (`"(0, 1, 0)"`).
        `project.save()` writes the change, touching only this property's text. An unknown
        name is a ValueError too (a typo would otherwise be saved and ignored), unless the
        project declares it (a PropertyType) or the item already has it written."""
        project = self.project
        spec = project.property_spec(name) if project else None
        cat = project.catalog if project else None
        if spec is None and cat is not None and name not in self.properties:
            raise ValueError(self._no_property(name, cat) + " (a property of your own needs a PropertyType first)")
        value = check_value(value, spec, name)
        prop = self.properties.get(name)
        if prop is None:
            prop = self.properties[name] = Property(name, value)
        prop.value = value
        prop.text = format_literal(value, spec.type if spec else None)
        if project is not None:
            project.changed.append(prop)
        return prop


@dataclass(eq=False)
class Project:
    """A loaded project. `files` lists every file read, in load order; `layout` is
    "file", "folder" or "kzproj". `diagnostics` holds what loading found (warnings such as
    deprecated materials; fatal errors raise KzError instead)."""
    name: str
    root: Item
    path: str = ""
    layout: str = "file"
    files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    format_version: str = "1"
    document: Any = field(default=None, repr=False, compare=False)  # lxml tree(s) for saving
    changed: list = field(default_factory=list, repr=False, compare=False)  # Properties set since load
    _catalog: Any = field(default=False, repr=False, compare=False)
    _prefab_instances: Any = field(default=None, repr=False, compare=False)   # kzplayer.project.prefabs

    def __post_init__(self) -> None:
        self.root._project = self

    @property
    def catalog(self):
        """The stock catalog plus this project's custom PropertyTypes and MaterialTypes."""
        if self._catalog is False:
            self._catalog = catalog().with_custom(self.items("PropertyType"), self.items("MaterialType"))
        return self._catalog

    def property_spec(self, name: str):
        cat = self.catalog
        return cat.property(name) if cat is not None else None

    def find(self, path: str, relative_to: Item | None = None) -> Item | None:
        """The item at ProjectItemPath `path` (see kzplayer.project.paths), or None.
        `kzplayer.project.paths.resolve` says why a path leads nowhere."""
        return resolve(self, path, relative_to) or None

    def items(self, type: str | None = None) -> list[Item]:
        """Every item in tree order, or those of one type (`"ParticleEmitter"`)."""
        return [i for i in self.walk() if type is None or i.type == type]

    def bindings(self) -> list[Binding]:
        """Every binding in tree order; `binding.owner` is the item that holds it."""
        return [b for i in self.walk() for b in i.bindings]

    def save(self, path: str | None = None) -> list[str]:
        """Write the project back (path None: where it came from). Untouched parts of the
        files keep their bytes, comments included. Returns the files written."""
        return _saver(self, path)

    @property
    def libraries(self) -> list[Item]:
        return self.root.children

    def walk(self) -> Iterator[Item]:
        """Every item except the nameless root, in tree order."""
        walk = self.root.walk()
        next(walk)
        yield from walk


# Saving is kzplayer/project/saver.py's: it reads what it wrote back through the loader,
# which builds this model, so the model cannot import it. The project package plugs it in
# (kzplayer/project/__init__.py), which runs before any of its modules can be used.
def _no_saver(project: Project, path: str | None) -> list[str]:
    raise RuntimeError("kzplayer.project.saver is not plugged in")


_saver: Callable[[Project, str | None], list[str]] = _no_saver


def plug_saver(save: Callable[[Project, str | None], list[str]]) -> None:
    """Make `Project.save` call `save(project, path)` (kzplayer.project.saver.save_project)."""
    global _saver
    _saver = save
