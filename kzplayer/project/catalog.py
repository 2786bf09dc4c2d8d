"""The property catalog: every stock property, material and item type, read from
`kzm_schema/catalog.toml` (the single source; nothing here repeats it).

    from kzplayer.project.catalog import catalog
    cat = catalog()
    cat.property("Emission.Lifetime").default      # 1.0
    cat.material("GenerateEvent_OnDeath")          # legacy -> Event_Lifetime with a preset
    project_cat = cat.with_custom(property_types, material_types)

Derived facts (which item types carry a property, which materials read it, whether a material
is event-driven, its asset path and shader file) are computed here from the data, so the TOML
states each fact once. `python -m kzplayer.project.catalog_docs` prints docs/catalog.md.
"""
from __future__ import annotations

import builtins
import math
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Iterable

from kzplayer import values as V
from kzplayer.diagnostics import closest
from kzplayer.resources import schema_dir

TYPE_NAMES = ("bool", "int", "float", "string", "vector2", "vector3", "vector4", "color4",
              "srt2d", "srt3d", "matrix3", "matrix4", "enum", "buffer", "item", "material")
SLOTS = ("Emission", "EmissionCount", "Affector", "Collider", "GenerateEvents", "Particle")
# The property that makes a material event-driven: a subemitter's materials must read it.
EVENT_SOURCE = "Emission.SourceEventBuffer"
_VECTOR_SIZES = {"vector2": 2, "vector3": 3, "vector4": 4}


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

    def enum_word(self, word: str) -> str | None:
        """The catalog word that `word` stands for (itself, or what an alias names); None
        when it is neither."""
        if word in self.enum:
            return word
        return dict(self.enum_aliases).get(word)

    @property
    def prefix(self) -> str:
        return _prefix(self.name)

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
            return f"{range_words(self)}, not {_shown(value, self.type)}"
        if self.beyond_work(value):
            return (f"must be at most {self.work_max:,.0f} (the most work kzplayer takes on), "
                    f"not {_shown(value, self.type)}")
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


INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1      # Kanzi's int properties are 32-bit


def numbers_of(value) -> tuple:
    """The numeric components of a property value (a number is its own one component)."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, (int, float)):
        return (value,)
    if isinstance(value, (V.Vector, V.Color4)):
        return tuple(value)
    if isinstance(value, V.Srt3D):
        return (*value.scale, *value.rotation, *value.translation)
    if isinstance(value, V.Srt2D):
        return (*value.scale, value.rotation, *value.translation)
    if isinstance(value, V.Matrix):
        return tuple(value.values)
    return ()


def number_problem(value) -> str | None:
    """What makes a value no property value whatever its range: a component that is NaN or
    infinite (a literal such as 1e400 reads as infinite), an int beyond Kanzi's 32 bits."""
    for c in numbers_of(value):
        if isinstance(c, int):
            if not INT_MIN <= c <= INT_MAX:
                return f"must fit Kanzi's 32-bit int ({INT_MIN:,} to {INT_MAX:,}), not {_shown(c)}"
        elif not math.isfinite(c):
            return f"must be a finite number, not {_shown(value)}"
    return None


def range_words(spec) -> str:
    """'must be at least 0', 'must be at most 1' or 'must be between 0 and 1'."""
    lo, hi = (_shown(spec.coerce_number(x), spec.type) if x is not None else None for x in (spec.min, spec.max))
    if hi is None:
        return f"must be at least {lo}"
    if lo is None:
        return f"must be at most {hi}"
    return f"must be between {lo} and {hi}"


def _shown(value, type_name: str | None = None) -> str:
    from kzplayer.project.literals import format_literal
    text = format_literal(value, type_name) if not isinstance(value, int) or abs(value) < 10 ** 30 \
        else f"an int of {len(str(abs(value)))} digits"
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Alias:
    """Another name of a catalog entry: `name` stands for `of`. `origin` says whose name it is:
    "kanzi" (Kanzi Particles 3.0's, a note) or "earlier" (an earlier kzplayer word, a warning).
    `kind`: "material", "property" or "enum" (then `property` names the enum property)."""
    name: str
    of: str
    origin: str
    kind: str
    property: str | None = None


