"""material.kzplayer-only: what Kanzi Particles does not ship is noted once per use, with the
Kanzi material that comes nearest (docs/catalog.md, "Where the stock entries come from")."""
from __future__ import annotations

import re

from kzplayer.project.catalog import catalog
from kzplayer.resources import samples_dir
from kzplayer.validate import validate_paths
from tests.validate.test_messages import diagnostics

RULE = "material.kzplayer-only"


def notes(found):
    return [d for d in found if d.rule == RULE]


def test_a_stock_variant_of_a_kanzi_material_ports_to_it_with_the_preset_left_unset(tmp_path):
    found = notes(diagnostics(tmp_path, """<ParticleAffector name="Gusts">
      <Property name="ParticleAffector.AffectorMaterial">TurbulentWind</Property>
      <Property name="Wind.GustAmplitude">0.8</Property>
    </ParticleAffector>"""))
    assert len(found) == 1 and found[0].severity.value == "note"
    assert found[0].message == ("TurbulentWind comes from the NeL particle system design: it plays in "
                                "kzplayer; Kanzi Particles has no such material")
    # the node's own GustAmplitude stays; the other preset values are what Wind needs in Kanzi
    assert found[0].hint == ("to port the project to Kanzi, replace it with Wind (the same shader) with "
                             "Wind.TurbulenceStrength = 1.5, Wind.TurbulenceFrequency = 0.5, "
                             "Wind.GustFrequency = 0.3, or with a custom material")


def test_a_force_with_nothing_near_in_kanzi_asks_for_a_custom_material(tmp_path):
    (d,) = notes(diagnostics(tmp_path, """<ParticleAffector name="Field">
      <Property name="ParticleAffector.AffectorMaterial">MagneticField</Property>
      <Property name="MagneticField.FieldStrength">2</Property>
      <Property name="MagneticField.Charge">1</Property>
    </ParticleAffector>"""))            # one note for the material, none for what it reads
    assert d.hint == "to port the project to Kanzi, replace it with a custom material (a MaterialType with its shader)"


def test_properties_are_one_note_per_item_set_or_bound(tmp_path):
    found = notes(diagnostics(tmp_path, """<ParticleEmitter name="Rain">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
      <Property name="Emission.LodNear">20</Property>
      <Property name="Emission.LodMinimumRate">0.3</Property>
      <Property name="Emission.EmissionBasis">World</Property>
      <BindingItem name="Far">
        <Property name="BindingItem.Target">Emission.LodFar</Property>
        <Property name="BindingItem.SourceExpression">{./Emission.LodNear} * 3</Property>
      </BindingItem>
    </ParticleEmitter>
    <ParticleEmitter name="Snow">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
      <Property name="Emission.LodFar">40</Property>
    </ParticleEmitter>"""))
    assert len(found) == 2, [str(d) for d in found]
    rain, snow = found
    assert rain.message == ("Emission.LodNear, Emission.LodMinimumRate, Emission.EmissionBasis and "
                            "Emission.LodFar come from the NeL particle system design (on Rain): they play "
                            "in kzplayer; Kanzi Particles has no such properties")
    assert (rain.span.line, rain.span.column) == (6, 23)        # under the first name
    assert [s.line for s in rain.related] == [7, 8, 10]         # the others, the binding's target too
    assert rain.hint.startswith("to port the project to Kanzi, remove the emission LOD") and "; remove it: " in rain.hint
    assert snow.message.startswith("Emission.LodFar comes from") and "it plays" in snow.message


def test_kanzis_own_materials_and_properties_get_no_note(tmp_path):
    kanzi = [m for m in catalog().materials if not m.origin and m.slot == "Affector"]
    body = "\n".join(f"""<ParticleAffector name="A{i}">
      <Property name="ParticleAffector.AffectorMaterial">{m.name}</Property></ParticleAffector>"""
                     for i, m in enumerate(kanzi))
    assert len(kanzi) >= 11 and notes(diagnostics(tmp_path, body)) == []


def test_the_magic_vortex_sample_is_noted_for_each_nel_material_it_uses():
    sample = samples_dir() / "13_magic_vortex.kzm"
    text = sample.read_text(encoding="utf-8")
    marked = {m.name for m in catalog().materials if m.origin}
    uses = [(n + 1, name) for n, line in enumerate(text.splitlines())
            for name in re.findall(r'Material">(\w+)</Property>', line) if name in marked]
    found = notes(validate_paths([str(sample)]).diagnostics)
    assert uses and [(d.span.line, d.message.split()[0]) for d in found] == uses
    assert all(d.severity.value == "note" for d in found)
