"""The in-memory project: a tree of items with typed properties and bindings.

Both file layouts (one .kzm, or a folder with one .kzm per item) and Kanzi Studio .kzproj
imports load into these classes. Everything keeps the Span it came from, so every later
stage can point at the file, line and column of a problem.

The tree: `Project.root` is a nameless item whose children are the libraries (`Screens`,
`Materials`, `PropertyTypes`, ...); a library's name starts ProjectItemPaths
(`Screens/Screen/RootNode/...`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from kzplayer.diagnostics import Diagnostic, Span


@dataclass
class Property:
    """One `<Property name="Type.Name">value</Property>`.

    `value` is the typed value (see kzplayer.values), None for a declared but empty
    property (a consumer buffer that only a binding fills). `text` is the literal as written.
    """
    name: str
    value: Any
    text: str = ""
    span: Span | None = None
    element: Any = field(default=None, repr=False, compare=False)   # lxml element, for saving


@dataclass
class BindingSource:
    """A BindingSourceItem: `{N}` in RawCode reads `source` (a property name) of `item`."""
    name: str                  # "0", "1", ...
    item: str                  # ProjectItemPath as written (usually absolute)
    source: str                # property name, e.g. "ParticleEmitter.EventBuffer"
    field: str | None = None   # optional field (VECTOR_X, TRANSLATION_Y, ...)
    span: Span | None = None
    item_span: Span | None = None
    element: Any = field(default=None, repr=False, compare=False)


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
    sources: list[BindingSource] = field(default_factory=list)
    short: bool = False
    span: Span | None = None
    expression_span: Span | None = None     # where the expression text starts (line, column)
    target_span: Span | None = None
    push_target_span: Span | None = None
    raw_code_span: Span | None = None
    owner: "Item | None" = field(default=None, repr=False, compare=False)
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
    span: Span | None = None
    element: Any = field(default=None, repr=False, compare=False)

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
        for c in self.children:
            if c.name == name:
                return c
        return None

    def walk(self) -> Iterator["Item"]:
        """This item and all below it, in tree order (depth first, children in file order)."""
        yield self
        for c in self.children:
            yield from c.walk()

    def add_child(self, item: "Item", index: int | None = None) -> "Item":
        item.parent = self
        self.children.insert(len(self.children) if index is None else index, item)
        return item

    def __repr__(self) -> str:
        return f"<{self.type} {self.path or '(root)'!r}>"


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

    @property
    def libraries(self) -> list[Item]:
        return self.root.children

    def walk(self) -> Iterator[Item]:
        """Every item except the nameless root, in tree order."""
        for lib in self.root.children:
            yield from lib.walk()