ALIAS_ORIGINS = ("kanzi", "earlier")
# Where a stock material or property comes from, set only where it is known that Kanzi
# Particles does not ship it (material.kzplayer-only notes each use); unset: Kanzi's, or
# not known. The words, for the docs and the note:
ORIGINS = {"NeL": "the NeL particle system design", "kzplayer": "kzplayer itself"}


class CatalogError(ValueError):
    """The catalog data contradicts itself (a bug in catalog.toml, caught by the tests)."""


# --- typed values from native TOML data --------------------------------------------------

def coerce(type_name: str, raw):
    """Turn a native TOML value (number, bool, string, array) into the kzplayer value of the
    declared type. None stays None (no value). Raises ValueError on a mismatch."""
    if raw is None:
        return None
    if type_name == "bool":
        if not isinstance(raw, bool):
            raise ValueError(f"expected true or false, not {raw!r}")
        return raw
    if type_name == "int":
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"expected an integer, not {raw!r}")
        return raw
    if type_name == "float":
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ValueError(f"expected a number, not {raw!r}")
        return float(raw)
    if type_name in ("string",):
        if not isinstance(raw, str):
            raise ValueError(f"expected a string, not {raw!r}")
        return raw
    if type_name in _VECTOR_SIZES:
        return V.Vector(_numbers(raw, _VECTOR_SIZES[type_name]))
    if type_name == "color4":
        nums = _numbers(raw, (3, 4))
        return V.Color4(nums)
    if type_name == "srt3d":
        n = _numbers(raw, 9)
        return V.Srt3D(tuple(n[0:3]), tuple(n[3:6]), tuple(n[6:9]))
    if type_name == "srt2d":
        n = _numbers(raw, 5)
        return V.Srt2D(tuple(n[0:2]), n[2], tuple(n[3:5]))
    if type_name in ("matrix3", "matrix4"):
        return V.Matrix(tuple(_numbers(raw, 9 if type_name == "matrix3" else 16)))
    if type_name == "enum":
        return V.EnumValue(_text(raw))
    if type_name == "item":
        return V.ItemRef(_text(raw)) if raw != "" else None
    if type_name == "material":
        return V.MaterialRef(_text(raw)) if raw != "" else None
    if type_name == "buffer":
        raise ValueError("a buffer has no literal value; only a binding fills it")
    raise ValueError(f"unknown type {type_name!r}")


def _numbers(raw, sizes) -> list[float]:
    sizes = (sizes,) if isinstance(sizes, int) else sizes
    if not isinstance(raw, (list, tuple)) or len(raw) not in sizes:
        raise ValueError(f"expected {' or '.join(map(str, sizes))} numbers, not {raw!r}")
    if any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in raw):
        raise ValueError(f"expected numbers, not {raw!r}")
    return [float(c) for c in raw]


def _text(raw) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"expected a word, not {raw!r}")
    return raw


def _prefix(name: str) -> str:
    return name.split(".", 1)[0] if "." in name else ""


# --- the catalog --------------------------------------------------------------------------

