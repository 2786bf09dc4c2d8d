"""The `Catalog`: properties, materials and item types looked up by name or another name
of them, suggestions for typos, and `with_custom` (a project's own PropertyTypes and
MaterialTypes added to the stock entries).
"""
from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Iterable

from kzplayer import values as V
from kzplayer.diagnostics import closest
from kzplayer.project.catalog_specs import (EVENT_SOURCE, SLOTS, TYPE_NAMES, Alias, ItemTypeSpec,
                                            MaterialSpec, PropertySpec, link, prefix_of)
from kzplayer.project.literals import parse_literal

class Catalog:
    """Properties, materials and item types; look-ups by name, suggestions for typos."""

    def __init__(self, properties: dict[str, PropertySpec], materials: dict[str, MaterialSpec],
                 item_types: dict[str, ItemTypeSpec], asset_prefix: str, notes: tuple[str, ...] = (),
                 kanzi_item_types: frozenset[str] = frozenset(),
                 component_types: frozenset[str] = frozenset(), aliases: tuple[Alias, ...] = (),
                 render_prefix: str = "", pages: dict[str, str] | None = None,
                 prefabs: dict[str, tuple[str, str]] | None = None, prefab_prefix: str = ""):
        self.asset_prefix = asset_prefix
        self.prefabs = dict(prefabs or {})          # stock prefab -> (emission, count material)
        self.prefab_prefix = prefab_prefix          # where they live: ParticlesAssetPackage/Prefabs/
        self.pages = dict(pages or {})              # page key -> where it is (catalog.toml [pages])
        self.render_prefix = render_prefix          # the rendering materials' folder in Kanzi
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
        if found is None and self.render_prefix and key.startswith(self.render_prefix):
            found = self._lookup.get(key[len(self.render_prefix):])   # ParticlesAssetPackage/Materials/<Name>
            if found is not None and (found.custom or found.slot != "Particle"):
                found = None
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
        legacy material's preset where one sets it, else the catalog default (under any name
        of the property)."""
        property_name = self.canonical(property_name)
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
        prefix = prefix_of(property_name)
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
        if isinstance(property_types, (list, tuple)) and isinstance(material_types, (list, tuple)) \
                and not property_types and not material_types:
            # most projects declare nothing of their own: the linked catalog is the same for
            # all of them, made once (catalogs are never changed once made)
            plain = self.__dict__.get("_without_custom")
            if plain is None:
                plain = self._without_custom = self._with_custom((), ())
            return plain
        return self._with_custom(property_types, material_types)

    def _with_custom(self, property_types: Iterable, material_types: Iterable) -> "Catalog":
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
        return Catalog(*link(props, mats, types), asset_prefix=self.asset_prefix, render_prefix=self.render_prefix,
                       pages=self.pages, prefabs=self.prefabs, prefab_prefix=self.prefab_prefix,
                       notes=self.notes,
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
    if default is None and type_name == "enum" and enum:
        default = V.EnumValue(enum[0], 0)        # Kanzi's default of an enum type: its first option
    return PropertySpec(name=name, type=type_name, default=default, min=lo, max=hi,
                        enum=enum, doc=attrs.get("doc", ""), custom=True)


def _parse_text(type_name: str, text: str):
    """A default written as an XML attribute: the project's literal syntax."""
    return parse_literal(text, type_name)


_ZERO = {"bool": False, "int": 0, "float": 0.0, "string": "",
         "vector2": V.Vector((0, 0)), "vector3": V.Vector((0, 0, 0)),
         "vector4": V.Vector((0, 0, 0, 0)), "color4": V.Color4(0, 0, 0, 0),
         "srt2d": V.Srt2D(), "srt3d": V.Srt3D(),
         "matrix3": V.Matrix((1, 0, 0, 0, 1, 0, 0, 0, 1)),
         "matrix4": V.Matrix((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))}
