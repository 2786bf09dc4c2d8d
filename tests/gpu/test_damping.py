"""Linear damping resolved exactly by the integrator (Particles/damping.glsl): Drag and
Wind reach their terminal velocity v_t = medium + (m / k) a_other exactly, at any step and
whatever the tree order of the other forces, and follow the closed form on the way there
(Euler: the velocity at every step; Verlet: the position and velocity at every step). The
configurations include step sizes, masses and coefficients that nobody tuned for."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kzplayer.values import Srt3D

from .conftest import burst_emitter, custom_material, make_project

G = 9.8


def factors_reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """phi, r = psi / phi and kappa in float64 (expm1 keeps the small-x cancellation out;
    series below 1e-3)."""
    x = np.asarray(x, dtype=np.float64)
    q = -np.expm1(-x)
    e = np.exp(-x)
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = q / x
        psi = (x - q) / (x * x)
        kappa = e * (q - x * e) / (q * q)
    small = x < 1e-3
    xs = x[small]
    phi[small] = 1 - xs / 2 + xs ** 2 / 6
    psi[small] = 0.5 - xs / 6 + xs ** 2 / 24
    kappa[small] = 0.5 - xs / 3 + xs ** 2 / 12
    return phi, psi / phi, kappa


FACTORS = """
#include "Particles/damping.glsl"
void emitParticle(uint index) {
    // x from 1e-6 to 1e3, log-spaced over the spawn index
    float x = pow(10.0, -6.0 + 9.0 * float(kz_spawnIndex) / float(state.count - 1u));
    float phi, r, kappa;
    dampingFactors(x, phi, r, kappa);
    setParticleCustom(index, vec4(x, phi, r, kappa));
    setParticleLifetime(index, 10.0);
}
"""


def test_damping_factors_match_their_closed_forms(simulate, tmp_path):
    material = custom_material(tmp_path, "Factors", "Emission", FACTORS)
    project = make_project(emitters={"E": burst_emitter("Factors", 2000)}, materials=[material],
                           path=str(tmp_path / "p.kzm"))
    sim = simulate(project)
    sim.step()
    custom = sim.read_particles(sim.emitters[0])["custom"].astype(np.float64)
    x = custom[:, 0]
    for got, want in zip(custom[:, 1:].T, factors_reference(x)):
        # within 2e-6 (GLSL's exp is good to a few ulp), relative, and 2e-9 where kappa tends to 0
        np.testing.assert_array_less(np.abs(got - want), 2e-6 * np.maximum(np.abs(want), 1e-3))
    # undamped limits are exact: the plain schemes bit for bit
    assert custom[0, 1] == pytest.approx(1.0, abs=1e-6) and custom[0, 2] == pytest.approx(0.5, abs=1e-6)


# -- terminal velocity ----------------------------------------------------------------------

def _system(framerate, method):
    return {"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method}


def _falling(density, speed=0.0, direction=(0.0, 1.0, 0.0), x=0.0):
    return burst_emitter("Emitter_Point", 1, **{
        "Emission.InitialVelocityDirection": direction, "Emission.InitialVelocityOuterAngle": 0.0,
        "Emission.InitialVelocityStrength": speed, "Emission.Density": density,
        "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (x, 0, 0))})


def _stack(drag: dict, order: str) -> dict:
    gravity = {"ParticleAffector.AffectorMaterial": "Gravity"}
    return {"G": gravity, "D": drag} if order == "GD" else {"D": drag, "G": gravity}


def verlet_round_off(position, rate, h, speed) -> float:
    """The relative precision of a settled Verlet velocity in float32. Verlet carries the
    velocity as the chord (x - x_prev) / h, off by up to ulp(x) / h from the rounding of the
    two positions; and the integrator's correction of a chord off by du moves x by rate du h^2,
    rounded away below half an ulp of x, so the chord can also stay off by ulp(x) / (2 rate
    h^2). That is the scheme's position round-off (Euler carries v itself: 1e-7)."""
    ulp = float(np.spacing(np.float32(np.abs(position).max())))
    return 1e-6 + ulp / (h * speed) * (1 + 1 / (2 * rate * h))


# k = 30: the two cases (m = 1: settled 27 % fast at 60 Hz; m = 0.03 has the smoke
# particle's k h / m = 17, m 0.001 with k = 1) and two masses nobody tuned for
K = 30.0
DENSITIES = (1.0, 0.03, 0.37, 0.9)


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
@pytest.mark.parametrize("order", ["GD", "DG"])
@pytest.mark.parametrize("framerate", [30.0, 60.0, 97.0, 240.0])
def test_drag_under_gravity_settles_at_the_exact_terminal_speed(simulate, framerate, order, method):
    drag = {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": K}
    emitters = {f"M{n}": _falling(m, x=n) for n, m in enumerate(DENSITIES)}
    sim = simulate(make_project(system=_system(framerate, method), emitters=emitters, affectors=_stack(drag, order)))
    steps = math.ceil(20 * max(DENSITIES) / K * framerate) + 2       # 20 time constants: e^-20 < 3e-9
    for _ in range(steps):
        sim.step()
    for em, m in zip(sim.emitters, DENSITIES):
        [p] = sim.read_particles(em)
        terminal = G * m / K
        tol = 1e-6 if method == "Euler" else verlet_round_off(p["position"], K / m, 1 / framerate, terminal)
        assert -p["velocity"][1] == pytest.approx(terminal, rel=tol)
        assert abs(p["velocity"][0]) < 1e-9 and abs(p["velocity"][2]) < 1e-9


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
@pytest.mark.parametrize("framerate", [30.0, 144.0])
def test_wind_under_gravity_settles_at_the_wind_plus_the_terminal_fall(simulate, framerate, method):
    # 25.2 km/h = 7 m/s along +X (local +Z yawed 90 degrees), DragFactor 4.4 on masses 0.3 and 0.02
    wind = {"ParticleAffector.AffectorMaterial": "Wind", "Wind.WindSpeed": 25.2, "Wind.DragFactor": 4.4,
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 90, 0), (0, 0, 0))}
    masses = (0.3, 0.02)
    emitters = {f"M{n}": _falling(m, x=n) for n, m in enumerate(masses)}
    sim = simulate(make_project(system=_system(framerate, method), emitters=emitters, affectors=_stack(wind, "DG")))
    for _ in range(math.ceil(20 * 0.3 / 4.4 * framerate) + 2):
        sim.step()
    for em, m in zip(sim.emitters, masses):
        [p] = sim.read_particles(em)
        expected = (7.0, -G * m / 4.4, 0.0)
        speed = np.linalg.norm(expected)
        tol = 2e-6 if method == "Euler" else verlet_round_off(p["position"], 4.4 / m, 1 / framerate, speed)
        np.testing.assert_allclose(p["velocity"], expected, rtol=0, atol=tol * np.linalg.norm(expected))


