"""Custom compute materials written against Kanzi Particles 3.0's protocols run unchanged in
every simulation slot ("Writing custom compute materials", docs/player.md "Kanzi's
protocols"): an affector (`#include "Particles/affector.glsl"`, `vec3 Affector(...)`)
against the closed form of constant acceleration, a collider (`Collide`) against a bounce on
a plane, an emission count (`EmissionCount()`) against an exact particle count, an events
material (`GenerateEvents`) against the age at which it fires, and Kanzi's hash and
finalised-field names against kzplayer's own."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.gpu import random as R
from kzplayer.gpu.events import read_events

from .conftest import burst_emitter, custom_material, make_project
from .test_colliders import at, shot, with_colliders

ACCELERATE = """#version 450 core
#include "Particles/affector.glsl"

uniform vec3 Push = vec3(0.0);

// A constant acceleration, written as the force it takes (Affector returns a force)
vec3 Affector(uint index, inout Particle particle)
{
    return Push * particle.mass;
}
"""


def _push(tmp_path):
    return custom_material(tmp_path, "Push", "Affector", ACCELERATE, {"Push": ("vector3", "(0, 0, 0)")})


@pytest.mark.parametrize("method", ["Verlet", "Euler"])
def test_a_kanzi_affector_gives_constant_acceleration(simulate, tmp_path, method):
    a, v0, x0, rate = np.array([1.0, -3.0, 0.5]), np.array([0.0, 4.0, 0.0]), np.array([1.0, 2.0, -1.0]), 20.0
    project = make_project(system={"ParticleSystem.Framerate": rate, "ParticleSystem.IntegrationMethod": method},
                           emitters={"E": shot(tuple(x0), (0, 1, 0), 4.0)},
                           affectors={"A": {"ParticleAffector.AffectorMaterial": "Push", "Push": tuple(a)}},
                           materials=[_push(tmp_path)], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    for _ in range(20):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    t = float(p["age"])
    assert t == pytest.approx(1.0, abs=1e-4)
    expected = x0 + v0 * t + a * t * t / 2
    # Verlet is exact for a constant acceleration; Euler (semi-implicit) is off by a h t / 2.
    tolerance = 1e-4 if method == "Verlet" else float(np.linalg.norm(a)) * t / rate / 2 + 1e-4
    np.testing.assert_allclose(p["position"], expected, atol=tolerance)
    if method == "Euler":
        assert not np.allclose(p["position"], expected, atol=1e-4)      # the test can tell them apart
    np.testing.assert_allclose(p["velocity"], v0 + a * t, atol=1e-4)


def test_a_kanzi_affector_returns_a_force(simulate, tmp_path):
    # The same return value moves a particle of mass 4 a quarter as fast.
    force = custom_material(tmp_path, "Shove", "Affector", """#version 450 core
#include "Particles/affector.glsl"
vec3 Affector(uint index, inout Particle particle)
{
    return vec3(2.0, 0.0, 0.0);
}
""")

    def speed(density):
        project = make_project(system={"ParticleSystem.Framerate": 10.0},
                               emitters={"E": shot((0, 0, 0), (0, 1, 0), 0.0, **{"Emission.Density": density})},
                               affectors={"S": {"ParticleAffector.AffectorMaterial": "Shove"}},
                               materials=[force], path=str(tmp_path / "fx.kzm"))
        sim = simulate(project)
        for _ in range(5):
            sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        return float(p["velocity"][0]), float(p["mass"])
    (v1, m1), (v4, m4) = speed(1.0), speed(4.0)
    assert m4 == pytest.approx(4 * m1) and m1 > 0
    assert v1 == pytest.approx(2.0 / m1 * 0.5, rel=1e-5)
    assert v4 == pytest.approx(v1 / 4, rel=1e-5)


def test_what_a_kanzi_affector_writes_into_its_particle_is_kept(simulate, tmp_path):
    # A stop plane: every particle above y = 1 is held there with its velocity zeroed, through
    # the inout particle; a force added by an accessor inside the function is not undone.
    hold = custom_material(tmp_path, "Hold", "Affector", """#version 450 core
