"""Reading `kzm_schema/catalog.toml` into a `Catalog`, checked: every reference names an
entry that exists, presets are read by their material, aliases are no names of their own
(a contradiction is a CatalogError, caught by the tests).
"""
from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from kzplayer import values as V
from kzplayer.project.catalog_lookup import Catalog
from kzplayer.project.catalog_specs import (ALIAS_ORIGINS, EVENT_SOURCE, ORIGINS, TYPE_NAMES, Alias,
                                            CatalogError, ItemTypeSpec, MaterialSpec, PropertySpec, link)
from kzplayer.project.value_rules import coerce
from kzplayer.resources import schema_dir


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
            page=p.get("page", ""), **_origin(f"property {name}", p))

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
            about=m.get("about", "").strip(), page=m.get("page", ""), **_origin(f"material {name}", m))
        if "preset" in m:            # a stock variant of another material's shader
            mats[name] = replace(mats[name], preset=_preset(f"material {name}", mats[name], m["preset"], props))
    for name, m in data.get("legacy", {}).items():
        new = mats.get(m["replacement"])
        if new is None:
            raise CatalogError(f"legacy {name}: unknown replacement {m['replacement']!r}")
        preset = _preset(f"legacy {name}", new, m.get("preset", {}), props)
        inferred = tuple(m.get("inferred", ()))
        if not set(inferred) <= preset.keys():
            raise CatalogError(f"legacy {name}: inferred names a value the preset does not set")
        current = m.get("current", False)   # Kanzi 3.0 still ships the name: Kanzi's, no warning
        mats[name] = replace(new, name=name, path=prefix + name, legacy=True, aliases=(),
                             replacement=new.name, preset=preset, doc=m.get("doc", ""),
                             current=current, inferred=inferred, page=m.get("page", ""),
                             **({"origin": "", "port": ""} if current else {}))

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
    pages = data.get("pages", {})
    props, mats, types = link(props, mats, types, check=True)
    props, mats = _pages(pages, data.get("page_of", {}), props, mats)
    prefabs = {}
    for name, pf in data.get("prefab", {}).items():
        emission = mats.get(pf.get("emission", ""))
        if emission is None or emission.slot != "Emission":
            raise CatalogError(f"prefab {name}: emission {pf.get('emission')!r} is no emission material")
        prefabs[name] = (emission.name, pf.get("count", "EmissionCount_Schedule"))
    return Catalog(props, mats, types, asset_prefix=prefix, pages=pages,
                   prefabs=prefabs, prefab_prefix=data.get("prefab_prefix", ""),
                   render_prefix=data.get("render_asset_prefix", ""),
                   notes=tuple(data.get("notes", ())), kanzi_item_types=kanzi,
                   component_types=frozenset(data.get("kanzi_item_types", {}).get("components", ())),
                   aliases=aliases)


def _pages(pages: dict, page_of: dict, props: dict, mats: dict) -> tuple[dict, dict]:
    """Every entry's `page` (a key of [pages]): its own, else NeL's design for an entry of
    origin NeL, else its slot's (a material) or its prefix's (a property) from [page_of],
    else the page of the first material that reads it, else "inferred"."""
    by_slot, by_prefix = page_of.get("slot", {}), page_of.get("prefix", {})
    for key in [*by_slot.values(), *by_prefix.values(), *(x.page for x in [*props.values(), *mats.values()])]:
        if key and key not in pages:
            raise CatalogError(f"page {key!r} is not one of [pages]")

    def fallback(origin: str, own: str) -> str:
        return {"NeL": "nel", "kzplayer": "inferred"}.get(origin, own) if origin else own
    mats = {n: m if m.page else replace(m, page=fallback(m.origin, by_slot.get(m.slot, "inferred")))
            for n, m in mats.items()}
    out = {}
    for n, p in props.items():
        if not p.page:
            reader = mats.get(p.materials[0]) if p.materials else None
            own = by_prefix.get(p.prefix) or (reader.page if reader is not None else "inferred")
            p = replace(p, page=fallback(p.origin, own))
        out[n] = p
    return out, mats


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
        if spec.enum:           # an enum word with its index, as a default has it
            if preset[pname].word not in spec.enum:
                raise CatalogError(f"{owner}: {pname}: {value!r} is not one of {spec.enum}")
            preset[pname] = V.EnumValue(preset[pname].word, spec.enum.index(preset[pname].word))
    return preset