class Catalog:
    """Properties, materials and item types; look-ups by name, suggestions for typos."""

    def __init__(self, properties: dict[str, PropertySpec], materials: dict[str, MaterialSpec],
                 item_types: dict[str, ItemTypeSpec], asset_prefix: str, notes: tuple[str, ...] = (),
                 kanzi_item_types: frozenset[str] = frozenset(),
                 component_types: frozenset[str] = frozenset(), aliases: tuple[Alias, ...] = ()):
        self.asset_prefix = asset_prefix
        self.notes = notes
        self.kanzi_item_types = kanzi_item_types    # Kanzi's own types: known, not played
        self.component_types = component_types      # node components: attached to their parent node
        self.aliases = aliases                      # other names (alias.* of catalog.toml)
        self._property_aliases = {a.name: a for a in aliases if a.kind == "property"}
        self._material_aliases = {a.name: a for a in aliases if a.kind == "material"}
        self._props = properties
        self._mats = materials              # by name (stock, legacy, custom)
        self._types = item_types
        self._lookup: dict[str, MaterialSpec] = {}
        for m in materials.values():
            for key in (m.name, m.path, *m.aliases):
                if key:
                    self._lookup.setdefault(key, m)
        for a in self._material_aliases.values():
            if a.of in materials:
                for key in (a.name, self.asset_prefix + a.name):
                    self._lookup.setdefault(key, materials[a.of])

    # properties
    @builtins.property
    def properties(self) -> dict[str, PropertySpec]:
        return dict(self._props)

    def property(self, name: str) -> PropertySpec | None:
        """A property by name or by another name of it (`ParticlesOverLife.ColorStart`)."""
        spec = self._props.get(name)
        if spec is None and name in self._property_aliases:
            spec = self._props.get(self._property_aliases[name].of)
        return spec

    def canonical(self, name: str) -> str:
        """The catalog's name of a property written under another name; else `name`."""
        a = self._property_aliases.get(name)
        return a.of if a is not None and a.of in self._props else name

    def spellings(self, name: str) -> tuple[str, ...]:
        """Every name a property can be written under: its catalog name first, then its aliases."""
        name = self.canonical(name)
        return (name, *(a.name for a in self._property_aliases.values() if a.of == name))

    def alias(self, name: str, kind: str = "property") -> Alias | None:
        """The Alias entry of a property or material name (None: not another name)."""
        return (self._property_aliases if kind == "property" else self._material_aliases).get(name)

    def suggest_property(self, name: str) -> str | None:
        return _suggest(name, self._props)

    # materials
    @builtins.property
    def materials(self) -> list[MaterialSpec]:
        """Every material that is not a legacy name, in catalog order."""
        return [m for m in self._mats.values() if not m.legacy]

    @builtins.property
    def legacy_materials(self) -> list[MaterialSpec]:
        return [m for m in self._mats.values() if m.legacy]

    def material(self, name_or_path: str) -> MaterialSpec | None:
        """A material by stock name, alias, asset-package path, legacy name or, for custom
        materials, ProjectItemPath (with or without the project name)."""
        key = str(name_or_path).strip().rstrip("/")
        found = self._lookup.get(key)
        if found is None and key.startswith(self.asset_prefix):
            found = self._lookup.get(key[len(self.asset_prefix):])
        if found is None and "/" in key:         # a leading project name on a custom path
            found = self._lookup.get(key.split("/", 1)[1])
            if found is not None and not found.custom:
                found = None
        return found

    def materials_for_slot(self, slot: str) -> list[MaterialSpec]:
        return [m for m in self.materials if m.slot == slot]

    def suggest_material(self, name: str) -> str | None:
        return _suggest(str(name).rsplit("/", 1)[-1], self._mats)

    # item types
    @builtins.property
    def item_types(self) -> frozenset[str]:
        return frozenset(self._types)

    def item_type(self, name: str) -> ItemTypeSpec | None:
        return self._types.get(name)

    def suggest_item_type(self, name: str) -> str | None:
        return _suggest(name, self._types)

    def default_for(self, property_name: str, material_names: Iterable[str] = ()):
        """The value an unset property has on a node whose slots hold `material_names`: a
        legacy material's preset where one sets it, else the catalog default."""
        for name in material_names:
            spec = self.material(str(name)) if name else None
            if spec is not None and property_name in spec.preset:
                return spec.preset[property_name]
        spec = self._props.get(property_name)
        return spec.default if spec is not None else None

    def known_unplayed(self, item_type: str, property_name: str) -> bool:
        """Whether a name the catalog lacks is one of Kanzi's own properties of this item type
        that kzplayer does not play (Window.Width on a Screen): its family is one of the
        type's kanzi_prefixes and it is no near miss of a name the type carries (that is a
        typo: Node3D.RenderTransformaton)."""
        t = self._types.get(item_type)
        prefix = _prefix(property_name)
        if t is None or prefix not in t.kanzi_prefixes or property_name in self._props:
            return False
        played = [n for n, p in self._props.items() if p.prefix == prefix and item_type in p.item_types]
        return closest(property_name, played, cutoff=0.85) is None

    def carries(self, item_type: str, property_name: str) -> bool:
        """Whether a property may be set on an item of this type."""
        spec = self.property(property_name)
        return spec is not None and item_type in spec.item_types

    # custom types of a project
    def with_custom(self, property_types: Iterable = (), material_types: Iterable = ()) -> "Catalog":
        """This catalog plus a project's <PropertyTypes> and <Materials> (model Items of type
        PropertyType / MaterialType, or plain dicts with the same attributes). A custom name
        that is already stock keeps the stock entry. Values that do not parse are skipped
        here: the validator reports them with their position."""
        props = dict(self._props)
        mats = dict(self._mats)
        free_prefixes: set[str] = set()
        slot_prefixes: dict[str, set[str]] = {}
        for entry in property_types:
            if getattr(getattr(entry, "parent", None), "type", None) == "MaterialType":
                continue                     # a material's own property: read below
            spec = _custom_property(entry)
            if spec is not None and spec.name not in props:
                props[spec.name] = spec
                free_prefixes.add(spec.prefix)
        for entry in material_types:
            attrs = _attributes(entry)
            name, slot = attrs.get("name"), attrs.get("slot")
            if not name or slot not in SLOTS:
                continue
            reads = []
            for child in _children(entry, "PropertyType"):
                spec = _custom_property(child)
                if spec is None:
                    continue
                reads.append(spec.name)
                if spec.name not in props:
                    props[spec.name] = spec
                    slot_prefixes.setdefault(slot, set()).add(spec.prefix)
            for extra in attrs.get("reads", "").replace(",", " ").split():
                reads.append(extra)          # stock properties a custom shader also reads
            if name in mats:                 # a stock name keeps the stock material
                continue
            mats[name] = MaterialSpec(
                name=name, slot=slot, properties=tuple(dict.fromkeys(reads)),
                event_driven=EVENT_SOURCE in reads, shader=attrs.get("shader", ""),
                path=getattr(entry, "path", "") or f"Materials/{name}",
                doc=attrs.get("doc", ""), custom=True,
                vertex=attrs.get("vertex", ""), fragment=attrs.get("fragment", ""),
                geometry=tuple(attrs.get("geometry", "billboard mesh").replace(",", " ").split())
                if slot == "Particle" else (),
                history=attrs.get("history", "").strip() if slot == "Particle" else "")
        types = {}
        for t in self._types.values():
            extra = set(free_prefixes) if t.is_node else set()
            for slot in t.slots:
                extra |= slot_prefixes.get(slot, set())
            types[t.name] = replace(t, property_prefixes=t.property_prefixes | extra) if extra else t
        return Catalog(*_link(props, mats, types), asset_prefix=self.asset_prefix, notes=self.notes,
                       kanzi_item_types=self.kanzi_item_types, component_types=self.component_types,
                       aliases=self.aliases)


