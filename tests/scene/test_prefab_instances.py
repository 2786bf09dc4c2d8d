"""Prefab instances that play (issue 20): a placeholder whose template holds a ParticleEmitter
is simulated as its template with the placeholder's own values over the template root's,
where the placeholder is; the stock shape-emitter prefabs (ParticlesAssetPackage/Prefabs/
BoxEmitter...) need no template in the project; nested prefabs play too. Checked against the
same emitter written out: the same particles, bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

import kzplayer
from kzplayer.gpu import Simulation
from kzplayer.project.catalog import catalog
from kzplayer.validate import validate_paths

HEAD = '<?xml version="1.0" encoding="utf-8"?>\n<Project name="P" format="1">\n'
SPRAY = """<Property name="ParticleEmitter.EmissionMaterial">Emitter_Sphere</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Radius">0.5</Property>
        <Property name="Emission.InitialVelocityStrength">2</Property>"""
OVERRIDES = """<Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,30,0, 1,2,0)</Property>
        <Property name="Emission.Rate">90</Property>"""


def project(tmp_path, name, system: str, prefabs: str = ""):
    path = tmp_path / f"{name}.kzm"
    path.write_text(HEAD + f"""  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="System">
{system}
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Prefabs>{prefabs}</Prefabs>
</Project>
""", encoding="utf-8")
    return path


def particles(ctx, path, steps=40):
    sim = Simulation(ctx, kzplayer.load(str(path)), seed=7)
    try:
        for _ in range(steps):
            sim.step()
        return {em.item.path: sim.read_particles(em) for em in sim.emitters}
    finally:
        sim.release()


def same(a: dict, b: dict):
    assert list(a) == list(b)
    for key in a:
        assert len(a[key]) > 0
        for field in ("position", "velocity", "age", "lifetime"):
            assert np.array_equal(a[key][field], b[key][field]), (key, field)


def placeholder(name, template, extra=""):
    return (f'      <ObjectPrefabPlaceholder name="{name}">\n'
            f'        <Property name="Node3DPrefabPlaceholderTemplate">Item("{template}")</Property>\n'
            f'        {extra}\n      </ObjectPrefabPlaceholder>')


def test_an_instance_plays_as_its_template_with_the_placeholders_values(ctx, tmp_path):
    template = f'<ObjectPrefabTemplate name="Spray Template"><ParticleEmitter name="Spray">\n        {SPRAY}\n' \
               '        <Property name="Emission.Rate">20</Property></ParticleEmitter></ObjectPrefabTemplate>'
    made = project(tmp_path, "instance", placeholder("Nozzle", "Prefabs/Spray Template", OVERRIDES), template)
    written = project(tmp_path, "written", f'      <ParticleEmitter name="Nozzle">\n        {SPRAY}\n        {OVERRIDES}\n'
                                           '      </ParticleEmitter>')
    a, b = particles(ctx, made), particles(ctx, written)
    same(a, b)
    assert len(a["Screens/Screen/Scene/System/Nozzle"]) == pytest.approx(90 * 40 / 60, abs=1)   # the instance's rate
    loud = [d for d in validate_paths([str(made)]).diagnostics if d.severity.name in ("ERROR", "WARNING")]
    assert loud == [], [str(d) for d in loud]


@pytest.mark.parametrize("name", ["BoxEmitter", "SphereEmitter", "DiscEmitter", "TorusEmitter", "PointEmitter"])
def test_a_stock_shape_emitter_prefab_plays_as_its_emitter_written_out(ctx, tmp_path, name):
    emission, count = catalog().prefabs[name]
    made = project(tmp_path, "stock", placeholder("Shape", f"ParticlesAssetPackage/Prefabs/{name}", OVERRIDES))
    written = project(tmp_path, "written", f"""      <ParticleEmitter name="Shape">
        <Property name="ParticleEmitter.EmissionMaterial">{emission}</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">{count}</Property>
        {OVERRIDES}
      </ParticleEmitter>""")
    same(particles(ctx, made), particles(ctx, written))


def test_a_stock_prefab_lifts_every_property_of_its_materials_to_its_root():
    from kzplayer.project.prefab_instances import stock_template
    cat = catalog()
    root = stock_template(cat, "TorusEmitter")
    for material in ("Emitter_Torus", "EmissionCount_Schedule"):
        for pname in cat.material(material).properties:
            assert pname in root.properties, pname
    assert stock_template(cat, "NoSuchEmitter") is None


def test_nested_prefabs_play(ctx, tmp_path):
    inner = f'<ObjectPrefabTemplate name="Inner"><ParticleEmitter name="Jet">\n        {SPRAY}\n' \
            '      </ParticleEmitter></ObjectPrefabTemplate>'
    outer = '<ObjectPrefabTemplate name="Outer"><EmptyNode name="Rig">\n' + \
            placeholder("Jet", "Prefabs/Inner", '<Property name="Emission.Rate">40</Property>') + \
            '\n      </EmptyNode></ObjectPrefabTemplate>'
    made = project(tmp_path, "nested", placeholder("Rig", "Prefabs/Outer"), inner + outer)
    written = project(tmp_path, "written", f"""      <EmptyNode name="Rig"><ParticleEmitter name="Jet">
        {SPRAY}
        <Property name="Emission.Rate">40</Property>
      </ParticleEmitter></EmptyNode>""")
    same(particles(ctx, made), particles(ctx, written))


def test_the_templates_bindings_and_the_placeholders_reach_the_instance(ctx, tmp_path):
    """A binding of the template's emitter (Lifetime from its own Rate, 20 -> 2 s) applies to
    the instance; a binding on the placeholder (Rate from a knob, 0.5 x 100) writes the
    instance's Rate, as Kanzi applies a placeholder's values to the instance root."""
    template = f'<ObjectPrefabTemplate name="T"><ParticleEmitter name="Spray">\n        {SPRAY}\n' \
               '        <Property name="Emission.Rate">20</Property>\n' \
               '        <Binding target="Emission.Lifetime">{./Emission.Rate} / 10</Binding>\n' \
               '      </ParticleEmitter></ObjectPrefabTemplate>'
    knob = '      <EmptyNode name="Knob"><Property name="Node.Opacity">0.5</Property></EmptyNode>\n'
    made = project(tmp_path, "bound", knob + placeholder(
        "Nozzle", "Prefabs/T", '<Binding target="Emission.Rate">{../Knob/Node.Opacity} * 100</Binding>'), template)
    written = project(tmp_path, "written", knob + f"""      <ParticleEmitter name="Nozzle">
        {SPRAY}
        <Property name="Emission.Rate">50</Property>
        <Property name="Emission.Lifetime">2</Property>
      </ParticleEmitter>""")
    a, b = particles(ctx, made, steps=60), particles(ctx, written, steps=60)
    same(a, b)
    nozzle = a["Screens/Screen/Scene/System/Nozzle"]
    assert len(nozzle) == 50 and np.allclose(nozzle["lifetime"], 2.0)


def test_a_change_to_the_placeholder_or_the_template_reaches_the_instance(tmp_path):
    """--watch and --set: a value set on the placeholder, or on the template's emitter, is
    a change of the instance's emitter (its records re-read, its path in the Change)."""
    from kzplayer.scene import Scene
    template = f'<ObjectPrefabTemplate name="T"><ParticleEmitter name="Spray">\n        {SPRAY}\n' \
               '      </ParticleEmitter></ObjectPrefabTemplate>'
    path = project(tmp_path, "watched", placeholder("Nozzle", "Prefabs/T"), template)
    p = kzplayer.load(str(path))
    scene = Scene(p)
    [em] = scene.emitters
    holder = next(i for i in p.walk() if i.name == "Nozzle")
    spray = next(i for i in p.walk() if i.name == "Spray")
    change = scene.set_value(holder, "Emission.Rate", 33.0)
    assert change.emitters == [em.path] and scene.values.value(scene.emitters[0].item, "Emission.Rate") == 33.0
    change = scene.set_value(spray, "Emission.Lifetime", 4.0)
    assert change.emitters == [scene.emitters[0].path]
    assert scene.values.value(scene.emitters[0].item, "Emission.Lifetime") == 4.0