#include "Particles/affector.glsl"
vec3 Affector(uint index, inout Particle particle)
{
    addParticleForce(index, vec3(2.0, 0.0, 0.0) * particle.mass);
    if (particle.position.y > 1.0) {
        particle.position.y = 1.0;
        particle.velocity = vec3(0.0);
    }
    return vec3(0.0);
}
""")
    project = make_project(system={"ParticleSystem.Framerate": 10.0, "ParticleSystem.IntegrationMethod": "Euler"},
                           emitters={"E": shot((0, 0, 0), (0, 1, 0), 5.0)},
                           affectors={"H": {"ParticleAffector.AffectorMaterial": "Hold"}},
                           materials=[hold], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    for _ in range(5):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    # 0.5 m per step up: at 1.5 after step 3, so step 4 holds it at y = 1 with its velocity
    # zeroed; steps 4 and 5 then add the accessor's 2 m/s^2 for 0.1 s each (not undone by
    # the write-back of the particle): 0.4 m/s along x, none along y.
    assert p["position"][1] == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_allclose(p["velocity"], [0.4, 0.0, 0.0], atol=1e-5)


def test_kanzi_hash_and_finalised_fields_are_kzplayers(simulate, tmp_path):
    # An affector that writes Kanzi's names into the particle's custom vector.
    probe = custom_material(tmp_path, "Probe", "Affector", """#version 450 core
#include "Particles/affector.glsl"
vec3 Affector(uint index, inout Particle particle)
{
    setParticleCustom(index, vec4(getParticleCurrentLifetime(index), getParticleDeltaTime(index),
                                  getParticlePrevDeltaTime(index), hashFloat(getParticleHash(index))));
    setParticleColor(index, vec4(getParticlePrevPosition(index), float(hash(getParticleHash(index), 7u) & 0xFFFFu)));
    return vec3(0.0);
}
""")
    project = make_project(system={"ParticleSystem.Framerate": 10.0},
                           emitters={"E": burst_emitter("Emitter_Sphere", 8)},
                           affectors={"P": {"ParticleAffector.AffectorMaterial": "Probe"}},
                           materials=[probe], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    for _ in range(3):
        sim.step()
    before = sim.read_particles(sim.emitters[0])
    sim.step()
    parts = sim.read_particles(sim.emitters[0])
    hashes = parts["hash"].astype(np.uint32)
    custom, color = parts["custom"], parts["color"]
    np.testing.assert_allclose(custom[:, 0], parts["age"] - 0.1, atol=1e-5)     # before this step's ageing
    np.testing.assert_allclose(custom[:, 1:3], 0.1, atol=1e-7)
    np.testing.assert_allclose(custom[:, 3], R.unit_float(R.pcg_hash(hashes)), atol=1e-7)
    # prevPosition is kzplayer's previousPosition as the affector sees it: what it was at the
    # end of the last step (and not this step's start, which it differs from)
    np.testing.assert_allclose(color[:, :3], before["previous_position"], atol=1e-6)
    assert not np.allclose(before["previous_position"], before["position"], atol=1e-3)
    np.testing.assert_array_equal(color[:, 3], (R.hash2(hashes, np.uint32(7)) & 0xFFFF).astype(np.float32))


COLLIDE = """#version 450 core
#include "Particles/collider.glsl"

uniform float FloorHeight = 0.0;