def _suggest(name: str, names) -> str | None:
    near = closest(name, names)
    if near is None:        # case slips: "emission.rate"
        lower = {n.lower(): n for n in names}
        return lower.get(name.lower())
    return near


def _attributes(entry) -> dict[str, str]:
    if isinstance(entry, dict):
        return {k: v for k, v in entry.items() if isinstance(v, str)}
    attrs = dict(getattr(entry, "attributes", {}) or {})
    attrs.setdefault("name", getattr(entry, "name", None))
    return attrs


def _children(entry, type_name: str) -> list:
    if isinstance(entry, dict):
        return list(entry.get("properties", ()))
    return [c for c in getattr(entry, "children", ()) if getattr(c, "type", None) == type_name]


def _custom_property(entry) -> PropertySpec | None:
    attrs = _attributes(entry)
    name, type_name = attrs.get("name"), attrs.get("type")
    if not name or type_name not in TYPE_NAMES:
        return None
    enum = tuple(attrs.get("enum", "").replace(",", " ").split())
    try:
        default = _parse_text(type_name, attrs["default"]) if "default" in attrs else None
        lo = float(attrs["min"]) if "min" in attrs else None
        hi = float(attrs["max"]) if "max" in attrs else None
    except ValueError:
        return None
    if default is None and type_name not in ("buffer", "item", "material"):
        default = _ZERO.get(type_name)
    return PropertySpec(name=name, type=type_name, default=default, min=lo, max=hi,
                        enum=enum, doc=attrs.get("doc", ""), custom=True)


