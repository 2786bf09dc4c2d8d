"""A loaded item's properties, bindings, aliases and attributes, built from its element the
first time one of them is read (model.unread_class, spans.BuiltOnRead), with the typed values
of the load that read it. A clean load of a big project reads none: the load's walk
(kzm_reader.py) looks at the elements for what its diagnostics need, and types each distinct
(property name, literal) once (`literal_values`), so a value is a look-up when it is built.

The element an item reads is the one it holds when read: the saver points an item at the
file it just wrote (`saver._take_positions`), whose text for what nobody read is the same.
"""
from __future__ import annotations

import gc

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.project.bindings_reader import binding_item, short_binding
from kzplayer.project.literals import LiteralError, example_hint, parse_literal
from kzplayer.project.model import Alias, Item, Property
from kzplayer.project.source import PROPERTY_TYPE, STRUCTURE, SourceFile, _diag
# ELEMENT_SPAN: importable from here as the reader does
from kzplayer.project.spans import ELEMENT_SPAN, VALUE_SPAN, BuiltOnRead  # noqa: F401


class UnreadItem(Item):
    """A loaded item whose contents are built from its element when first read: reading any
    item's properties, bindings, aliases or attributes builds those of every item of its load
    (spans.BuiltOnRead; Item's own fields keep their factories for items made by hand). Each
    load has a class of its own (`unread_class`), whose descriptors go when it is built."""

    def __reduce_ex__(self, protocol):
        """A copy (copy.copy, deepcopy) or a pickle is a plain Item of the contents built."""
        if self._contents is not None:
            self._contents.build_all()
        state = self.__dict__.copy()
        state.pop("_contents", None)
        return (Item.__new__, (Item,), state)


CONTENTS = ("properties", "bindings", "aliases", "attributes")


def unread_class() -> type:
    """The class of one load's items, until their contents are built (contents.Contents)."""
    cls = type("UnreadItem", (UnreadItem,), {})
    # Every attribute name the items will hold, once, before any descriptor: CPython keeps an
    # object's attributes compact (and fast to read) only for the names its class knows.
    known = cls.__new__(cls)
    for name in (*_LOADED, *CONTENTS, "_child_index", "_project"):
        setattr(known, name, None)
    for field in CONTENTS:
        setattr(cls, field, BuiltOnRead(field))
    return cls


_LOADED = ("type", "name", "children", "_span", "element", "_source", "_contents", "parent")


def is_built(item: Item, field: str | None = None) -> bool:
    """Whether `item`'s contents (`field` among them) hold what they hold, as opposed to being
    built from its element when first read."""
    contents = getattr(item, "_contents", None)
    return contents is None or field == "attributes" and item in contents.preset


