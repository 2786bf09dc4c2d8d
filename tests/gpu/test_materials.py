"""Materials in every simulation slot: custom compute materials from the project's
Materials library (their declared properties as uniforms, bindable), stock materials by
asset path, and the errors and warnings of bad slot values."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.diagnostics import KzError
from kzplayer.resources import shader_dir

from .conftest import burst_emitter, custom_material, make_project

COUNT = """// a fixed number per step, read from a declared int property
uniform int Trickle_PerStep;
uint emissionCount() { return uint(max(Trickle_PerStep, 0)); }
"""

LINE = """// particles on a segment from the origin to Line.End, evenly by spawn index
#include "Particles/emitter_common.glsl"
uniform vec3 Line_End;
void emitParticle(uint index) {
    float t = float(kz_spawnIndex) / max(float(state.count - 1u), 1.0);
    emitFromShape(index, Line_End * t, vec3(0.0));
}
"""


def _project(tmp_path, count="EmissionCount_Schedule", emission="Emitter_Point", **props):
    trickle = custom_material(tmp_path, "Trickle", "EmissionCount", COUNT, {"Trickle.PerStep": ("int", "3")})
    line = custom_material(tmp_path, "Line", "Emission", LINE, {"Line.End": ("vector3", "(2, 0, 0)")})
    emitter = burst_emitter(emission, 50, **{"Emission.InitialVelocityStrength": 0.0, **props})
    emitter["ParticleEmitter.EmissionCountMaterial"] = count
    return make_project(emitters={"E": emitter}, materials=[trickle, line], path=str(tmp_path / "fx.kzm"))


def test_custom_count_material_sets_the_count(simulate, tmp_path):
    sim = simulate(_project(tmp_path, count="Trickle"))
    em = sim.emitters[0]
    sim.step()
    assert sim.stats[em.path].emitted == 3          # the declared default
    sim.set_value(em.item, "Trickle.PerStep", 7)
    sim.step()
    assert sim.stats[em.path].emitted == 7 and sim.stats[em.path].alive == 10


def test_custom_emission_material_places_particles(simulate, tmp_path):
    sim = simulate(_project(tmp_path, emission="Line", **{"Line.End": (0.0, 4.0, 0.0)}))
    sim.step()
    p = sim.read_particles(sim.emitters[0])["position"]
    np.testing.assert_allclose(p[:, 1], np.linspace(0, 4, 50), atol=1e-5)
    assert np.all(p[:, [0, 2]] == 0)


def test_asset_package_path_names_a_stock_material(spawn):
    parts = spawn("ParticlesAssetPackage/Materials/Particles/Emitter_Sphere", 20,
                  **{"Emission.Radius": 3.0, "Emission.InitialVelocityStrength": 0.0})
    assert np.allclose(np.linalg.norm(parts["position"], axis=1), 3.0, atol=1e-5)


def test_material_in_the_wrong_slot_is_an_error(simulate):
    project = make_project(emitters={"E": burst_emitter("Gravity", 5)})
    with pytest.raises(KzError) as err:
        simulate(project)
    d = err.value.diagnostics[0]
    assert d.rule == "material.slot" and "Gravity" in d.message and "Affector" in d.message


def test_unknown_material_is_an_error(simulate):
    with pytest.raises(KzError) as err:
        simulate(make_project(emitters={"E": burst_emitter("Emitter_Pyramid", 5)}))
    assert err.value.diagnostics[0].rule == "material.unknown"


def test_stock_material_not_built_yet_is_skipped_with_a_warning(simulate):
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 5)},
                           affectors={"W": {"ParticleAffector.AffectorMaterial": "Wind"}})
    sim = simulate(project)
    sim.step()
    assert len(sim.read_particles(sim.emitters[0])) == 5
    if (shader_dir() / "Wind.glsl").is_file():       # Wind has landed: it runs, no warning
        assert sim.diagnostics == []
    else:
        [d] = sim.diagnostics
        assert d.rule == "material.unsupported" and d.severity.value == "warning" and "Wind" in d.message


MOVE = """// moves particles by a declared srt3d property: its matrix reaches the shader as a mat4
uniform mat4 Move_By;
void affectParticle(uint index) {
    setParticleCustom(index, Move_By * vec4(1.0, 0.0, 0.0, 1.0));
}
"""


def test_srt3d_property_reaches_a_custom_material_as_a_matrix(simulate, tmp_path):
    move = custom_material(tmp_path, "Move", "Affector", MOVE, {"Move.By": ("srt3d", "Srt3D(2,2,2, 0,0,90, 1,2,3)")})
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 3)},
                           affectors={"M": {"ParticleAffector.AffectorMaterial": "Move"}},
                           materials=[move], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    sim.step()
    custom = sim.read_particles(sim.emitters[0])["custom"]
    # (1,0,0) scaled by 2, turned 90 degrees about Z -> (0,2,0), moved by (1,2,3)
    np.testing.assert_allclose(custom, np.tile((1.0, 4.0, 3.0, 1.0), (3, 1)), atol=1e-5)


def test_subemitters_step_after_their_source(simulate):
    from kzplayer.values import BufferHandle
    project = make_project(emitters={"Child": burst_emitter("Emitter_Point", 2),
                                     "Parent": burst_emitter("Emitter_Point", 2)})
    system = project.root.children[0].children[0].children[0].children[0]
    child = system.children[0]
    from kzplayer.project.model import Property
    child.properties["Emission.SourceEventBuffer"] = Property(
        "Emission.SourceEventBuffer", BufferHandle("EventBuffer", system.children[1].path))
    sim = simulate(project)
    assert [em.item.name for em in sim.emitters] == ["Parent", "Child"]
    assert [em.index for em in sim.emitters] == [1, 0]        # numbers stay in tree order


UNKNOWN_MATERIAL = """<?xml version="1.0" encoding="utf-8"?>
<Project name="P" format="1">
  <Screens>
    <Screen name="Screen">
      <Scene name="Scene">
        <ParticleSystem name="S">
          <ParticleEmitter name="Written">
            <Property name="ParticleEmitter.EmissionMaterial">Emitter_Pyramid</Property>
          </ParticleEmitter>
        </ParticleSystem>
      </Scene>
    </Screen>
  </Screens>
</Project>
"""


@pytest.mark.parametrize("how", ["property", "binding"])
def test_unknown_material_error_points_at_the_value_in_the_file(simulate, tmp_path, how):
    import kzplayer
    text = UNKNOWN_MATERIAL
    if how == "binding":      # the name comes from a binding: the error points at the binding
        text = text.replace('<Property name="ParticleEmitter.EmissionMaterial">Emitter_Pyramid</Property>',
                            '<Binding target="ParticleEmitter.EmissionMaterial">"Emitter_Pyramid"</Binding>')
    kzm = tmp_path / "p.kzm"
    kzm.write_text(text)
    with pytest.raises(KzError) as err:
        simulate(kzplayer.load(str(kzm)))
    [d] = err.value.diagnostics
    assert d.rule == "material.unknown" and d.span is not None and d.span.line == 8
    if how == "property":     # under the material's name: after `...EmissionMaterial">`
        assert d.span.column == text.splitlines()[7].index("Emitter_Pyramid") + 1
        assert d.span.end_column - d.span.column == len("Emitter_Pyramid")
