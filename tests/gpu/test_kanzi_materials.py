"""Materials written against Kanzi Particles 3.0's own API compile and run: a custom emission
material in Kanzi's style (`#version 450 core`, `#include "Particles/emitter.glsl"`,
`void EmitParticle(uint index, uint emitIndex)`, a uniform bound by a property of its own name),
and the Kanzi Particles 3.0 names of stock materials."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.values import Srt3D

from .conftest import burst_emitter, custom_material, make_item, make_project

# As "Writing custom compute materials" gives the template, filled in: particles in a row from
# the emitter origin, rising at RiseSpeed.
KANZI_STYLE = """#version 450 core
#include "Particles/emitter.glsl"

// Uniforms declared here appear as bindable properties in Studio after
// pressing "Sync with Uniforms" in the Material Type inspector.
uniform float RiseSpeed = 1.0;
uniform float Spacing = 0.5;

void EmitParticle(uint index, uint emitIndex)
{
    // The slot at `index` is already populated with sensible defaults.
    vec3 origin = getParticlePosition(index);
    setParticlePosition(index, origin + vec3(Spacing * float(emitIndex), 0.0, 0.0));
    setParticleVelocity(index, vec3(0.0, RiseSpeed, 0.0));
    setParticleLifetime(index, 3.0);
}
"""


def rising(tmp_path):
    return custom_material(tmp_path, "Emitter_Rising", "Emission", KANZI_STYLE,
                           {"RiseSpeed": ("float", "1"), "Spacing": ("float", "0.5")})


def test_a_kanzi_style_emission_material_runs(simulate, tmp_path):
    n = 5
    emitter = burst_emitter("Emitter_Rising", n, **{"Node3D.RenderTransformation": Srt3D(translation=(1, 2, 3)),
                                                     "RiseSpeed": 4.0})
    project = make_project(system={"ParticleSystem.Framerate": 10.0}, emitters={"E": emitter},
                           materials=[rising(tmp_path)], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    sim.step()
    parts = sim.read_particles(sim.emitters[0])          # in spawn order
    assert len(parts) == n
    # the wrapper put each particle at the emitter origin; EmitParticle lined them up by emitIndex
    np.testing.assert_allclose(parts["position"][:, 0], 1 + 0.5 * np.arange(n), atol=1e-5)
    np.testing.assert_allclose(parts["position"][:, 2], 3.0, atol=1e-5)
    # RiseSpeed is the uniform of the node's own RiseSpeed property (Kanzi's uniform sync)
    np.testing.assert_allclose(parts["velocity"], np.tile([0, 4.0, 0], (n, 1)), atol=1e-5)
    np.testing.assert_allclose(parts["lifetime"], 3.0)
    # the slot's own defaults survive where EmitParticle does not touch them
    np.testing.assert_allclose(parts["scale"], 1.0)
    np.testing.assert_allclose(parts["mass"], 1.0)
    assert len(set(parts["hash"].tolist())) == n


def test_a_kanzi_style_material_validates(tmp_path):
    from kzplayer.project.writer import write_single
    from kzplayer.validate import validate_paths
    material = rising(tmp_path)
    material.attributes.pop("name")          # the writer gives the name itself
    for p in material.children:
        p.attributes.pop("name")
    project = make_project(emitters={"E": burst_emitter("Emitter_Rising", 3, RiseSpeed=2.0)},
                           materials=[material], path=str(tmp_path / "fx.kzm"))
    write_single(project, str(tmp_path / "fx.kzm"))
    errors = [d for d in validate_paths([str(tmp_path / "fx.kzm")]).diagnostics if d.severity.value == "error"]
    assert errors == []


def test_kanzi_particles_3_names_of_stock_materials_play_as_them(simulate):
    # Affector_Gravity is Kanzi Particles 3.0's name of Gravity; Collider_Cone is new
    def fall(material):
        project = make_project(system={"ParticleSystem.Framerate": 10.0},
                               emitters={"E": burst_emitter("Emitter_Point", 1, **{
                                   "Emission.InitialVelocityStrength": 0.0})},
                               affectors={"G": {"ParticleAffector.AffectorMaterial": material}})
        sim = simulate(project)
        for _ in range(3):
            sim.step()
        return sim.read_particles(sim.emitters[0])["velocity"][0]
    np.testing.assert_allclose(fall("Affector_Gravity"), fall("Gravity"))
    assert fall("Gravity")[1] == pytest.approx(-9.8 * 0.3, rel=1e-5)