bool Collide(vec3 prevPosition, vec3 position, out vec3 hitPosition, out vec3 hitNormal)
{
    if (prevPosition.y < FloorHeight || position.y >= FloorHeight) {
        return false;
    }
    float t = (prevPosition.y - FloorHeight) / (prevPosition.y - position.y);
    hitPosition = mix(prevPosition, position, t);
    hitNormal = vec3(0.0, 1.0, 0.0);
    return true;
}
"""


def test_a_kanzi_collider_bounces_off_a_plane(simulate, tmp_path):
    floor = custom_material(tmp_path, "Floor", "Collider", COLLIDE, {"FloorHeight": ("float", "0")})
    project = make_project(system={"ParticleSystem.Framerate": 10.0},
                           emitters={"E": shot((0, 2.0, 0), (0, -1, 0), 15.0)}, materials=[floor],
                           path=str(tmp_path / "fx.kzm"))
    with_colliders(project, {"C": {"ParticleCollider.ColliderMaterial": "Floor", "Collider.Bounce": 0.5,
                                   "Collider.Friction": 0.0, "FloorHeight": 1.0}})
    sim = simulate(project)
    sim.step()          # 2 -> 0.5 crosses y = 1 after 2/3 of the step, then back up at half speed
    [p] = sim.read_particles(sim.emitters[0])
    assert p["velocity"][1] == pytest.approx(7.5, rel=1e-5)
    assert p["position"][1] == pytest.approx(1.0 + 7.5 * (1 / 3) * 0.1, abs=1e-3)
    assert sim.stats[sim.emitters[0].path].hits == 1


def test_a_kanzi_emission_count_gives_an_exact_count(simulate, tmp_path):
    count = custom_material(tmp_path, "Three", "EmissionCount", """#version 450 core
#include "Particles/emission_count.glsl"
uniform int PerFrame = 3;
uint EmissionCount()
{
    return uint(max(PerFrame, 0));
}
""", {"PerFrame": ("int", "3")})
    emitter = burst_emitter("Emitter_Point", 100, PerFrame=4)
    emitter["ParticleEmitter.EmissionCountMaterial"] = "Three"
    sim = simulate(make_project(emitters={"E": emitter}, materials=[count], path=str(tmp_path / "fx.kzm")))
    em = sim.emitters[0]
    for n in range(1, 8):
        sim.step()
        assert sim.stats[em.path].alive == 4 * n
    sim.set_value(em.item, "PerFrame", 0)
    sim.step()
    assert sim.stats[em.path].alive == 28


def test_a_kanzi_events_material_fires_at_a_known_age(simulate, tmp_path):
    events = custom_material(tmp_path, "AtAge", "GenerateEvents", """#version 450 core