def _parse_text(type_name: str, text: str):
    """A default written as an XML attribute: the project's literal syntax."""
    from kzplayer.project import literals         # the loader's parser; imported late (cycle)
    value = literals.parse_literal(text, type_name)
    return value


_ZERO = {"bool": False, "int": 0, "float": 0.0, "string": "",
         "vector2": V.Vector((0, 0)), "vector3": V.Vector((0, 0, 0)),
         "vector4": V.Vector((0, 0, 0, 0)), "color4": V.Color4(0, 0, 0, 0),
         "srt2d": V.Srt2D(), "srt3d": V.Srt3D(),
         "matrix3": V.Matrix((1, 0, 0, 0, 1, 0, 0, 0, 1)),
         "matrix4": V.Matrix((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))}


# --- loading catalog.toml -----------------------------------------------------------------

def load_catalog(path: str | Path | None = None) -> Catalog:
    """Read a catalog file (the stock one by default) and check that it is consistent."""
    path = Path(path) if path else schema_dir() / "catalog.toml"
    with open(path, "rb") as f:
        data = tomllib.load(f)
    prefix = data.get("asset_prefix", "")
    groups = data.get("groups", {})

    props: dict[str, PropertySpec] = {}
    for name, p in data.get("property", {}).items():
        t = p.get("type")
        if t not in TYPE_NAMES:
            raise CatalogError(f"{name}: unknown type {t!r}")
        enum = tuple(p.get("enum", ()))
        try:
            default = coerce(t, p.get("default"))
        except ValueError as e:
            raise CatalogError(f"{name}: default: {e}") from None
        if enum and default is not None and default.word not in enum:
            raise CatalogError(f"{name}: default {default} is not one of {enum}")
        if enum and default is not None:
            default = V.EnumValue(default.word, enum.index(default.word))
        props[name] = PropertySpec(
            name=name, type=t, default=default, min=p.get("min"), max=p.get("max"),
            clamped=p.get("clamped", False), work_max=p.get("work_max"), enum=enum, doc=p.get("doc", ""),
            unit=p.get("unit", ""), slot=p.get("slot"), output=p.get("output", False),
            **_origin(f"property {name}", p))

    mats: dict[str, MaterialSpec] = {}
    for name, m in data.get("material", {}).items():
        reads: list[str] = []
        for r in m.get("reads", ()):
            reads.extend(groups[r[1:]] if r.startswith("@") else [r])
        rendering = m["slot"] == "Particle"
        mats[name] = MaterialSpec(
            name=name, slot=m["slot"], properties=tuple(dict.fromkeys(reads)),
            event_driven=EVENT_SOURCE in reads, shader=m.get("shader", "" if rendering else f"{name}.glsl"),
            path=prefix + name, doc=m.get("doc", ""), aliases=tuple(m.get("aliases", ())),
            vertex=m.get("vertex", f"render/{name}.vert.glsl" if rendering else ""),
            fragment=m.get("fragment", f"render/{name}.frag.glsl" if rendering else ""),
            geometry=tuple(m.get("geometry", ())), formula=m.get("formula", ""), history=m.get("history", ""),
            about=m.get("about", "").strip(), **_origin(f"material {name}", m))
        if "preset" in m:            # a stock variant of another material's shader
            mats[name] = replace(mats[name], preset=_preset(f"material {name}", mats[name], m["preset"], props))
    for name, m in data.get("legacy", {}).items():
        new = mats.get(m["replacement"])
        if new is None:
            raise CatalogError(f"legacy {name}: unknown replacement {m['replacement']!r}")
        preset = _preset(f"legacy {name}", new, m.get("preset", {}), props)
        mats[name] = replace(new, name=name, path=prefix + name, legacy=True, aliases=(),
                             replacement=new.name, preset=preset, doc=m.get("doc", ""))

    types = {name: ItemTypeSpec(name=name, property_prefixes=frozenset(t.get("prefixes", ())),
                                is_node=t.get("node", False), is_library=t.get("library", False),
                                slots=tuple(t.get("slots", ())), doc=t.get("doc", ""),
                                kanzi_prefixes=frozenset(t.get("kanzi_prefixes", ())))
             for name, t in data.get("item_type", {}).items()}
    kanzi = frozenset(n for group in data.get("kanzi_item_types", {}).values() for n in group)
    if kanzi & types.keys():
        raise CatalogError(f"played and listed as Kanzi's, not played: {sorted(kanzi & types.keys())}")
    aliases = _aliases(data.get("alias", {}), props, mats)
    for a in aliases:
        if a.kind == "enum":
            spec = props[a.property]
            props[a.property] = replace(spec, enum_aliases=spec.enum_aliases + ((a.name, a.of),))
    return Catalog(*_link(props, mats, types, check=True), asset_prefix=prefix,
                   notes=tuple(data.get("notes", ())), kanzi_item_types=kanzi,
                   component_types=frozenset(data.get("kanzi_item_types", {}).get("components", ())),
                   aliases=aliases)


