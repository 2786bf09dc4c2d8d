"""The loader's quick check that a file is one `kzm_schema/kzm.rng` accepts, made during its one
walk of the file (kzm_reader.py), so that libxml2's RELAX NG validation (schema.py), which
costs 1.5x the parse of a big file, runs only on a file where the walk met something the
schema could reject. The messages stay the schema check's own: this module says only "fits"
or "may not fit".

What kzm.rng says of each element comes from `schema.grammar()`, which reads it from kzm.rng:
which children an element holds, its attributes and their words or patterns, text or
nothing. Every test here is at least as strict as the schema (a value with spaces that the
schema would collapse, an `INF` that XSD reads as a double: "may not fit"), so that a file
called clean is one the schema accepts (tests/project/test_schema_fit.py checks this against
the real validation over the corpus and its mutations).

    rules() -> Rules            the tables, derived once from kzm.rng
    attributes_fit(tag, pairs)  the attributes (el.items()) of a keyword element
    names_fit(names)            property names, each distinct one tried once
    text_fits(top, accepted)    every non-blank character of a file's text is in an accepted text
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from lxml import etree

from kzplayer.project.schema import _ITEM, _RNG, grammar
from kzplayer.resources import schema_dir

# What an XSD double certainly is (no spaces, no INF or NaN: those go to the schema check).
_DOUBLE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_PLAIN_DATATYPES = (None, "string", "token")
_COMMENT, _PI = etree.Comment, etree.PI


@dataclass(frozen=True)
class Rules:
    keywords: frozenset        # the elements kzm.rng names; any other tag is an item
    item_content: frozenset    # what an item may hold (_ITEM: items)
    content: dict              # keyword -> what it may hold (the loader reads some as items)
    restricted: frozenset      # keywords whose content is not an item's
    not_items: frozenset       # keywords that an item may not hold
    starts: frozenset          # what a file may start with (<start> of kzm.rng)


@cache
def rules() -> Rules:
    g = grammar()
    keywords = frozenset(t for t in g if t != _ITEM)
    item_content = g[_ITEM].children
    content = {t: g[t].children for t in keywords}
    return Rules(keywords, item_content, content,
                 frozenset(t for t in keywords if content[t] != item_content),
                 frozenset(t for t in keywords if t not in item_content), _starts())


def _starts() -> frozenset:
    doc = etree.parse(str(schema_dir() / "kzm.rng")).getroot()
    defines = {d.get("name"): d for d in doc.iter(_RNG + "define")}
    out = set()
    for ref in doc.find(_RNG + "start").iter(_RNG + "ref"):
        element = defines[ref.get("name")].find(_RNG + "element")
        out.add(element.get("name") or _ITEM)
    return frozenset(out)


def may_hold(owner_type: str, tag: str) -> bool:
    """Whether kzm.rng lets an element `owner_type` hold a child element `tag`."""
    r = rules()
    allowed = r.content.get(owner_type, r.item_content)
    return tag in allowed or (_ITEM in allowed and tag not in r.keywords and not tag.startswith("{"))


def item_name_fits(name: str | None) -> bool:
    """kzm.rng's itemName (`[^/]+`), for an optional name attribute."""
    return name is None or (name != "" and "/" not in name)


_FITTING_ATTRIBUTES: set = set()    # (tag, attributes) found to fit, across files and loads
_FITTING_MAX = 10_000


def attributes_fit(tag: str, pairs: list) -> bool:
    """Whether the attributes `pairs` ((name, value), as el.items() gives them) of an element
    `tag` that kzm.rng describes are what it allows: each one known (unless any is), each
    value of its words or pattern, none required missing."""
    key = (tag, tuple(pairs))
    if key in _FITTING_ATTRIBUTES:
        return True
    spec = grammar()[tag]
    given = set()
    for name, value in pairs:
        rule = spec.attrs.get(name)
        if rule is None:
            if not spec.any_attrs:
                return False
            continue
        if not _value_fits(value, rule):
            return False
        given.add(name)
    if any(rule.required and name not in given for name, rule in spec.attrs.items()):
        return False
    if len(_FITTING_ATTRIBUTES) > _FITTING_MAX:
        _FITTING_ATTRIBUTES.clear()
    _FITTING_ATTRIBUTES.add(key)
    return True


def _value_fits(value: str, rule) -> bool:
    if rule.words:
        return value in rule.words
    if rule.regex is not None:
        return re.fullmatch(rule.regex, value) is not None     # uncollapsed: stricter than a token
    if rule.datatype == "double":
        return _DOUBLE.fullmatch(value) is not None
    return rule.datatype in _PLAIN_DATATYPES


_FITTING_NAMES: set = set()         # property names found to fit (a folder project has thousands
_FITTING_NAMES_MAX = 100_000        # of small files with the same few names)


def names_fit(names) -> bool:
    """Whether every property name in `names` matches kzm.rng's propertyName."""
    known = _FITTING_NAMES
    if len(known) > _FITTING_NAMES_MAX:
        known.clear()
    pattern = _name_pattern()
    for name in names:
        if name not in known:
            if pattern.fullmatch(name) is None:
                return False
            known.add(name)
    return True


@cache
def _name_pattern() -> re.Pattern:
    return re.compile(grammar()["Property"].attrs["name"].regex)


def root_fits(el) -> bool:
    """Whether kzm.rng lets a file start with element `el` and its attributes."""
    tag = el.tag
    if not isinstance(tag, str) or tag.startswith("{"):
        return False
    r = rules()
    if tag in r.keywords:
        return tag in r.starts and attributes_fit(tag, el.items())
    return _ITEM in r.starts and item_name_fits(el.get("name"))


def part_fits(el, tag, parent, accepted: list, names: list) -> bool:
    """Whether kzm.rng allows `el` where it is, inside `parent`, which is no item: the
    parts of a BindingItem, or a comment in a text (whose halves the text check sees)."""
    if tag.__class__ is not str:
        return tag is _COMMENT or tag is _PI
    if parent.tag not in ("BindingItem", "BindingSourceItem") or not may_hold(parent.tag, tag):
        return False                   # (below an item too deep to read: the schema decides)
    if tag != "Property":
        return attributes_fit(tag, el.items())
    name = el.get("name")
    if not name or len(el.attrib) != 1:
        return False
    names.append(name)
    accepted.append(el.text or "")
    return True


def _non_blank(text: str) -> int:
    """The characters of `text` that are not XML's white space (what the schema ignores)."""
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t") - text.count("\r")


def text_fits(top, accepted: list[str]) -> bool:
    """Whether all of the file's text below `top` that is not white space is in `accepted`,
    the texts of the elements that may hold text (<Property>, <Binding>) where they may be:
    one C pass over the text instead of a look at every element's text and tail."""
    everything = etree.tostring(top, method="text", encoding=str, with_tail=False)
    return _non_blank(everything) == _non_blank("".join(accepted))