#include "Particles/events.glsl"
uniform float FireAge = 0.5;
void GenerateEvents(uint index)
{
    float age = getParticleCurrentLifetime(index);
    if (age >= FireAge && age - getParticleDeltaTime(index) < FireAge) {
        writeParticleEvent(EVENT_AGE, index);
    }
}
""", {"FireAge": ("float", "0.5")})
    emitter = burst_emitter("Emitter_Point", 5, FireAge=0.25,
                            **{"ParticleEmitter.GenerateEventsMaterial": "AtAge"})
    sim = simulate(make_project(system={"ParticleSystem.Framerate": 10.0}, emitters={"E": emitter},
                                materials=[events], path=str(tmp_path / "fx.kzm")))
    fired = []
    for step in range(1, 8):
        sim.step()
        _, records = read_events(sim.emitters[0])
        fired.append(len(records))
        if len(records):
            assert np.all(records["kind"] == 5)
            np.testing.assert_allclose(records["age"], 0.3, atol=1e-5)     # the first step past 0.25
    assert fired == [0, 0, 5, 0, 0, 0, 0]


# A Kanzi-style shader that kzplayer cannot run: each is named at its line by validate's
# compile check and by play (the Simulation), alike.
WRONG = {
    # the affector protocol in a collider slot: at the include
    "slot": ("Collider", ACCELERATE, 2, ACCELERATE.splitlines()[1].index('"') + 1, "Collider slot"),
    # the include without its function: at the include
    "missing": ("Affector", ACCELERATE.replace("vec3 Affector(", "vec3 Affect("), 2,
                ACCELERATE.splitlines()[1].index('"') + 1, "does not define `vec3 Affector("),
    # the function with other parameters: at the definition
    "signature": ("Affector", ACCELERATE.replace("uint index, inout", "inout"),
                  next(n for n, t in enumerate(ACCELERATE.splitlines(), 1) if t.startswith("vec3 Affector(")), 6,
                  "is not Kanzi's Affector"),
}


def _wrong_project(tmp_path, slot, body):
    material = custom_material(tmp_path, "Wrong", slot, body)
    project = make_project(emitters={"E": burst_emitter("Emitter_Point", 1)}, materials=[material],
                           affectors={"A": {"ParticleAffector.AffectorMaterial": "Wrong"}} if slot == "Affector" else None,
                           path=str(tmp_path / "fx.kzm"))
    if slot == "Collider":
        with_colliders(project, {"C": {"ParticleCollider.ColliderMaterial": "Wrong"}})
    return project


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_kanzi_shader_kzplayer_cannot_run_is_named_at_its_line(ctx, simulate, tmp_path, case):
    from pathlib import Path

    from kzplayer.diagnostics import KzError
    from kzplayer.gpu import check_material_shaders
    slot, body, line, column, words = WRONG[case]
    project = _wrong_project(tmp_path, slot, body)
    [checked] = check_material_shaders(project, ctx)
    assert (checked.rule, checked.severity.value) == ("shader.compile", "error")
    assert Path(checked.span.file) == (tmp_path / "shaders" / "Wrong.glsl").resolve()
    assert (checked.span.line, checked.span.column) == (line, column)
    assert words in checked.message and checked.hint
    try:
        sim = simulate(project)
    except KzError as exc:
        played = exc.diagnostics
    else:
        played = [d for d in sim.diagnostics if d.rule == "shader.compile"]
    assert [(d.rule, d.span.line, d.span.column, d.message) for d in played] == \
        [(checked.rule, line, column, checked.message)]


def test_the_kanzi_shaders_of_these_tests_pass_the_protocol_check():
    from kzplayer.gpu.protocols import check_protocol
    for name, (slot, body) in {"a": ("affector", ACCELERATE), "c": ("collider", COLLIDE)}.items():
        assert check_protocol(body, slot, name, name) == []
    # a comment that mentions an include is not an include
    assert check_protocol('// #include "Particles/affector.glsl"\n', "collider", "f", "m") == []


def test_the_protocol_function_may_live_in_a_helper_beside_the_material(simulate, tmp_path):
    material = custom_material(tmp_path, "Split", "Affector",
                               '#version 450 core\n#include "Particles/affector.glsl"\n#include "split_body.glsl"\n')
    (tmp_path / "shaders" / "split_body.glsl").write_text(
        "vec3 Affector(uint index, inout Particle particle)\n{\n    return vec3(0.0, 2.0, 0.0) * particle.mass;\n}\n")
    project = make_project(system={"ParticleSystem.Framerate": 10.0},
                           emitters={"E": shot((0, 0, 0), (0, 1, 0), 0.0)},
                           affectors={"S": {"ParticleAffector.AffectorMaterial": "Split"}},
                           materials=[material], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    for _ in range(5):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    assert p["velocity"][1] == pytest.approx(1.0, rel=1e-5)


def test_a_kanzi_affector_runs_as_a_self_affect_material(simulate, tmp_path):
    emitter = shot((0, 0, 0), (0, 1, 0), 0.0, **{"ParticleEmitter.SelfAffectMaterial": "Push",
                                                 "Push": (0.0, 0.0, 3.0)})
    project = make_project(system={"ParticleSystem.Framerate": 10.0}, emitters={"E": emitter},
                           materials=[_push(tmp_path)], path=str(tmp_path / "fx.kzm"))
    sim = simulate(project)
    for _ in range(4):
        sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    np.testing.assert_allclose(p["velocity"], [0.0, 0.0, 3.0 * 0.4], atol=1e-5)
