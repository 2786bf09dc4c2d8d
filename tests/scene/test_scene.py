"""The running scene (kzplayer.scene): built from sample projects and small hand-made ones,
read without GL; one test checks that the GPU holds the scene's own records."""
from __future__ import annotations

import math

import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.project.model import Item
from kzplayer.resources import samples_dir
from kzplayer.scene import Scene
from kzplayer.values import MaterialRef
from tests.gpu.conftest import make_item, make_project


def _sample(name: str) -> Scene:
    return Scene(kzplayer.load(str(samples_dir() / f"{name}.kzm")))


def _names(records):
    return [r.item.name for r in records]


def test_sources_come_before_the_subemitters_that_read_them():
    scene = _sample("10_rain")
    system, = scene.systems
    assert _names(system.emitters) == ["Rain", "Splash", "Ripples"]
    rain = system.emitters[0]
    assert [(em.source, em.level) for em in system.emitters] == [(None, 0), (rain, 1), (rain, 1)]
    assert _names(system.affectors) == ["Gravity"] and _names(system.colliders) == ["Street"]


def test_a_bound_subemitter_reads_a_channel_at_its_parents_level():
    scene = _sample("14_firework_shells")
    system, = scene.systems
    bound = [em for em in system.emitters if em.count is not None and em.count.name == "EmissionCount_PerParticle"]
    assert _names(bound) == ["Sparks", "Smoke", "Glitter"]
    assert [ch.channel_of for ch in system.channels] == bound
    for em in bound:
        ch = em.channel
        assert em.source is ch and ch.path == em.item.path + "#bound"
        assert ch.level == ch.particle_source.level and em.level == ch.level + 1
        assert ch.pool == max(ch.particle_source.pool, em.pool)
    order = system.emitters
    for em in order:                                # every source is placed before its reader
        parent = em.source.particle_source if em.source is not None and em.source.channel_of else em.source
        assert parent is None or order.index(parent) < order.index(em)


def _two_systems(accepts: bool) -> Scene:
    project = make_project(emitters={"A": {}}, affectors={"Wind": {
        "ParticleAffector.AffectorMaterial": "Wind", "ParticleAffector.Global": True}})
    scene_item = project.root.children[0].children[0].children[0]
    other = scene_item.add_child(make_item("ParticleSystem", "Other", {"ParticleSystem.AcceptGlobalForces": accepts}))
    other.add_child(make_item("ParticleEmitter", "B"))
    other.add_child(make_item("ParticleAffector", "Own", {"ParticleAffector.AffectorMaterial": "Drag"}))
    return Scene(project)


@pytest.mark.parametrize("accepts", [True, False])
def test_a_global_affector_acts_on_every_system_of_its_scene_that_accepts_it(accepts):
    first, second = _two_systems(accepts).systems
    assert _names(first.affectors) == ["Wind"]
    assert _names(second.affectors) == (["Wind", "Own"] if accepts else ["Own"])   # tree order
    assert [a.material.name for a in second.affectors][-1] == "Drag"
    if accepts:                        # one record per system: the force acts in each system's space
        assert first.affectors[0] is not second.affectors[0]


def test_a_legacy_material_plays_as_its_replacement_with_its_preset():
    cat = kzplayer.project.catalog.catalog()
    cone = cat.material("Emitter_Cone")
    scene = Scene(make_project(emitters={"E": {"ParticleEmitter.EmissionMaterial": "Emitter_Cone"},
                                         "F": {"ParticleEmitter.EmissionMaterial": "Emitter_Cone",
                                               "Emission.InitialVelocityOuterAngle": 0.25}}))
    e, f = scene.emitters
    assert e.emission.name == cone.replacement == f.emission.name
    angle = "Emission.InitialVelocityOuterAngle"
    assert scene.value(e.item, angle) == pytest.approx(cone.preset[angle])
    assert scene.value(f.item, angle) == 0.25           # the node's own value beats the preset
    assert scene.values.bound(e.item, angle) == cat.property(angle).default   # the layer below: no preset


def test_an_asset_path_and_an_alias_name_the_stock_material():
    cat = kzplayer.project.catalog.catalog()
    alias = next(a for a in cat.aliases if a.kind == "material" and cat.material(a.name).slot == "Affector")
    project = make_project(emitters={"E": {"ParticleEmitter.EmissionMaterial": cat.asset_prefix + "Emitter_Box"}},
                           affectors={"F": {"ParticleAffector.AffectorMaterial": alias.name}})
    scene = Scene(project)
    em, = scene.emitters
    assert em.emission.name == "Emitter_Box"
    assert scene.systems[0].affectors[0].material.name == cat.material(alias.name).name != alias.name
    assert scene.plays(em.item, "ParticleEmitter.EmissionMaterial", "Emitter_Box")


