"""The catalog's entries: `PropertySpec` (with THE one check of a property value,
`problem`), `MaterialSpec`, `ItemTypeSpec`, `Alias`, the type and slot names, and `link()`,
which derives the facts the TOML states once (which item types carry a property, which
materials read it). Plain data: catalog_lookup.py looks them up, catalog_toml.py reads them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from kzplayer import values as V
from kzplayer.project.value_rules import number_problem, range_words, shown

TYPE_NAMES = ("bool", "int", "float", "string", "vector2", "vector3", "vector4", "color4",
              "srt2d", "srt3d", "matrix3", "matrix4", "enum", "buffer", "item", "material")
SLOTS = ("Emission", "EmissionCount", "Affector", "Collider", "GenerateEvents", "Particle")
# The property that makes a material event-driven: a subemitter's materials must read it.
EVENT_SOURCE = "Emission.SourceEventBuffer"


@dataclass(frozen=True)
class PropertySpec:
    name: str
    type: str
    default: Any = None
    min: float | None = None
    max: float | None = None
    clamped: bool = False          # the player clamps out-of-range values (the validator warns)
    work_max: float | None = None  # the most work the player takes on (a size, a rate): beyond
                                   # it play clamps and warns, validate warns, Item.set refuses
    enum: tuple[str, ...] = ()
    item_types: frozenset[str] = frozenset()
    materials: tuple[str, ...] = ()
    doc: str = ""
    unit: str = ""
    slot: str | None = None        # for material-typed properties: the slot they fill
    output: bool = False           # filled by the engine (EventBuffer), never authored
    custom: bool = False
    enum_aliases: tuple[tuple[str, str], ...] = ()    # (other word, the word it stands for)
    origin: str = ""               # "NeL" / "kzplayer": known not to be Kanzi's (ORIGINS)
    port: str = ""                 # with origin: how to get near it with what Kanzi ships
    page: str = ""                 # the manual page the entry rests on (docs/catalog.md)

    def enum_word(self, word: str) -> str | None:
        """The catalog word that `word` stands for (itself, or what an alias names); None
        when it is neither."""
        if word in self.enum:
            return word
        return dict(self.enum_aliases).get(word)

    @property
    def prefix(self) -> str:
        return prefix_of(self.name)

    def coerce_number(self, x):
        return int(x) if self.type == "int" else float(x)

    def problem(self, value) -> str | None:
        """Why `value` cannot be this property's value, as the end of a sentence that starts
        with the property's name ("must be at least 0, not -5"), or None. THE one check of
        values: NaN and infinite components and ints beyond 32 bits for every property, then
        the range, then the work limit. Item.set and --set refuse what it names; validate
        reports it (property.range, property.work-limit); the player clamps to the work limit."""
        bad = number_problem(value)
        if bad:
            return bad
        if self.out_of_range(value):
            return f"{range_words(self)}, not {shown(value, self.type)}"
        if self.beyond_work(value):
            return (f"must be at most {self.work_max:,.0f} (the most work kzplayer takes on), "
                    f"not {shown(value, self.type)}")
        return None

    def beyond_work(self, value) -> bool:
        """True when a number is above the property's work limit (catalog `work_max`)."""
        return (self.work_max is not None and isinstance(value, (int, float))
                and not isinstance(value, bool) and math.isfinite(value) and value > self.work_max)

    def within_work(self, value):
        """The value clamped to the work limit (what the player uses)."""
        return type(value)(self.work_max) if self.beyond_work(value) else value

    def out_of_range(self, value) -> bool:
        """True when a number (or any component of a vector) lies outside [min, max]."""
        if self.min is None and self.max is None:
            return False
        comps = value if isinstance(value, tuple) else (value,)
        for c in comps:
            if isinstance(c, bool) or not isinstance(c, (int, float)):
                return False
            if (self.min is not None and c < self.min) or (self.max is not None and c > self.max):
                return True
        return False

    def clamp(self, value):
        """The value clamped into [min, max] (component-wise for vectors)."""
        lo = -math.inf if self.min is None else self.min
        hi = math.inf if self.max is None else self.max
        if isinstance(value, V.Vector):
            return V.Vector(min(max(c, lo), hi) for c in value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return type(value)(min(max(value, lo), hi))
        return value


@dataclass(frozen=True)
class MaterialSpec:
    name: str
    slot: str
    properties: tuple[str, ...] = ()
    event_driven: bool = False
    shader: str = ""               # stock: file name under shaders/; custom: path as written
    path: str = ""                 # stock: ParticlesAssetPackage/...; custom: ProjectItemPath
    legacy: bool = False
    replacement: str | None = None
    preset: dict = field(default_factory=dict)
    doc: str = ""
    aliases: tuple[str, ...] = ()
    custom: bool = False
    formula: str = ""              # stock: its closed form, for docs/catalog.md
    # rendering (Particle slot) materials: the shader pair, and what they draw per particle
    vertex: str = ""
    fragment: str = ""
    geometry: tuple[str, ...] = ()
    # the positions per particle it draws from (docs/rendering.md, "History"): a property
    # name whose value is N, or a whole number; "" for none
    history: str = ""
    about: str = ""                # a longer description (docs/catalog.md, per material)
    origin: str = ""               # "NeL" / "kzplayer": Kanzi Particles does not ship it (ORIGINS)
    port: str = ""                 # with origin: what Kanzi ships that comes nearest
    # a [legacy] name Kanzi Particles 3.0 still ships (release notes, migration guide): played
    # as its replacement with the preset, without material.deprecated
    current: bool = False
    page: str = ""                 # the manual page the entry rests on (docs/catalog.md)
    inferred: tuple[str, ...] = () # preset values the manual does not give: kzplayer's choice

    def __hash__(self):            # preset is a dict; the name identifies a material
        return hash((self.name, self.path, self.legacy))


@dataclass(frozen=True)
class ItemTypeSpec:
    name: str
    property_prefixes: frozenset[str] = frozenset()
    is_node: bool = False
    is_library: bool = False
    slots: tuple[str, ...] = ()
    doc: str = ""
    kanzi_prefixes: frozenset[str] = frozenset()    # Kanzi's families it has, not played here


@dataclass(frozen=True)
class Alias:
    """Another name of a catalog entry: `name` stands for `of`. `origin` says whose name it is:
    "kanzi" (another name a page of the Kanzi Particles 3.0 manual states for an entry that
    carries a Kanzi name itself: silent), "inferred" (a Kanzi-style name no page states
    exactly, its prefix inferred: a note), "earlier" (an earlier kzplayer word, a warning) or
    "kzplayer" (kzplayer's own earlier name of an entry that carries Kanzi's name: silent).
    `kind`: "material", "property" or "enum" (then `property` names the enum property)."""
    name: str
    of: str
    origin: str
    kind: str
    property: str | None = None


ALIAS_ORIGINS = ("kanzi", "inferred", "earlier", "kzplayer")
# Where a stock material or property comes from, set only where it is known that Kanzi
# Particles does not ship it (material.kzplayer-only notes each use); unset: Kanzi's, or
# not known. The words, for the docs and the note:
ORIGINS = {"NeL": "the NeL particle system design", "kzplayer": "kzplayer itself",
           "held-back": "the events page of Kanzi Particles, which holds it back from the shipped catalog",
           "demo": "the Kanzi Particles demo project, not the asset package"}


class CatalogError(ValueError):
    """The catalog data contradicts itself (a bug in catalog.toml, caught by the tests)."""


def prefix_of(name: str) -> str:
    return name.split(".", 1)[0] if "." in name else ""


def link(props, mats, types, check=False):
    """Fill the derived facts: a type's prefixes from its slots' materials; a property's
    item types and the materials that read it."""
    readers: dict[str, list[str]] = {}
    slot_prefixes: dict[str, set[str]] = {}
    for m in mats.values():
        if check and m.slot not in SLOTS:
            raise CatalogError(f"material {m.name}: unknown slot {m.slot!r}")
        for p in m.properties:
            if p not in props:
                if check:
                    raise CatalogError(f"material {m.name} reads unknown property {p}")
                continue
            if not m.legacy:
                readers.setdefault(p, []).append(m.name)
            slot_prefixes.setdefault(m.slot, set()).add(prefix_of(p))
    types = {n: replace(t, property_prefixes=t.property_prefixes.union(
                 *(slot_prefixes.get(s, set()) for s in t.slots)))
             for n, t in types.items()}
    linked = {}
    for name, spec in props.items():
        carriers = frozenset(t.name for t in types.values() if spec.prefix in t.property_prefixes)
        if check and not carriers:
            raise CatalogError(f"property {name}: no item type carries prefix {spec.prefix!r}")
        linked[name] = replace(spec, item_types=carriers,
                               materials=tuple(dict.fromkeys(readers.get(name, ()))))
    return linked, mats, types