def _aliases(data: dict, props: dict, mats: dict) -> tuple[Alias, ...]:
    """[alias.<origin>.<kind>] tables, checked: each names an entry that exists, and is no
    name of its own (one name, one meaning)."""
    out = []
    for origin, kinds in data.items():
        if origin not in ALIAS_ORIGINS:
            raise CatalogError(f"alias.{origin}: the origin is one of {ALIAS_ORIGINS}")
        for kind, table in kinds.items():
            if kind == "enum":
                for prop, words in table.items():
                    spec = props.get(prop)
                    if spec is None or spec.type != "enum":
                        raise CatalogError(f"alias.{origin}.enum.{prop}: not an enum property")
                    for word, of in words.items():
                        if of not in spec.enum or word in spec.enum:
                            raise CatalogError(f"alias.{origin}.enum.{prop}: {word} -> {of} does not fit {spec.enum}")
                        out.append(Alias(word, of, origin, "enum", prop))
                continue
            known = {"material": mats, "property": props}.get(kind)
            if known is None:
                raise CatalogError(f"alias.{origin}.{kind}: the kind is material, property or enum")
            for name, of in table.items():
                if of not in known or name in known:
                    raise CatalogError(f"alias.{origin}.{kind}: {name} -> {of}: unknown entry, or a name of its own")
                out.append(Alias(name, of, origin, kind))
    return tuple(out)


def _origin(owner: str, raw: dict) -> dict:
    """`origin` and `port` of a [property] or [material], checked: an origin of ORIGINS, and a
    port only beside one."""
    origin, port = raw.get("origin", ""), raw.get("port", "")
    if origin and origin not in ORIGINS:
        raise CatalogError(f"{owner}: origin {origin!r} is not one of {tuple(ORIGINS)}")
    if port and not origin:
        raise CatalogError(f"{owner}: port without an origin")
    return {"origin": origin, "port": port}


def _preset(owner: str, material: MaterialSpec, raw: dict, props: dict) -> dict:
    """A [material] or [legacy] preset as typed values; each property must be one the
    material reads."""
    preset = {}
    for pname, value in raw.items():
        spec = props.get(pname)
        if spec is None or pname not in material.properties:
            raise CatalogError(f"{owner}: {pname} is not read by {material.name}")
        try:
            preset[pname] = coerce(spec.type, value)
        except ValueError as e:
            raise CatalogError(f"{owner}: {pname}: {e}") from None
    return preset


def _link(props, mats, types, check=False):
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
            slot_prefixes.setdefault(m.slot, set()).add(_prefix(p))
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


@cache
def catalog() -> Catalog:
    """The stock catalog (read once)."""
    return load_catalog()


if __name__ == "__main__":      # pragma: no cover - the generator's old command still works
    from kzplayer.project.catalog_docs import main
    main()
