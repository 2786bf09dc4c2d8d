"""docs/catalog.md, generated from the catalog (kzm_schema/catalog.toml):

    python -m kzplayer.project.catalog_docs > docs/catalog.md

tests/project/test_catalog.py checks that the page is current."""
from __future__ import annotations

from kzplayer.project.catalog import ORIGINS, SLOTS, Catalog, catalog
from kzplayer.project.literal_format import format_literal


def _literal(value, cat: Catalog, name: str) -> str:
    """A value as the .kzm literal that writes it (`Additive`, `(0, 1, 0)`, `2.5`)."""
    spec = cat.property(name)
    return format_literal(value, spec.type if spec else None)


def render_markdown(cat: Catalog) -> str:
    """docs/catalog.md: every material and property, generated from the catalog."""
    out = ["# Property and material catalog", "",
           "Generated from `kzm_schema/catalog.toml` by `python -m kzplayer.project.catalog_docs`;",
           "edit the TOML, not this page. Stock materials live at",
           f"`{cat.asset_prefix}<Name>`; the shader of a stock material is",
           "`shaders/<Name>.glsl` (exactly the material name, e.g. `Emitter_Box.glsl`); a legacy",
           "name uses its replacement's shader; a rendering (Particle) material is a vertex and a",
           "fragment shader under `shaders/render/` (docs/rendering.md). The origin column says",
           "where a material comes from when Kanzi Particles does not ship it (below).", ""]
    if cat.notes:
        out += ["## Decisions", ""] + [f"* {n}" for n in cat.notes] + [""]
    out += _pages(cat)
    out += _origins(cat)
    for slot in SLOTS:
        out += [f"## {slot} materials", "", "| material | shader | reads | event-driven | origin | page | what it does |",
                "|---|---|---|---|---|---|---|"]
        for m in cat.materials_for_slot(slot):
            also = f" (also `{'`, `'.join(m.aliases)}`)" if m.aliases else ""
            reads = ", ".join(f"`{p}`" for p in m.properties) or "-"
            shader = f"`{m.vertex}`, `{m.fragment}`" if m.vertex else f"`{m.shader}`"
            out.append(f"| `{m.name}`{also} | {shader} | {reads} | "
                       f"{'yes' if m.event_driven else ''} | {m.origin} | {_page(cat, m.page)} | {m.doc} |")
        out.append("")
    out += _closed_forms(cat)
    described = [m for m in cat.materials_for_slot("Particle") if m.about]
    if described:
        out += ["## The representations, one by one", "",
                "NeL's particle representations as stock rendering materials (docs/rendering.md,",
                "\"Representations\"): what each draws, and each property it reads with its default",
                "and range (the over-life colour, scale and opacity of `ParticlesColorOverLife` apply",
                "to all of them).", ""]
        for m in described:
            out += [f"### `{m.name}`", "", " ".join(m.about.split()), ""]
            geometry = ", ".join(m.geometry)
            history = f"; keeps a position history of `{m.history}` positions per particle" if m.history else ""
            out += [f"Draws: `{geometry}`{history}.", "", "| property | default | range | doc |", "|---|---|---|---|"]
            for name in m.properties:
                p = cat.property(name)
                if p is None or not _own(name):
                    continue
                rng = ""
                if p.min is not None or p.max is not None:
                    rng = f"[{'' if p.min is None else f'{p.min:g}'}, {'' if p.max is None else f'{p.max:g}'}]"
                    rng += " clamped" if p.clamped else ""
                unit = f" {p.unit}" if p.unit else ""
                shown = getattr(p.default, "word", None) or repr(p.default)
                default = "-" if p.default is None else f"`{shown}`{unit}"
                out.append(f"| `{name}` | {default} | {rng} | {p.doc} |")
            out.append("")
    out += ["## Preset names and legacy material names", "",
            "They load as their replacement; the preset fills properties the node does not set.",
            "Kanzi's current names (Kanzi Particles 3.0 ships them: the release notes, the migration",
            "guide, the rendering page) play without a word; an old name only, with a",
            "`material.deprecated` warning. A preset value marked *inferred* is one the pages leave to",
            "the author: kzplayer's choice.", "",
            "| name | replacement | preset | Kanzi's current name | page | note |", "|---|---|---|---|---|---|"]
    for m in cat.legacy_materials:
        preset = ", ".join(f"`{k}` = `{_literal(v, cat, k)}`" + (" *inferred*" if k in m.inferred else "")
                           for k, v in m.preset.items()) or "-"
        out.append(f"| `{m.name}` | `{m.replacement}` | {preset} | {'yes' if m.current else 'no (deprecated)'} | "
                   f"{_page(cat, m.page)} | {m.doc} |")
    out += ["", "## Other names", "",
            "One catalog entry under two names (`[alias.*]`). Where kzplayer had a name first and",
            "Kanzi's page names the entry for sure, the entry carries Kanzi's name and kzplayer's stays",
            "as its alias, read silently (`ParticlesOverLife.ColorStart` / `ColorEnd`, \"Rendering",
            "materials: ParticlesOverLife\"; `ParticleEmitter.Mesh`, the migration guide;",
            "`ParticleCollider.Bounce` / `Friction`, the colliders page). Where the manual names an",
            "entry two ways, both read silently: `ParticlesOverLife` is the rendering page's material",
            "type of the instance `ParticlesColorOverLife`, and `Affector_Gravity` (\"Authoring compute",
            "shaders for performance\") is the affectors page's `Gravity`. Names no page states exactly",
            "(origin inferred) are read as the entry they name with a `property.alias` note: the other",
            "`Affector_*` names (the prefix is not confirmed one by one) and the sizing page's",
            "AmountPerSecond / BurstCount / BurstInterval (the `Emission.` prefix). Words of an earlier",
            "kzplayer catalog give a `property.deprecated`",
            "warning (the SortingType words before \"Particle rendering materials\").", "",
            "| name | stands for | kind | whose name |", "|---|---|---|---|"]
    whose = {"kanzi": "the manual's other name of a Kanzi entry (silent)",
             "inferred": "Kanzi-style, inferred: no page states it (note)", "earlier": "earlier kzplayer (warning)",
             "kzplayer": "kzplayer's earlier name of Kanzi's entry (silent)"}
    for a in cat.aliases:
        kind = f"word of `{a.property}`" if a.kind == "enum" else a.kind
        out.append(f"| `{a.name}` | `{a.of}` | {kind} | {whose[a.origin]} |")
    out += ["", "## Properties", "",
            "A number is always finite, an int 32-bit. The work limit of a property that sizes work",
            "is the most kzplayer takes on: above it `validate` warns (`property.work-limit`),",
            "`play` clamps and `Item.set` / `--set` refuse.", "",
            "| property | type | default | range | carried by | read by | page | doc |",
            "|---|---|---|---|---|---|---|---|"]
    for p in cat.properties.values():
        rng = ""
        if p.min is not None or p.max is not None:
            rng = f"[{'' if p.min is None else f'{p.min:g}'}, {'' if p.max is None else f'{p.max:g}'}]"
            rng += " clamped" if p.clamped else ""
        if p.work_max is not None:
            rng += (", " if rng else "") + f"work limit {p.work_max:,.0f}"
        words = " \\| ".join(p.enum)            # a bare | would end the table cell
        kind = p.type + (f" ({words})" if p.enum else "") + (f", {p.unit}" if p.unit else "")
        default = "-" if p.default is None else f"`{_literal(p.default, cat, p.name)}`"
        doc = f"**{p.origin}, not in Kanzi.** {p.doc}" if p.origin else p.doc
        out.append(f"| `{p.name}` | {kind} | {default} | {rng} | {', '.join(sorted(p.item_types))} | "
                   f"{', '.join(p.materials)} | {_page(cat, p.page)} | {doc} |")
    out += ["", "## Item types", "",
            "Kanzi's families: Kanzi's own property families on the type, known but not played",
            "beyond the properties above; an unknown name in them is no `property.unknown` error",
            "unless it is a near miss of a property the type carries.", "",
            "| item type | node | property prefixes | Kanzi's families | doc |", "|---|---|---|---|---|"]
    for t in cat._types.values():
        out.append(f"| `{t.name}` | {'yes' if t.is_node else ''} | "
                   f"{', '.join(sorted(t.property_prefixes))} | {', '.join(sorted(t.kanzi_prefixes))} | {t.doc} |")
    out += ["", "## Kanzi's own item types: known, not played", "",
            "Kept in the tree and written back, without an `item.unknown-type` warning (in a `.kzm`",
            "as in an imported `.kzproj`). Any other unknown tag is a warning, and a near miss of a",
            "played type an error with \"did you mean\".", "",
            ", ".join(f"`{n}`" for n in sorted(cat.kanzi_item_types))]
    return "\n".join(out) + "\n"