def test_a_material_that_cannot_be_resolved_is_left_out_or_raises():
    props = {"ParticleEmitter.EmissionMaterial": "Emitter_Nowhere"}
    with pytest.raises(KzError) as raised:
        Scene(make_project(emitters={"E": props}))
    assert raised.value.diagnostics[0].rule == "material.unknown"
    scene = Scene(make_project(emitters={"E": props}), leave_out_broken=True)
    assert scene.emitters[0].emission is None
    assert [d.rule for d in scene.diagnostics] == ["material.unknown"]
    wrong = Scene(make_project(emitters={"E": {"ParticleEmitter.EmissionMaterial": "Gravity"}}), leave_out_broken=True)
    assert wrong.emitters[0].emission is None and [d.rule for d in wrong.diagnostics] == ["material.slot"]


def test_values_are_clamped_where_the_catalog_clamps():
    cat = kzplayer.project.catalog.catalog()
    name = "Emission.InitialVelocityOuterAngle"
    spec = cat.property(name)
    assert spec.clamped
    scene = Scene(make_project(emitters={"E": {name: 10.0}, "N": {name: math.nan}}))
    e, n = scene.emitters
    assert scene.values.bound(e.item, name) == 10.0
    assert scene.value(e.item, name) == pytest.approx(spec.max)
    assert scene.value(n.item, name) == spec.default        # no number: the default plays


def test_set_value_reports_what_it_touches():
    project = make_project(emitters={"A": {"ParticleEmitter.MaximumAmount": 100}, "B": {}})
    scene = Scene(project)
    a, b = scene.emitters
    system = scene.systems[0]
    change = scene.set_value(a.item, "Emission.Rate", 5.0)
    assert scene.value(a.item, "Emission.Rate") == 5.0
    assert (a.item, "Emission.Rate") in change.values and change.params == {"Emission.Rate"}
    assert change.systems == [system.item.path] and change.emitters == [a.path]
    assert not change.rebuild                         # new parameter words are enough
    grow = scene.set_value(a.item, "ParticleEmitter.MaximumAmount", 200)
    assert grow.rebuild and a.pool == 200             # a pool: buffers are rebuilt
    swap = scene.set_value(b.item, "ParticleEmitter.EmissionMaterial", MaterialRef("Emitter_Sphere"))
    assert swap.rebuild and b.emission.name == "Emitter_Sphere" and swap.emitters == [b.path]
    hide = scene.set_value(system.item, "Node.Visible", False)     # above both emitters
    assert hide.emitters == [a.path, b.path] and not system.visible
    assert scene.opacity(a.item) == 0.0


def test_replace_item_reads_the_new_node():
    project = make_project(emitters={"A": {"ParticleEmitter.MaximumAmount": 100}})
    scene = Scene(project)
    old = scene.emitters[0].item
    new = make_item("ParticleEmitter", "A", {"ParticleEmitter.MaximumAmount": 7,
                                             "ParticleEmitter.EmissionMaterial": "Emitter_Box"})
    change = scene.replace_item(old, new)
    em, = scene.emitters
    assert em.item is new and em.pool == 7 and em.emission.name == "Emitter_Box"
    assert change.rebuild and change.emitters == [new.path]


def test_the_viewport_is_the_first_viewport2d_within_the_limit():
    project = make_project()
    root = project.root
    root.add_child(make_item("Viewport2D", "V", {"Node.Width": 5000.0, "Node.Height": 300.0}))
    assert Scene(project).viewport_size(4096) == (4096, 300)
    assert Scene(make_project()).viewport_size(4096) == (640, 360)


def test_the_simulation_holds_the_scenes_own_records(ctx):
    from kzplayer.gpu import Simulation
    scene = _sample("10_rain")
    sim = Simulation(ctx, scene)
    try:
        assert sim.scene is scene
        assert [em.node for em in sim.emitters] == scene.emitters
        rain, splash, _ = sim.emitters
        assert splash.source is rain and splash.system is sim.systems[0]       # references are holders
        change = sim.set_value(rain.item, "Emission.Rate", 1.0)
        assert rain.item.path in change.emitters and scene.value(rain.item, "Emission.Rate") == 1.0
    finally:
        sim.release()


def test_a_project_without_systems_is_an_empty_scene():
    project = make_project()
    project.root.children[0].children[0].children[0].children.clear()
    scene = Scene(project)
    assert scene.systems == [] and scene.emitters == [] and isinstance(project.root, Item)