# -- the way there ------------------------------------------------------------------------

def _relaxing_run(simulate, framerate, method, density, k, v0, steps):
    """Thrown up at v0 under Gravity then Drag; the velocity and position after each step."""
    drag = {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": k}
    sim = simulate(make_project(system=_system(framerate, method), emitters={"E": _falling(density, v0)},
                                affectors=_stack(drag, "GD")))
    track = []
    for _ in range(steps):
        sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        track.append((p["velocity"][1], p["position"][1]))
    return np.array(track, dtype=np.float64)


def closed_form(t, v0, k, m):
    """Thrown up at v0 with linear drag k and gravity: v = v_t + (v0 - v_t) e^(-t/tau)."""
    tau = m / k
    vt = -G * tau
    v = vt + (v0 - vt) * np.exp(-t / tau)
    y = vt * t + (v0 - vt) * tau * (1 - np.exp(-t / tau))
    return v, y


@pytest.mark.parametrize("density, k, framerate", [(1.0, 30.0, 60.0), (0.001, 1.0, 60.0), (0.8, 2.5, 37.0)])
def test_the_transient_follows_the_closed_form(simulate, density, k, framerate):
    steps = 40
    t = np.arange(1, steps + 1) / framerate
    v, y = closed_form(t, 6.0, k, density)
    euler = _relaxing_run(simulate, framerate, "Euler", density, k, 6.0, steps)
    # Euler: the velocity is the exact solution at every step (its position is first order)
    np.testing.assert_allclose(euler[:, 0], v, rtol=0, atol=2e-6 * 6.0)
    verlet = _relaxing_run(simulate, framerate, "Verlet", density, k, 6.0, steps)
    # Verlet: position and velocity both exact at every step (to round-off of the positions)
    np.testing.assert_allclose(verlet[:, 1], y, rtol=0, atol=1e-6)
    scale = 1.2e-7 * (np.abs(y).max() + 1e-3) * framerate
    np.testing.assert_allclose(verlet[:, 0], v, rtol=0, atol=2e-6 * 6.0 + 4 * scale)


def test_a_stiff_drag_never_reverses_the_velocity(simulate):
    # k h / m = 17: the light particle stops within its first step and then sinks at v_t,
    # never overshooting below it (the old force average reported v = -g h, 17 v_t)
    for method in ("Euler", "Verlet"):
        track = _relaxing_run(simulate, 60.0, method, 0.001, 1.0, 5.0, 6)
        vt = -G * 0.001
        assert np.all(track[1:, 0] <= 1e-7) and np.all(track[1:, 0] >= vt * (1 + 1e-5))


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_velocity_clamp_below_drag_and_gravity_still_caps_exactly(simulate, method):
    # a heavy particle whose terminal speed (9.8 m/s) is above the cap
    drag = {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": 1.0}
    clamp = {"ParticleAffector.AffectorMaterial": "VelocityClamp", "VelocityClamp.MaxSpeed": 3.0}
    sim = simulate(make_project(system=_system(60.0, method), emitters={"E": _falling(1.0)},
                                affectors={"G": {"ParticleAffector.AffectorMaterial": "Gravity"}, "D": drag,
                                           "C": clamp}))
    for _ in range(90):
        sim.step()
        [p] = sim.read_particles(sim.emitters[0])
        assert np.linalg.norm(p["velocity"]) <= 3.0 * (1 + 3e-5)
    assert np.linalg.norm(p["velocity"]) == pytest.approx(3.0, rel=3e-5)


def test_the_accumulator_holds_the_steps_mean_acceleration(simulate):
    # Event_AccelerationRange reads it: with drag it is (v' - v) / h, what the particle did
    drag = {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": 30.0}
    sim = simulate(make_project(system=_system(60.0, "Euler"), emitters={"E": _falling(1.0, 4.0)},
                                affectors=_stack(drag, "DG")))
    sim.step()
    [p] = sim.read_particles(sim.emitters[0])
    sim.step()
    [q] = sim.read_particles(sim.emitters[0])
    np.testing.assert_allclose(q["acceleration"], (q["velocity"] - p["velocity"]) * 60.0, rtol=1e-5, atol=1e-4)