class Contents:
    """What the items of one load build their fields with: `values`, (name, literal) -> the
    typed value (None where it is empty or does not read as its type), and whether the load
    typed them (`typed`: a binding then keeps what it was as read, `Binding.as_loaded`)."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], object] = {}
        self.typed = False
        self.item_class = unread_class()     # the class of this load's items, while unread
        self.unread: list[Item] = []         # those items
        self.preset: set[Item] = set()       # those whose attributes the load set (custom types)

    def build_all(self) -> None:
        """Build the contents of every item of the load, on the first read of any. All at
        once: CPython keeps an object's attributes in a compact, fast form only while none of
        them hides a descriptor of its class, so the class's descriptors go first and the
        fields then are plain attributes, as fast to read as those of an item made by hand."""
        for field in CONTENTS:
            delattr(self.item_class, field)
        items, self.unread = self.unread, []
        # tens of thousands of new objects: the collector paused, as while loading (kzm_reader)
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            for item in items:
                self.build(item)
        finally:
            if gc_was_on:
                gc.enable()

    def build(self, item: Item) -> None:
        """Fill an unread item's properties, bindings, aliases and attributes from its element,
        in one pass over its children (a field set by hand before is kept)."""
        props: dict[str, Property] = {}
        bindings, aliases = [], {}
        src, values, typed = item._source, self.values, self.typed
        for el in item.element:
            tag = el.tag
            if tag == "Property":
                name = el.get("name")
                if name:
                    text = el.text or ""
                    prop = Property.loaded(name, text, ELEMENT_SPAN, el, VALUE_SPAN, src)
                    prop.value = values.get((name, text))
                    props[name] = prop          # set twice: the last one counts (the load warned)
            elif tag == "Binding":
                binding = short_binding(item, el, src, typed)
                if binding is not None:
                    bindings.append(binding)
            elif tag == "BindingItem":
                binding = binding_item(item, el, src)
                if typed:
                    binding.as_loaded = binding.key()      # before anyone can change it
                bindings.append(binding)
            elif tag == "Alias":
                name, target = el.get("name"), el.get("target")
                if name and target is not None:
                    aliases[name] = Alias(name, target, src.element_span(el), el)
        # each unless set by hand before (the class's descriptors are gone); written out, not
        # a loop of setattr: this runs once per item of a load
        if not hasattr(item, "properties"):
            item.properties = props
        if not hasattr(item, "bindings"):
            item.bindings = bindings
        if not hasattr(item, "aliases"):
            item.aliases = aliases
        if not hasattr(item, "attributes"):
            item.attributes = {k: v for k, v in item.element.items() if k != "name"}
        item._contents = None


def literal_values(literals: dict, cat, values: dict) -> dict[tuple[str, str], tuple]:
    """Type each literal of each property name (`literals`: name -> its literals) into
    `values`, (name, literal) -> value, as the catalog `cat` (the project's, with its custom
    types) says, once per load: values are immutable, and projects repeat the same literals
    for the same properties ("0.5", "Gravity", "(0, 1, 0)"). Returns those that do not read
    as their type: (name, literal) -> (LiteralError, the property's spec or None); their
    value is None."""
    failed = {}
    read: dict[tuple, object] = {}    # (literal, type, enum, aliases) -> value or LiteralError
    for name, texts in literals.items():
        spec = cat.property(name) if cat is not None else None
        rule = (spec.type, spec.enum or None, spec.enum_aliases) if spec else (None, None, ())
        for text in texts:
            key = (text, *rule)
            value = read.get(key, read)
            if value is read:
                try:
                    value = parse_literal(text, rule[0], enum=rule[1], enum_aliases=rule[2])
                except LiteralError as e:
                    value = e
                read[key] = value
            if isinstance(value, LiteralError):
                failed[(name, text)] = (value, spec)
                value = None
            values[(name, text)] = value
    return failed


def literal_problems(failed: dict, items: list[Item]) -> list[Diagnostic]:
    """Each property of `items` (those whose contents a load read) whose literal does not read
    as its type (`failed`, from literal_values), at the problem's place."""
    out = []
    for item in items:
        src = item._source
        for el in item.element:
            if el.tag != "Property" or not el.get("name"):
                continue
            name, text = el.get("name"), el.text or ""
            found = failed.get((name, text))
            if found is None:
                continue
            error, spec = found
            start = src.text_range(el)[0]
            raw = src.text[start:start + len(text)]
            where = src.span(start + error.start, start + error.end) if raw == text else src.value_span(el)
            out.append(literal_problem(error, name, spec, text, where))
    return out


def literal_problem(error: LiteralError, name: str, spec, text: str, where) -> Diagnostic:
    """The diagnostic for literal `text` of property `name` (catalog `spec` or None) that does
    not read as its type (`error`, from parse_literal), at `where`."""
    want = spec.type if spec else None
    return _diag(PROPERTY_TYPE, error.about(name, want, text), where, example_hint(want))


def type_literal(cat, name: str, text: str, src: SourceFile, start: int) -> tuple[object, list[Diagnostic]]:
    """(value, []) of property `name`'s literal `text` as a load types it (literal_values, with
    catalog `cat`), or (None, [the load's diagnostic]) for `text` written at offset `start` of
    `src`: a live save's one changed literal (render/live_text.py) is typed this one way."""
    values: dict = {}
    failed = literal_values({name: (text,)}, cat, values)
    if not failed:
        return values[(name, text)], []
    error, spec = failed[(name, text)]
    return None, [literal_problem(error, name, spec, text, src.span(start + error.start, start + error.end))]


def set_twice(item: Item, el, name: str, src: SourceFile) -> Diagnostic:
    """The warning for property `name` written again on `item` by element `el`."""
    first = None                          # the one before, which this one replaces
    for c in el.getparent():
        if c is el:
            break
        if c.tag == "Property" and c.get("name") == name:
            first = c
    return _diag(STRUCTURE, f"property {name} is set twice on {item.path} "
                 f"(first at line {src.element_span(first).line}); the last one counts",
                 src.element_span(el), severity=Severity.WARNING)
