"""Every Kanzi Particles 3.0 name the manual's pages state (tests/data/kanzi30_names.toml,
each with its page) is known to the catalog under that name, loads in a small project with
`validate --strict` clean (notes allowed), and plays (particles live) or draws (a lit
picture). Defaults and ranges the pages give are the catalog's. A name a page states exactly
reads without a property.alias note; an inferred spelling read as another entry gets one."""
from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
import trimesh

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.commands.validate import exit_code
from kzplayer.diagnostics import Severity
from kzplayer.project.catalog import catalog
from kzplayer.render.player import Player
from kzplayer.validate import validate_paths

TABLE = tomllib.loads((Path(__file__).parents[1] / "data" / "kanzi30_names.toml").read_text(encoding="utf-8"))
PAGES = TABLE["pages"]
MATERIALS = TABLE["material"]
PROPERTIES = TABLE["property"]

SLOT = {"Emission": "ParticleEmitter.EmissionMaterial", "EmissionCount": "ParticleEmitter.EmissionCountMaterial",
        "GenerateEvents": "ParticleEmitter.GenerateEventsMaterial", "Particle": "ParticleEmitter.ParticleMaterial"}
EVENT_DRIVEN = {"Emitter_FromEvents", "FromEvents", "Emitter_Sparks_FromHit", "Sparks_FromHit",
                "EmissionCount_PerEvent", "EmissionCount_FromEvents"}

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Names" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Camera name="Camera"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,0,8)</Property></Camera>
    <ParticleSystem name="System">{system}
{body}
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Meshes><Mesh name="Box"><Property name="Mesh.File">box.glb</Property></Mesh></Meshes>
</Project>
"""


def _props(values: dict) -> str:
    return "".join(f'\n        <Property name="{k}">{v}</Property>' for k, v in values.items())


def _emitter(name="Emitter", **extra) -> str:
    """An emitter that spawns 40 particles at once and keeps them: a shape emitter, a
    count, a lifetime long enough for the run; `extra` overrides or adds properties."""
    values = {"ParticleEmitter.EmissionMaterial": "Emitter_Sphere",
              "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
              "Emission.Rate": "0", "Emission.ImpulseAtCycleStart": "40", "Emission.OffDuration": "1e10",
              "Emission.Lifetime": "10", "Emission.InitialVelocityStrength": "0.5", "ParticleEmitter.MaximumAmount": "1000",
              "ParticleEmitter.ParticleMaterial": "ParticlesDefault"}
    values.update(extra)
    if "Mesh" in values["ParticleEmitter.EmissionMaterial"]:
        values.setdefault("ParticleEmitter.Mesh", "Meshes/Box")      # the emitter node's Mesh property
    if values["ParticleEmitter.EmissionCountMaterial"] != "EmissionCount_Schedule":
        for k in ("Emission.Rate", "Emission.ImpulseAtCycleStart", "Emission.OffDuration"):
            values.pop(k, None)                 # the named count's own preset
    return f'      <ParticleEmitter name="{name}">{_props(values)}\n      </ParticleEmitter>'


def _subemitter(**slots) -> str:
    """A source whose particles die fast with a death event, and a subemitter bound to it."""
    source = _emitter("Source", **{"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                                   "Emission.Lifetime": "0.1"})
    values = {"ParticleEmitter.EmissionMaterial": "Emitter_FromEvents",
              "ParticleEmitter.EmissionCountMaterial": "EmissionCount_FromEvents",
              "Emission.Lifetime": "10", "ParticleEmitter.MaximumAmount": "1000",
              "ParticleEmitter.ParticleMaterial": "ParticlesDefault"}
    values.update(slots)
    declared = "".join(f'\n        <Property name="Emission.Source{b}Buffer"/>' for b in ("Event", "ParticleData"))
    binds = "".join(f'\n        <Binding target="Emission.Source{b}Buffer">{{@../Source/ParticleEmitter.{b}Buffer}}</Binding>'
                    for b in ("Event", "ParticleData"))
    return source + f'\n      <ParticleEmitter name="Sub">{_props(values)}{declared}{binds}\n      </ParticleEmitter>'


def material_body(entry) -> tuple[str, str]:
    name, slot = entry["name"], entry["slot"]
    short = name.rsplit("/", 1)[-1]
    if short in EVENT_DRIVEN:
        return "", _subemitter(**{SLOT[slot]: name})
    if slot == "Affector":      # away from the particles: a KillZone there would kill them all
        where = {"Node3D.RenderTransformation": "Srt3D(1,1,1, 0,0,0, 0,0,-50)", "Affector.Radius": "1"} \
            if "KillZone" in name else {}
        return "", _emitter() + ('\n      <ParticleAffector name="Affector">'
                                 f'{_props({"ParticleAffector.AffectorMaterial": name, **where})}\n      </ParticleAffector>')
    if slot == "Collider":
        return "", _emitter() + f'\n      <ParticleCollider name="Collider">{_props({"ParticleCollider.ColliderMaterial": name})}\n      </ParticleCollider>'
    extra = {SLOT[slot]: name}
    if slot == "EmissionCount":
        extra["ParticleEmitter.EmissionMaterial"] = "Emitter_Point"
    return "", _emitter(**extra)


def property_body(entry) -> tuple[str, str]:
    name, on, value = entry["name"], entry["on"], entry["value"]
    if on == "ParticleSystem":
        return _props({name: value}), _emitter(**{"ParticleEmitter.SortingType": "Depth"})
    if on == "ParticleCollider":
        return "", _emitter() + ('\n      <ParticleCollider name="Collider">'
                                 f'{_props({"ParticleCollider.ColliderMaterial": "Collider_Plane", name: value})}\n'
                                 '      </ParticleCollider>')
    extra = {name: value}
    material = entry.get("material")
    if material is not None:
        extra[SLOT[catalog().material(material).slot]] = material
    if "EmissionCount" in (material or ""):
        extra["ParticleEmitter.EmissionMaterial"] = "Emitter_Point"
    return "", _emitter(**extra)


def write(tmp_path, system: str, body: str) -> Path:
    trimesh.creation.box(extents=(1, 1, 1)).export(tmp_path / "box.glb")
    path = tmp_path / "names.kzm"
    path.write_text(PROJECT.format(system=system, body=body), encoding="utf-8")
    return path


def strict_clean(path: Path) -> None:
    result = validate_paths([str(path)])
    loud = [str(d) for d in result.diagnostics if d.severity in (Severity.ERROR, Severity.WARNING)]
    assert loud == [] and exit_code(result, strict=True) == 0, loud


def plays_and_draws(ctx, path: Path) -> None:
    project = kzplayer.load(str(path))
    heard = []
    player = Player(ctx, project, resolve(project), (64, 36), seed=1, warn=heard.extend)
    try:
        player.step(0.5)
        player.draw()
        live = sum(len(player.sim.read_particles(e)) for e in player.sim.emitters)
        image = player.image()
    finally:
        player.release()
    assert [str(d) for d in heard if d.severity != Severity.NOTE] == []
    assert live > 0, "no particle lives"
    assert image.max() > 0, "nothing is drawn"


def test_every_entry_rests_on_a_page_of_the_manual():
    for entry in MATERIALS + PROPERTIES:
        assert PAGES[entry["page"]].startswith("https://docs.kanzi.com/particles/4.0/3.0.0/"), entry["name"]


@pytest.mark.parametrize("entry", MATERIALS, ids=[m["name"] for m in MATERIALS])
def test_a_kanzi_material_name_is_the_catalogs_validates_strictly_and_plays(ctx, tmp_path, entry):
    spec = catalog().material(entry["name"])
    assert spec is not None and spec.slot == entry["slot"]
    assert not spec.origin, f"{entry['name']} is Kanzi's: no kzplayer-only mark"
    path = write(tmp_path, *material_body(entry))
    strict_clean(path)
    plays_and_draws(ctx, path)


@pytest.mark.parametrize("entry", PROPERTIES, ids=[p["name"] for p in PROPERTIES])
def test_a_kanzi_property_has_the_pages_default_and_range_validates_strictly_and_plays(ctx, tmp_path, entry):
    cat = catalog()
    spec = cat.property(entry["name"])
    assert spec is not None and cat.carries(entry["on"], entry["name"])
    if "default" in entry:
        default = spec.default
        shown = getattr(default, "word", None) or (tuple(default) if isinstance(default, tuple) else default)
        want = tuple(entry["default"]) if isinstance(entry["default"], list) else entry["default"]
        assert shown == pytest.approx(want) if not isinstance(want, str) else shown == want
    if "min" in entry:
        assert (spec.min, spec.max) == (entry["min"], entry["max"])
    path = write(tmp_path, *property_body(entry))
    strict_clean(path)
    plays_and_draws(ctx, path)


def test_an_unset_colorend_stays_opaque_as_kanzis_default(tmp_path):
    """Kanzi's ParticlesOverLife.ColorEnd is opaque white: an unset end colour no longer
    fades particles out (rendering-materials page)."""
    default = catalog().property("ParticlesOverLife.ColorEnd").default
    assert tuple(default) == (1.0, 1.0, 1.0, 1.0)
    assert np.isclose(default[3], 1.0)


def _body(entry) -> tuple[str, str]:
    return material_body(entry) if "slot" in entry else property_body(entry)


STATED = [e for e in MATERIALS + PROPERTIES if not e.get("inferred")]


@pytest.mark.parametrize("entry", STATED, ids=[e["name"] for e in STATED])
def test_a_name_the_manual_states_reads_silently(tmp_path, entry):
    """Issue 20: a name a page states exactly is the catalog entry or the manual's other name
    of a Kanzi entry, never a name read through a property.alias note."""
    alias = catalog().alias(entry["name"], "material" if "slot" in entry else "property")
    assert alias is None or alias.origin == "kanzi", f"{entry['name']}: {alias}"
    result = validate_paths([str(write(tmp_path, *_body(entry)))])
    assert [str(d) for d in result.diagnostics if d.rule == "property.alias"] == []


def test_a_name_no_page_states_is_marked_inferred_and_noted(tmp_path):
    """The table's inferred spellings that are aliases (the sizing page's names under the
    Emission. prefix) are the catalog's inferred aliases, and each gets its note."""
    inferred = [e for e in PROPERTIES if e.get("inferred") and catalog().alias(e["name"]) is not None]
    assert {e["name"] for e in inferred} >= {"Emission.AmountPerSecond", "Emission.BurstCount",
                                             "Emission.BurstInterval"}
    for entry in inferred:
        assert catalog().alias(entry["name"]).origin == "inferred", entry["name"]
        result = validate_paths([str(write(tmp_path, *_body(entry)))])
        assert [d.rule for d in result.diagnostics if d.severity == Severity.NOTE].count("property.alias") == 1
