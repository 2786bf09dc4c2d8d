"""Structural check of a .kzm file against `kzm_schema/kzm.rng` (RELAX NG, applied with lxml).

    validate_tree(tree, file, source=None) -> list[Diagnostic]      # rule schema.invalid

libxml2 reports a broken element and then every ancestor as "has extra content"; only the
innermost problem is kept, one diagnostic per element. Its terse message ("Element Property
failed to validate attributes") is rewritten into a plain one by looking at the element and
at what the grammar itself requires of it (required attributes, allowed words, patterns), so
the messages follow the schema file instead of repeating it.

Positions come from the loader's scan of the raw text (`source`, a loader SourceFile): the
start tag, or the attribute value at fault. Without it the file is scanned through the
loader's reader (source.Locator); when that fails too, lxml's line and column 1.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from lxml import etree

from kzplayer.diagnostics import Diagnostic, Severity, Span, closest
from kzplayer.project.source import Locator as _Locator
from kzplayer.resources import schema_dir

CODE, RULE = "KZ004", "schema.invalid"        # the loader's code for structure problems
_RNG = "{http://relaxng.org/ns/structure/1.0}"
_ITEM = "*item*"                                # grammar entry for keyword-free item elements

# What a value of a named pattern must look like, for messages ("{value}" is substituted).
_PATTERN_TEXT = {
    "itemName": "an item name may not be empty or contain '/', which separates path segments",
    "propertyName": "a property name is Type.Name, e.g. Emission.Rate or Node3D.RenderTransformation, "
                    "or a plain name such as PrimaryColor (letters, digits, _)",
    "fieldWord": "a field is an upper-case word such as WHOLE_PROPERTY, VECTOR_X or COLOR_R",
    "double": "it must be a number",
    "formatVersion": "the format version is a whole number (1)",
}


@dataclass
class _Attr:
    required: bool
    words: tuple[str, ...] = ()       # allowed values, when the grammar lists them
    pattern: str | None = None        # name of the define (or datatype) that constrains it
    regex: str | None = None          # the XSD pattern facet, if any (anchored, like XSD)
    datatype: str | None = None


@dataclass
class _Element:
    attrs: dict[str, _Attr] = field(default_factory=dict)
    any_attrs: bool = False
    text_only: bool = False           # <Property>, <Binding>: a value, no child elements
    empty: bool = False               # <Child/>, <Alias/>, <PropertyType/>
    children: frozenset[str] = frozenset()   # element names allowed inside (_ITEM: any item)


@cache
def _schema() -> etree.RelaxNG:
    """kzm.rng as lxml applies it, but for one thing: libxml2's XSD regular expressions cost
    ~70 ms per 10,000 items for the property-name pattern alone, so here property names are
    checked as NCName (a superset, tested in C) and `_property_name_problems` checks the
    exact pattern of kzm.rng in Python, once per distinct name."""
    doc = etree.parse(str(schema_dir() / "kzm.rng"))
    for data in doc.getroot().iterfind(f"{_RNG}define[@name='{_NAME_PATTERN}']/{_RNG}data"):
        for param in list(data):
            data.remove(param)
        data.set("type", "NCName")
    return etree.RelaxNG(doc)


_NAME_PATTERN = "propertyName"


@cache
def _name_attributes() -> dict[str, tuple[tuple[str, _Attr], ...]]:
    """Element tag -> its attributes that hold a property name (kzm.rng's propertyName)."""
    out = {}
    for tag, spec in grammar().items():
        attrs = tuple((n, r) for n, r in spec.attrs.items() if r.pattern == _NAME_PATTERN)
        if attrs and tag != _ITEM:
            out[tag] = attrs
    return out


_GOOD_NAMES: set[str] = set()      # property names found good, across files (a folder project
_GOOD_NAMES_MAX = 100_000          # has thousands of small files with the same few names)


@cache
def _name_values() -> tuple:
    """(XPath listing the values of one attribute that holds a property name, its rule)."""
    return tuple((etree.XPath(f"descendant-or-self::{tag}/@{name}", smart_strings=False), rule)
                 for tag, attrs in _name_attributes().items() for name, rule in attrs)


def _property_name_problems(root, where: "_Locator") -> list[Diagnostic]:
    checks = _name_attributes()
    good = _GOOD_NAMES if len(_GOOD_NAMES) < _GOOD_NAMES_MAX else set()
    # the distinct values first (gathered in C; a file of 10,000 items has a few dozen): the
    # walk over the elements below, for positions, is needed only when one is wrong
    fresh = {(v, k): rule for k, (values, rule) in enumerate(_name_values()) for v in values(root)
             if v not in good}
    wrong = [v for (v, _), rule in fresh.items() if not _value_ok(v, rule)]
    good.update(v for v, _ in fresh if v not in wrong)
    if not wrong:
        return []
    out = []
    for el in root.iter(*checks):
        for name, rule in checks[el.tag]:
            value = el.get(name)
            if value is None or value in good:
                continue
            if _value_ok(value, rule):
                good.add(value)
                continue
            out.append(Diagnostic(CODE, RULE, Severity.ERROR,
                                  f"{name}='{value}' of <{el.tag}> is not valid: {_PATTERN_TEXT[_NAME_PATTERN]}",
                                  where.span(el, name, el.sourceline)))
    return out


@cache
def grammar() -> dict[str, _Element]:
    """What kzm.rng says of each element: its attributes, and whether it holds text or
    nothing. Read from the schema so messages cannot drift from it."""
    doc = etree.parse(str(schema_dir() / "kzm.rng")).getroot()
    defines = {d.get("name"): d for d in doc.iter(_RNG + "define")}
    out: dict[str, _Element] = {}
    for el in doc.iter(_RNG + "element"):
        spec = _Element()
        _collect(el, spec, defines, required=True)
        children = [c for c in el if isinstance(c.tag, str)]
        kinds = {c.tag for c in children}
        spec.text_only = _RNG + "text" in kinds
        spec.empty = _RNG + "empty" in kinds
        spec.children = frozenset(_content(el, defines, set()))
        out[el.get("name") or _ITEM] = spec
    return out


def _collect(node, spec: _Element, defines, required: bool) -> None:
    for c in node:
        if not isinstance(c.tag, str) or c.tag == _RNG + "element":
            continue
        tag = c.tag[len(_RNG):]
        if tag == "attribute":
            name = c.get("name")
            if name is None:
                spec.any_attrs = True
                continue
            spec.attrs[name] = _value_rule(c, defines, required)
        elif tag == "optional" or tag == "zeroOrMore":
            _collect(c, spec, defines, required=False)
        elif tag == "ref" and defines[c.get("name")].find(_RNG + "element") is None:
            _collect(defines[c.get("name")], spec, defines, required)


def _content(node, defines, seen: set) -> set[str]:
    """Names of the elements that may appear directly inside `node` (through refs)."""
    out: set[str] = set()
    for c in node:
        if not isinstance(c.tag, str) or c.tag == _RNG + "attribute":
            continue
        if c.tag == _RNG + "element":
            out.add(c.get("name") or _ITEM)
        elif c.tag == _RNG + "ref":
            name = c.get("name")
            if name not in seen:
                seen.add(name)
                out |= _content(defines[name], defines, seen)
        else:
            out |= _content(c, defines, seen)
    return out


def _value_rule(attr, defines, required: bool) -> _Attr:
    body = attr
    pattern = None
    ref = attr.find(_RNG + "ref")
    if ref is not None:
        pattern = ref.get("name")
        body = defines[pattern]
    words = tuple(v.text for v in body.iter(_RNG + "value"))
    data = body.find(_RNG + "data")
    regex = datatype = None
    if data is not None:
        datatype = data.get("type")
        pattern = pattern or datatype
        facet = data.find(_RNG + "param[@name='pattern']")
        regex = facet.text if facet is not None else None
    return _Attr(required, words, pattern, regex, datatype)


# --- validation ----------------------------------------------------------------------------

def validate_tree(tree, file: str, source=None) -> list[Diagnostic]:
    """Check one parsed file (lxml tree) against the schema; [] when it fits."""
    schema = _schema()
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    where = _Locator(root, file, source)
    names = _property_name_problems(root, where)
    if schema.validate(tree):
        return names
    errors = list(schema.error_log)
    paths = [e.path for e in errors if e.path]
    if paths:       # an error without a path repeats one that has it
        errors = [e for e in errors if e.path]
    out: list[Diagnostic] = list(names)
    done: set[str] = set()
    for err in errors:
        if err.path in done or _is_echo(err, paths):
            continue
        done.add(err.path)
        el = _element_at(root, err.path)
        for message, hint, attribute in _explain(err, el):
            out.append(Diagnostic(CODE, RULE, Severity.ERROR, message,
                                  where.span(el, attribute, err.line), hint))
    # a name that is not even an NCName is flagged by both checks, in the same words
    return sorted(dict.fromkeys(out), key=Diagnostic.sort_key)


def _element_at(root, path: str | None):
    """The element libxml2's error path (`/Project/Screens/Screen[2]/Property`) names, or None.
    Walked by hand rather than as XPath: element names that XML allows and XPath cannot
    spell (U+FFFD, U+10000, U+203F) made the XPath evaluation fail."""
    if not path or not path.startswith("/"):
        return None
    steps = path.strip("/").split("/")
    m = re.fullmatch(r"([^\[\]]+)(?:\[(\d+)\])?", steps[0])
    if not m or m.group(1) != root.tag:
        return None
    node = root
    for step in steps[1:]:
        m = re.fullmatch(r"([^\[\]]+)(?:\[(\d+)\])?", step)
        if not m:
            return None
        same = [c for c in node if c.tag == m.group(1)]
        index = int(m.group(2) or 1) - 1
        if not 0 <= index < len(same):
            return None
        node = same[index]
    return node


def _is_echo(err, paths) -> bool:
    """libxml2 repeats a failure upwards: every ancestor "has extra content", naming its first
    child, not the culprit. Such an error is no problem of its own."""
    if not err.path:
        return False
    if any(p != err.path and p.startswith(err.path + "/") for p in paths):
        return True
    if err.type_name == "RELAXNG_ERR_EXTRACONTENT":
        parent = err.path.rsplit("/", 1)[0] + "/"
        return any(p != err.path and p.startswith(parent) and not err.path.startswith(p)
                   for p in paths)
    return False


def _explain(err, el) -> list[tuple[str, str | None, str | None]]:
    """(message, hint, attribute at fault) for one lxml error on element `el`."""
    if el is None:
        return [(_plain(err.message), None, None)]
    tag = el.tag if isinstance(el.tag, str) else "?"
    g = grammar()
    is_root = el.getparent() is None
    if err.type_name == "RELAXNG_ERR_ELEMNAME" and is_root:
        return [(f"a .kzm file starts with <Project> or an item element, not <{tag}>",
                 "a single-file project is <Project name=...>; an item's own file starts with the item", None)]
    parent = el.getparent()
    if parent is not None:
        # lxml often points at a child that does not belong where it is
        spec = g.get(parent.tag) or g[_ITEM]
        if not _fits(el, parent.tag, spec):
            return _explain_child(parent.tag, el, spec)
    spec = g.get(tag) or g[_ITEM]
    found = _attribute_problems(tag, el, spec)
    if found:
        return found
    bad_child = next((c for c in el if isinstance(c.tag, str) and not _fits(c, tag, spec)), None)
    if bad_child is not None and (spec.text_only or spec.empty):
        return _explain_child(tag, bad_child, spec)
    text = (el.text or "").strip() or next(((c.tail or "").strip() for c in el if (c.tail or "").strip()), "")
    if text and not spec.text_only:
        shown = text if len(text) <= 30 else text[:27] + "..."
        return [(f"text '{shown}' is not allowed inside <{tag}>",
                 "values are written as <Property name=\"Type.Name\">value</Property>", None)]
    if bad_child is not None:
        return _explain_child(tag, bad_child, spec)
    return [(f"<{tag}> does not fit the .kzm schema: {_plain(err.message)}", None, None)]


def _explain_child(tag: str, child, spec: _Element):
    if spec.text_only:
        return [(f"<{tag}> holds its value as text; it cannot contain <{child.tag}>",
                 f"move <{child.tag}> out of <{tag}>", None)]
    if spec.empty:
        return [(f"<{tag}> must be empty, but it contains <{child.tag}>", None, None)]
    allowed = sorted(f"<{n}>" if n != _ITEM else "items" for n in spec.children)
    hint = _where_allowed(child.tag) or f"<{tag}> holds {', '.join(allowed)}"
    return [(f"<{child.tag}> is not allowed inside <{tag}>", hint, None)]


def _attribute_problems(tag: str, el, spec: _Element):
    out = []
    for name, rule in spec.attrs.items():
        value = el.get(name)
        if value is None:
            if rule.required:
                hint = _attribute_hint(tag, name) or ("one of: " + ", ".join(rule.words) if rule.words else None)
                out.append((f"<{tag}> needs a {name} attribute", hint, None))
            continue
        if rule.words and value not in rule.words:
            near = closest(value, rule.words)
            hint = f"did you mean '{near}'?" if near else "one of: " + ", ".join(rule.words)
            out.append((f"'{value}' is not a valid {name} of <{tag}>", hint, name))
        elif not _value_ok(value, rule):
            out.append((f"{name}='{value}' of <{tag}> is not valid: "
                        f"{_PATTERN_TEXT.get(rule.pattern, 'see kzm_schema/kzm.rng')}", None, name))
    if not spec.any_attrs:
        for name in el.attrib:
            if name not in spec.attrs:
                near = closest(name, spec.attrs)
                hint = f"did you mean '{near}'?" if near else \
                    ("allowed: " + ", ".join(spec.attrs) if spec.attrs else None)
                out.append((f"<{tag}> has no attribute '{name}'", hint, name))
    return out


def _value_ok(value: str, rule: _Attr) -> bool:
    if rule.datatype == "token":          # XSD collapses whitespace before the facet
        value = " ".join(value.split())
    if rule.regex is not None and re.fullmatch(rule.regex, value) is None:
        return False
    if rule.datatype == "double":
        try:
            float(value)
        except ValueError:
            return False
    return True


def _fits(child, parent_tag: str, spec: _Element) -> bool:
    """Whether `child` may appear inside an element of `parent_tag` at all."""
    if child.tag in spec.children:
        return True
    return _ITEM in spec.children and child.tag not in grammar()


def _where_allowed(tag: str) -> str | None:
    return {"Property": "properties belong to an item (or a BindingItem)",
            "Project": "<Project> is only the top element of a file",
            "BindingSourceItem": "a BindingSourceItem belongs inside a <BindingItem>",
            "Child": None}.get(tag)


def _attribute_hint(tag: str, name: str) -> str | None:
    return {("Property", "name"): 'e.g. <Property name="Emission.Rate">500</Property>',
            ("Binding", "target"): 'e.g. <Binding target="ParticleEmitter.MaximumAmount">...</Binding>',
            ("Child", "name"): "the name of the item whose file is <name>.kzm beside this one",
            ("MaterialType", "shader"): "the GLSL file of the material, relative to the project file",
            }.get((tag, name))


def _plain(message: str) -> str:
    message = re.sub(r"^Element (\S+) ", r"<\1> ", message or "")
    return message.rstrip(".") or "does not fit the schema"


def without_repeats(schema_diags: list[Diagnostic], others: list[Diagnostic]) -> list[Diagnostic]:
    """The schema diagnostics that do not point at a spot another check already reported
    (the loader names a missing <Property> name or a '/' in an item name itself)."""
    taken = {(d.span.file, d.span.line, d.span.column) for d in others if d.span}
    return [d for d in schema_diags
            if not d.span or (d.span.file, d.span.line, d.span.column) not in taken]