def _page(cat: Catalog, key: str) -> str:
    """An entry's page as a link (the manual's) or its words (the others)."""
    where = cat.pages.get(key, "")
    return f"[{key}]({where})" if where.startswith("https://") else key


def _pages(cat: Catalog) -> list[str]:
    """The pages the entries rest on (catalog.toml [pages])."""
    out = ["## The pages the entries rest on", "",
           "Each material and property says which page it rests on (column \"page\"): a page of the",
           "Kanzi Particles 3.0.0 manual, the NeL design, Kanzi's engine (the node and binding",
           "properties the particles manual does not cover), or *inferred*: no page states it.", "",
           "| page | where |", "|---|---|"]
    out += [f"| `{k}` | {v} |" for k, v in cat.pages.items()]
    return out + [""]


def _origins(cat: Catalog) -> list[str]:
    """Where the stock entries come from: which ones Kanzi Particles does not ship, and how
    that is known (the catalog's `origin`)."""
    marked = [m for m in cat.materials if m.origin]
    props = [p for p in cat.properties.values() if p.origin]
    out = ["## Where the stock entries come from", "",
           "Most stock materials and properties are Kanzi Particles' own (the seed pages: emission,",
           "events and subemitters, affectors). Some come from the NeL particle system design or are",
           "kzplayer's own, and Kanzi Particles does not ship them: they play in kzplayer, and a",
           "project that uses them does not work in Kanzi as it is. The catalog marks them with",
           "`origin` (" + ", ".join(f"`{k}`: {v}" for k, v in ORIGINS.items()) + ") and `port`, what",
           "Kanzi ships that comes nearest; `kzplayer validate` notes each use (`material.kzplayer-only`,",
           "docs/validate.md) so that a project meant for Kanzi can be ported before it is moved.", "",
           "`origin` is set **only where it is known** that Kanzi does not ship the entry, and",
           "an entry of Kanzi's never carries one (both ways, each on its page, column \"page\"):", "",
           "* the NeL forces: the release notes and the affectors page catalog Kanzi's stock affectors",
           "  (Gravity, Accelerate, Wind, Directional, PointAttractor, Buoyancy, CurlNoise, Drag,",
           "  VelocityClamp, TimeDilation, KillZone) and none of them;",
           "* the NeL representations (and `Particles_Stretched`, kzplayer's motion-blur billboard, which",
           "  is not in NeL's list): the rendering page's stock rendering materials are",
           "  `ParticlesColorOverLife` (with `_Green` / `_Red`) and `ParticlesColorOverLife3Stop`;",
           "  `ColorOverLife_ImageUV` is the Kanzi Particles demo's material, not the asset package's",
           "  (origin `demo`);",
           "* the colliders beyond the release notes' stock shapes (Box, Capsule, Cone, Cylinder, Plane,",
           "  Sphere): `Collider_Rectangle`, `Collider_Disc`, `Collider_Mesh` and `Collider.KillOnHit`,",
           "  the NeL design's collision zones, mesh and \"destroyed on collision\";",
           "* `Event_AccelerationRange`: the events page holds it back from the shipped catalog",
           "  (origin `held-back`); it works in kzplayer;",
           "* `EmissionCount_PerParticle`: the emission page catalogs the stock count materials",
           "  (Schedule, PerEvent, FromEvents, and the release notes' PerSecond, Periodic, Burst);",
           "* `Emission.EmissionBasis` and the emission LOD (`Emission.LodNear`, `LodFar`,",
           "  `LodMinimumRate`): the emission page's common property contract and the properties",
           "  Schedule reads are the emission properties Kanzi's materials read, and these are not",
           "  among them.", "",
           "Kanzi's, so not marked: the mesh emitter (`Emitter_Mesh` is the migration guide's",
           "`Emitter_MeshSurface` / `_MeshVertices` / `_MeshEdges`, all three stock names here),",
           "`Collider_Cone` (release notes). Not marked, because no page says either way:",
           "`ParticlesDefault` (the billboard of an empty slot), and the node properties of NeL's flags",
           "and global forces (`ParticleEmitter.Space`, `IgnoreColliders`, `DestroyOnCollision`,",
           "`ParticleAffector.Global`, `ParticleSystem.AcceptGlobalForces`). A material's own properties",
           "(`Vortex.TangentialSpeed`, `Dot.Size`) come with it and are not marked one by one.", "",
           "| material or property | origin | in Kanzi, instead |", "|---|---|---|"]
    for x in [*marked, *props]:
        port = x.port or "a custom material"
        if getattr(x, "preset", None):
            port += " with " + ", ".join(f"`{k}` = `{_literal(v, cat, k)}`" for k, v in x.preset.items())
        out.append(f"| `{x.name}` | {x.origin} | {port} |")
    return out + [""]


def _closed_forms(cat: Catalog) -> list[str]:
    """The materials that state their closed form (NeL's forces): the formula, and the
    preset of a variant of another material's shader."""
    with_formula = [m for m in cat.materials if m.formula]
    if not with_formula:
        return []
    out = ["## Closed forms of the NeL forces", "",
           "The forces of the NeL design (nel-particle-system-design.txt) as stock affector",
           "materials of kzplayer (Kanzi does not ship them). x is the particle's position, v its",
           "velocity (the velocity the integrator steps from), m its mass, o the affector node's",
           "origin, h the step. Forces are divided by the mass (`addParticleForce`); accelerations",
           "are mass-independent (`addParticleAcceleration`). Linear drags go through the exact",
           "damping path of docs/player.md (Integration): their terminal velocities are exact at",
           "any step.", ""]
    for m in with_formula:
        out += [f"### `{m.name}`", "", m.doc, "", m.formula, ""]
        if m.preset:
            out += ["Preset, where the node does not set them: " +
                    ", ".join(f"`{k}` = {v!r}" for k, v in m.preset.items()) + ".", ""]
    return out


def _own(name: str) -> bool:
    """A property a representation reads beyond the colour, blend and over-life ones every
    one of them reads (those are in the table of properties)."""
    return name.split(".")[0] not in ("Particle", "ColorOverLife", "ParticlesOverLife") \
        or name in ("Particle.Size", "Particle.Texture")


def main() -> None:
    print(render_markdown(catalog()), end="")


if __name__ == "__main__":      # pragma: no cover - doc generator
    main()
