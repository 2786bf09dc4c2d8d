"""NeL's forces (CentralGravity, PointSpring, MagneticField, Electrostatic, Vortex,
FluidFriction, TurbulentWind, Convection, BrownianMotion) against closed forms and
statistics: each field against its formula, an orbit's energy kept to the integrator's
order, a spring's period, the cyclotron circle and period, Coulomb's 1/r^2, the vortex's
orbit, exact terminal speeds, the convection profile and its oscillation, and Brownian
diffusion (variance linear in t with the coefficient D, independent, repeatable)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from .conftest import burst_emitter, make_project
from .test_affectors import affector, at, cloud, falloff, moving, run
from .test_damping import verlet_round_off

G = 9.8


def _track(sim, steps, every=1):
    """The single particle's record after each of `steps` steps (every `every`)."""
    out = []
    for n in range(1, steps + 1):
        sim.step()
        if n % every == 0:
            [p] = sim.read_particles(sim.emitters[0])
            out.append(p)
    return np.array(out)


def _simulate_one(simulate, emitter, affectors, method="Euler", framerate=60.0):
    system = {"ParticleSystem.Framerate": framerate, "ParticleSystem.IntegrationMethod": method}
    return simulate(make_project(system=system, emitters={"E": emitter}, affectors=affectors))


# -- CentralGravity ---------------------------------------------------------------------------

@pytest.mark.parametrize("radius", [0.0, 3.0])
def test_central_gravity_is_a_softened_inverse_square_pull(simulate, radius):
    centre = np.array([0.5, -0.3, 0.2])
    pull = affector("CentralGravity", **{"CentralGravity.Strength": 2.5, "CentralGravity.Softening": 0.3,
                                         "Affector.Radius": radius}, **at(*centre))
    # mass-independent: a density of 3 changes nothing
    _, parts = run(simulate, cloud(**{"Emission.Density": 3.0}), {"G": pull})
    toward = centre - parts["previous_position"]
    r = np.linalg.norm(toward, axis=1)
    s = 1.0 if radius == 0 else falloff(r, radius, 0.0)[:, None]
    expected = 2.5 * s * toward / ((r * r + 0.09) ** 1.5)[:, None]
    np.testing.assert_allclose(parts["acceleration"], expected, rtol=1e-4, atol=1e-5)


def _orbit_energy_error(simulate, method, framerate, seconds=6.0):
    """Worst relative energy error, in the first and the last third, of an eccentric orbit."""
    mu, eps, r0 = 8.0, 0.05, 2.0
    speed = 0.7 * math.sqrt(mu * r0 ** 2 / (r0 ** 2 + eps ** 2) ** 1.5)   # 70 % of circular: r 0.65..2
    pull = affector("CentralGravity", **{"CentralGravity.Strength": mu, "CentralGravity.Softening": eps})
    sim = _simulate_one(simulate, moving(direction=(0.0, 0.0, 1.0), speed=speed, **at(r0, 0, 0)), {"G": pull},
                        method, framerate)
    track = _track(sim, round(seconds * framerate))
    x = track["position"].astype(np.float64)
    v = track["velocity"].astype(np.float64)
    energy = 0.5 * np.sum(v * v, axis=1) - mu / np.sqrt(np.sum(x * x, axis=1) + eps * eps)
    e0 = 0.5 * speed ** 2 - mu / math.sqrt(r0 ** 2 + eps ** 2)
    error = np.abs(energy - e0) / abs(e0)
    third = len(error) // 3
    r = np.linalg.norm(x, axis=1)
    assert r.min() < 0.7 and r.max() > 1.99          # it did swing through periapsis (2.6 orbits)
    return error[:third].max(), error[-third:].max()


@pytest.mark.parametrize("method, order", [("Euler", 1), ("Verlet", 2)])
def test_an_orbit_keeps_its_energy_to_the_integrators_order(simulate, method, order):
    coarse, coarse_late = _orbit_energy_error(simulate, method, 30.0)
    fine, fine_late = _orbit_energy_error(simulate, method, 60.0)
    # halving h divides the energy error by 2 (Euler) or 4 (Verlet), and it does not drift
    # (both schemes are symplectic): the last third's error is the first third's
    assert coarse / fine == pytest.approx(2.0 ** order, rel=0.15)
    assert fine < (0.06 if order == 1 else 0.03)
    assert fine_late < 1.3 * fine and coarse_late < 1.3 * coarse


# -- PointSpring --------------------------------------------------------------------------------

def _crossings(t, x):
    """Times where x crosses 0 upward (linear interpolation)."""
    up = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[up] - x[up] * (t[up + 1] - t[up]) / (x[up + 1] - x[up])


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
@pytest.mark.parametrize("mass, k", [(1.0, 4.0), (2.5, 17.3)])
def test_a_spring_oscillates_with_period_two_pi_root_m_over_k(simulate, method, mass, k):
    spring = affector("PointSpring", **{"PointSpring.Stiffness": k}, **at(0.0, 1.0, 0.0))
    sim = _simulate_one(simulate, moving(**{"Emission.Density": mass}, **at(0.6, 1.0, 0.0)), {"S": spring},
                        method, 60.0)
    track = _track(sim, 600)                        # 10 s: three periods or more
    t = np.arange(1, 601) / 60.0
    x = track["position"][:, 0].astype(np.float64)
    period = np.diff(_crossings(t, x)).mean()
    omega_h = math.sqrt(k / mass) / 60.0
    # both schemes are symplectic: the phase error per step is (w h)^3 / 24, a period error (w h)^2 / 24
    assert period == pytest.approx(2 * math.pi * math.sqrt(mass / k), rel=omega_h ** 2 / 24 + 2e-4)
    assert np.abs(x).max() == pytest.approx(0.6, rel=0.02) and np.all(track["position"][:, 2] == 0)


def test_a_damped_spring_decays_at_gamma_and_an_overdamped_one_never_overshoots(simulate):
    m, k, c = 1.0, 16.0, 1.2        # gamma = 0.6, w_d = sqrt(16 - 0.36)
    spring = affector("PointSpring", **{"PointSpring.Stiffness": k, "PointSpring.Damping": c})
    sim = _simulate_one(simulate, moving(**at(0.5, 0, 0)), {"S": spring}, "Verlet", 120.0)
    track = _track(sim, 480)
    t = np.arange(1, 481) / 120.0
    gamma, wd = c / (2 * m), math.sqrt(k / m - (c / (2 * m)) ** 2)
    exact = np.exp(-gamma * t) * 0.5 * (np.cos(wd * t) + gamma / wd * np.sin(wd * t))
    np.testing.assert_allclose(track["position"][:, 0], exact, atol=2e-3)
    # damped 60 times past critical, and stiff: c h / m = 4 at 60 Hz (explicit Euler would blow up)
    stiff = affector("PointSpring", **{"PointSpring.Stiffness": 4.0, "PointSpring.Damping": 240.0})
    for method in ("Euler", "Verlet"):
        sim = _simulate_one(simulate, moving(**at(0.5, 0, 0)), {"S": stiff}, method, 60.0)
        x = _track(sim, 120)["position"][:, 0]
        assert np.all(x > 0) and np.all(np.diff(x) <= 0) and x[-1] < 0.5


def test_a_spring_with_a_rest_length_holds_particles_on_a_sphere(simulate):
    spring = affector("PointSpring", **{"PointSpring.Stiffness": 20.0, "PointSpring.Damping": 8.0,
                                        "PointSpring.RestLength": 1.5})
    _, parts = run(simulate, cloud(300, extents=(2.5, 2.5, 2.5)), {"S": spring}, 240)
    np.testing.assert_allclose(np.linalg.norm(parts["position"], axis=1), 1.5, atol=1e-3)


# -- MagneticField ------------------------------------------------------------------------------

def _circle(points):
    """Centre and radius of the circle through points of the XZ plane (least squares)."""
    a = np.column_stack([2 * points[:, 0], 2 * points[:, 2], np.ones(len(points))])
    (cx, cz, c), *_ = np.linalg.lstsq(a, points[:, 0] ** 2 + points[:, 2] ** 2, rcond=None)
    return np.array([cx, cz]), math.sqrt(c + cx * cx + cz * cz)


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
@pytest.mark.parametrize("framerate", [60.0, 144.0])
def test_a_charge_circles_at_radius_m_v_over_q_b_with_period_two_pi_m_over_q_b(simulate, method, framerate):
    m, q, b, v = 0.8, 2.0, 1.5, 3.0            # w = q B / m = 3.75 rad/s, r = m v / (q B) = 0.8 m
    field = affector("MagneticField", **{"MagneticField.FieldStrength": b, "MagneticField.Charge": q})
    sim = _simulate_one(simulate, moving(speed=v, **{"Emission.Density": m}), {"B": field}, method, framerate)
    omega, h = q * b / m, 1 / framerate
    steps = math.ceil(1.5 * 2 * math.pi / omega * framerate)
    track = _track(sim, steps)[1:]                 # from the second step (Verlet's first is its start)
    x, u = track["position"].astype(np.float64), track["velocity"].astype(np.float64)
    # the velocity turns by exactly w h a step, from +X toward +Z (clockwise seen from +Y for
    # q B > 0): the period is 2 pi m / (q B) at any step
    phase = np.unwrap(np.arctan2(u[:, 2], u[:, 0]))
    rate = np.polyfit(np.arange(len(phase)), phase, 1)[0]
    assert rate == pytest.approx(omega * h, rel=1e-5)
    assert np.all(np.abs(x[:, 1]) < 1e-6)                        # no motion along B
    # speed kept (Verlet's velocity is a difference of positions: their round-off)
    assert np.linalg.norm(u[-1]) == pytest.approx(np.linalg.norm(u[0]), rel=1e-5 if method == "Euler" else 5e-5)
    # the points of the steps lie on a circle: Euler's larger than m v / (q B) by
    # (w h / 2) / sin(w h / 2), Verlet's (its chords are v cos(w h / 2) long) smaller by
    # (w h / 2) / tan(w h / 2): second order in h both
    r = m * v / (q * b)
    half = omega * h / 2
    stepped = r * (half / math.sin(half) if method == "Euler" else half / math.tan(half))
    centre, radius = _circle(x)
    # (Verlet steps its chord, a difference of positions: their round-off walks |u| by ~1e-4)
    assert radius == pytest.approx(stepped, rel=1e-5 if method == "Euler" else 1e-4)
    assert np.linalg.norm(centre - (0.0, r)) < 2 * half * r           # the centre: half a step round
    assert np.abs(np.linalg.norm(x[:, [0, 2]] - centre, axis=1) - radius).max() < 1e-4 * r
    assert abs(stepped / r - 1) < (omega * h) ** 2 / 10


def test_the_field_follows_the_node_and_the_velocity_along_it_is_kept(simulate):
    # B along the node's local +Y, turned 90 degrees about X onto world +Z: a helix along Z
    field = affector("MagneticField", **{"MagneticField.FieldStrength": 2.0, "MagneticField.Charge": 1.0},
                     **at(rotation=(90.0, 0.0, 0.0)))
    sim = _simulate_one(simulate, moving(direction=(1.0, 0.0, 1.0), speed=math.sqrt(2.0)), {"B": field})
    track = _track(sim, 90)
    u = track["velocity"]
    np.testing.assert_allclose(u[:, 2], 1.0, rtol=1e-6)                  # along B: untouched
    np.testing.assert_allclose(np.hypot(u[:, 0], u[:, 1]), 1.0, rtol=1e-5)
    assert np.ptp(u[:, 0]) > 1.5                                         # across B: it turns


def test_opposite_charges_turn_opposite_ways_and_heavier_ones_turn_slower(simulate):
    field = affector("MagneticField", **{"MagneticField.FieldStrength": 1.0, "MagneticField.Charge": 0.0,
                                         "MagneticField.ChargeVariance": 2.0})
    project = make_project(emitters={"A": cloud(400, speed=2.0), "B": cloud(400, speed=2.0, **{"Emission.Density": 4.0})},
                           affectors={"B": field})
    sim = simulate(project, seed=3)
    sim.step()
    light, heavy = (sim.read_particles(em) for em in sim.emitters)
    for parts, m in ((light, 1.0), (heavy, 4.0)):
        turn = np.arctan2(-parts["velocity"][:, 2], parts["velocity"][:, 0])   # from +X toward -Z
        q = -turn * m / (1.0 / 60.0)                                            # the drawn charges
        assert q.min() < -1.5 and q.max() > 1.5
        assert stats.kstest(q, stats.uniform(-2.0, 4.0).cdf).pvalue > 1e-3     # Charge +- Variance, uniform


# -- Electrostatic ------------------------------------------------------------------------------

@pytest.mark.parametrize("strength, charge", [(3.0, 1.0), (3.0, -0.5)])
def test_coulomb_force_repels_like_and_attracts_unlike_charges_as_one_over_r_squared(simulate, strength, charge):
    centre = np.array([0.2, 0.4, -0.6])
    source = affector("Electrostatic", **{"Electrostatic.Strength": strength, "Electrostatic.Softening": 0.0,
                                          "Electrostatic.Charge": charge}, **at(*centre))
    _, parts = run(simulate, cloud(**{"Emission.Density": 2.0}), {"Q": source})
    away = parts["previous_position"] - centre
    r = np.linalg.norm(away, axis=1)
    ok = r > 0.3
    radial = np.sum(parts["acceleration"] * away, axis=1) / r                     # outward component
    np.testing.assert_allclose(radial[ok], strength * charge / 2.0 / r[ok] ** 2, rtol=1e-4)   # F / m, m = 2
    tangential = parts["acceleration"] - radial[:, None] * away / r[:, None]
    assert np.abs(tangential[ok]).max() < 1e-4 * np.abs(radial[ok]).max()


def test_a_particle_shares_its_charge_between_electrostatic_and_magnetic_forces(simulate):
    charge = {"Charge": 0.5, "ChargeVariance": 1.5}
    electric = affector("Electrostatic", **{"Electrostatic.Strength": 1.0, "Electrostatic.Softening": 0.0,
                                            **{f"Electrostatic.{k}": v for k, v in charge.items()}}, **at(0, -10.0, 0))
    magnetic = affector("MagneticField", **{"MagneticField.FieldStrength": 1.0,
                                            **{f"MagneticField.{k}": v for k, v in charge.items()}})
    sim_e, e = run(simulate, cloud(300, speed=0.0, extents=(0.01, 0.01, 0.01)), {"E": electric}, seed=9)
    sim_m, b = run(simulate, cloud(300, speed=1.0, extents=(0.01, 0.01, 0.01)), {"M": magnetic}, seed=9)
    away = e["previous_position"] - (0.0, -10.0, 0.0)
    r = np.linalg.norm(away, axis=1)
    q_electric = np.sum(e["acceleration"] * away, axis=1) * r     # F r^2 / (Strength q), unit mass
    q_magnetic = -np.arctan2(-b["velocity"][:, 2], b["velocity"][:, 0]) * 60.0
    np.testing.assert_allclose(q_electric, q_magnetic, rtol=2e-3, atol=2e-3)


# -- Vortex ---------------------------------------------------------------------------------------

def _air(points, axis_point, axis, tangential, inflow, updraft, core):
    offset = points - axis_point
    along = offset @ axis
    radial = offset - along[:, None] * axis
    d = np.linalg.norm(radial, axis=1)
    out = radial / d[:, None]
    factor = np.minimum(d / core, 1.0) if core > 0 else np.ones_like(d)
    return factor[:, None] * (tangential * np.cross(axis, out) - inflow * out) + updraft * axis, d


@pytest.mark.parametrize("tilt", [0.0, 35.0])
def test_the_vortex_air_swirls_flows_in_and_rises_with_a_solid_core(simulate, tilt):
    props = {"Vortex.TangentialSpeed": 4.0, "Vortex.InflowSpeed": 1.5, "Vortex.Updraft": 2.0,
             "Vortex.CoreRadius": 0.8, "Vortex.DragFactor": 3.0, "Affector.Radius": 2.5}
    node = at(0.3, 0.0, -0.2, rotation=(tilt, 0.0, 0.0))
    _, parts = run(simulate, cloud(900, **{"Emission.Density": 0.5}), {"V": affector("Vortex", **props, **node)})
    a = math.radians(tilt)
    axis = np.array([0.0, math.cos(a), math.sin(a)])          # local +Y turned about X
    air, d = _air(parts["previous_position"], np.array([0.3, 0.0, -0.2]), axis, 4.0, 1.5, 2.0, 0.8)
    # from rest, one Euler step of the exact drag: v = air (1 - exp(-k s h / m))
    gain = 1 - np.exp(-3.0 * falloff(d, 2.5, 0.0) / 60.0 / 0.5)
    np.testing.assert_allclose(parts["velocity"], air * gain[:, None], atol=2e-6)
    assert (d < 0.8).sum() > 30 and (d > 2.5).sum() > 100 and np.all(parts["velocity"][d >= 2.5] == 0)


@pytest.mark.parametrize("method", ["Euler", "Verlet"])
def test_a_particle_orbits_the_vortex_at_its_tangential_speed(simulate, method):
    # with the inflow that balances the centrifugal drift (U = S^2 / (d rate)), the circle of
    # radius d at speed S is the steady motion: a particle launched on it stays on it
    s, d, rate = 3.0, 1.2, 40.0
    props = {"Vortex.TangentialSpeed": s, "Vortex.InflowSpeed": s * s / (d * rate), "Vortex.CoreRadius": 0.3,
             "Vortex.DragFactor": rate}
    for framerate, drift in ((60.0, 0.02), (240.0, 0.002)):
        launched = moving(direction=(0.0, 0.0, -1.0), speed=s, **at(d, 0.5, 0.0))
        sim = _simulate_one(simulate, launched, {"V": affector("Vortex", **props)}, method, framerate)
        track = _track(sim, round(4 * framerate), every=round(framerate / 6))    # 4 s, 2.6 turns
        x, v = track["position"].astype(np.float64), track["velocity"].astype(np.float64)
        radius = np.hypot(x[:, 0], x[:, 2])
        tangential = (x[:, 0] * v[:, 2] - x[:, 2] * v[:, 0]) / radius
        # counter-clockwise seen from +Y: from +X toward -Z, so x v_z - z v_x < 0
        np.testing.assert_allclose(-tangential, s, rtol=1e-3)
        # the air is sampled where the step starts: the orbit creeps out by O(h)
        np.testing.assert_allclose(radius, d, rtol=drift)
        np.testing.assert_allclose(x[:, 1], 0.5, atol=1e-5)


# -- FluidFriction --------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["Euler", "Verlet"])
@pytest.mark.parametrize("linear, quadratic, framerate", [(1.3, 0.0, 60.0), (0.0, 0.9, 37.0), (0.25, 0.6, 240.0)])
def test_fluid_friction_settles_at_the_exact_terminal_speed(simulate, method, linear, quadratic, framerate):
    friction = affector("FluidFriction", **{"FluidFriction.Linear": linear, "FluidFriction.Quadratic": quadratic})
    m = 0.2
    sim = _simulate_one(simulate, moving(**{"Emission.Density": m}),
                        {"F": friction, "G": affector("Gravity")}, method, framerate)
    if quadratic == 0:
        terminal = m * G / linear
    else:
        terminal = (math.sqrt(linear ** 2 + 4 * quadratic * m * G) - linear) / (2 * quadratic)
    track = _track(sim, round(3.0 * framerate), every=round(3.0 * framerate))
    [p] = track
    rate = (linear + quadratic * terminal) / m
    tol = 1e-6 if method == "Euler" else verlet_round_off(p["position"], rate, 1 / framerate, terminal)
    assert -p["velocity"][1] == pytest.approx(terminal, rel=tol)


def test_quadratic_friction_slows_as_v0_over_one_plus_k_v0_t_over_m_to_first_order(simulate):
    def error(framerate):
        friction = affector("FluidFriction", **{"FluidFriction.Linear": 0.0, "FluidFriction.Quadratic": 0.5})
        sim = _simulate_one(simulate, moving(speed=8.0), {"F": friction}, "Euler", framerate)
        [p] = _track(sim, round(framerate), every=round(framerate))
        return abs(p["velocity"][0] - 8.0 / (1 + 0.5 * 8.0 * 1.0))
    coarse, fine = error(30.0), error(60.0)
    assert coarse / fine == pytest.approx(2.0, rel=0.1) and fine < 0.05


# -- TurbulentWind ----------------------------------------------------------------------------------

def test_turbulent_wind_is_wind_with_turbulence_and_gusts_preset(simulate):
    preset = {"Wind.TurbulenceStrength": 1.5, "Wind.TurbulenceFrequency": 0.5, "Wind.GustAmplitude": 0.4,
              "Wind.GustFrequency": 0.3}
    common = {"Wind.WindSpeed": 18.0, "Wind.DragFactor": 3.0}
    turbulent = run(simulate, cloud(200, extents=(6.0, 6.0, 6.0)), {"W": affector("TurbulentWind", **common)}, 30)[1]
    spelled = run(simulate, cloud(200, extents=(6.0, 6.0, 6.0)), {"W": affector("Wind", **common, **preset)}, 30)[1]
    np.testing.assert_array_equal(turbulent["velocity"], spelled["velocity"])
    plain = run(simulate, cloud(200, extents=(6.0, 6.0, 6.0)), {"W": affector("Wind", **common)}, 30)[1]
    assert np.abs(turbulent["velocity"] - plain["velocity"]).max() > 0.3
    # a node that sets a preset property gets its own value
    calm = run(simulate, cloud(200, extents=(6.0, 6.0, 6.0)),
               {"W": affector("TurbulentWind", **common, **{"Wind.TurbulenceStrength": 0.0, "Wind.GustAmplitude": 0.0})},
               30)[1]
    np.testing.assert_array_equal(calm["velocity"], plain["velocity"])


# -- Convection -------------------------------------------------------------------------------------

def test_convection_lift_falls_linearly_to_the_neutral_height_and_sinks_above(simulate):
    lift = affector("Convection", **{"Convection.Strength": 3.0, "Convection.Height": 4.0}, **at(y=1.0))
    _, parts = run(simulate, cloud(800, extents=(1.0, 6.0, 1.0), **at(y=4.0)), {"C": lift})
    h = parts["previous_position"][:, 1] - 1.0
    np.testing.assert_allclose(parts["acceleration"][:, 1], 3.0 * np.clip(1 - h / 4.0, -1, 1), rtol=1e-5, atol=1e-5)
    assert np.all(parts["acceleration"][:, [0, 2]] == 0)
    assert (h < 0).sum() > 30 and (h > 8).sum() > 30 and ((h > 4) & (h < 8)).sum() > 100


def test_a_parcel_bobs_about_the_neutral_height_with_period_two_pi_root_h_over_strength(simulate):
    lift = affector("Convection", **{"Convection.Strength": 8.0, "Convection.Height": 2.0})
    sim = _simulate_one(simulate, moving(**at(y=1.4)), {"C": lift}, "Verlet", 120.0)
    track = _track(sim, 1200)                           # 10 s, three periods
    t = np.arange(1, 1201) / 120.0
    y = track["position"][:, 1].astype(np.float64)
    period = np.diff(_crossings(t, y - 2.0)).mean()
    assert period == pytest.approx(2 * math.pi * math.sqrt(2.0 / 8.0), rel=1e-3)
    assert y.max() == pytest.approx(2.6, abs=2e-3)        # it overshoots to the mirror height


# -- BrownianMotion ---------------------------------------------------------------------------------

N_WALKERS = 3000


def _walkers(simulate, seed, method="Euler", diffusion=0.2, relaxation=0.05, steps=(15, 30, 60, 120)):
    walk = affector("BrownianMotion", **{"BrownianMotion.Diffusion": diffusion,
                                         "BrownianMotion.Relaxation": relaxation})
    sim = simulate(make_project(system={"ParticleSystem.IntegrationMethod": method},
                                emitters={"E": burst_emitter("Emitter_Point", N_WALKERS,
                                                             **{"Emission.InitialVelocityStrength": 0.0})},
                                affectors={"B": walk}), seed=seed)
    out, done = {}, 0
    for n in steps:
        for _ in range(n - done):
            sim.step()
        done = n
        parts = sim.read_particles(sim.emitters[0])
        out[n] = parts["position"].astype(np.float64)
    return out


def discrete_variance(n_steps, diffusion, relaxation, h, verlet=False):
    """Per-axis variance of the position after n steps of the scheme, propagated exactly:
    v' = E v + phi sigma sqrt(h) xi (the exact damping of rate 1/tau with a kick of sigma /
    sqrt(h)), x' = x + v' h; Verlet's first step moves x by r phi sigma h^1.5 xi instead."""
    rate = 1 / relaxation
    sigma = rate * math.sqrt(2 * diffusion)
    x = rate * h
    e = math.exp(-x)
    phi = (1 - e) / x
    r = (x - 1 + e) / (x * (1 - e))
    kick = phi * sigma * math.sqrt(h)
    cov = np.zeros((2, 2))                                  # (x, v)
    step = np.array([[1.0, e * h], [0.0, e]])
    noise = np.array([h, 1.0]) * kick
    for n in range(n_steps):
        if n == 0 and verlet:
            cov = np.outer([r * h, r], [r * h, r]) * kick ** 2    # x1 and the chord r phi sigma sqrt(h) xi
            continue
        cov = step @ cov @ step.T + np.outer(noise, noise)
    return cov[0, 0]


def test_brownian_displacement_variance_is_the_schemes_and_grows_as_two_d_t(simulate):
    diffusion, relaxation, h = 0.2, 0.05, 1 / 60      # tau h = 0.33: a coarse step, D still exact
    walks = _walkers(simulate, seed=1)
    for n, x in walks.items():
        expected = discrete_variance(n, diffusion, relaxation, h)
        for axis in range(3):
            sample = x[:, axis].var(ddof=1)
            chi = (N_WALKERS - 1) * sample / expected
            p = 2 * min(stats.chi2.cdf(chi, N_WALKERS - 1), stats.chi2.sf(chi, N_WALKERS - 1))
            assert p > 1e-4, (n, axis, sample, expected)
    # linear growth with slope 2 D (t >> tau): from 0.5 s to 2 s
    slope = (walks[120].var(axis=0) - walks[30].var(axis=0)) / (90 * h)
    assert slope.mean() == pytest.approx(2 * diffusion, rel=0.08)
    # and the continuous-time formula agrees: 2 D (t - 2 tau (1 - e^-t/tau) + tau/2 (1 - e^-2t/tau))
    t = 120 * h
    continuous = 2 * diffusion * (t - 2 * relaxation * (1 - math.exp(-t / relaxation))
                                  + relaxation / 2 * (1 - math.exp(-2 * t / relaxation)))
    assert discrete_variance(120, diffusion, relaxation, h) == pytest.approx(continuous, rel=0.02)


def test_brownian_walks_are_gaussian_independent_and_repeatable(simulate):
    walks = _walkers(simulate, seed=4, steps=(60,))[60]
    spread = math.sqrt(discrete_variance(60, 0.2, 0.05, 1 / 60))
    assert stats.kstest(walks.reshape(-1) / spread, "norm").pvalue > 1e-3
    # independent across axes and across particles (neighbours in spawn order)
    bound = 4.5 / math.sqrt(N_WALKERS)
    corr = np.corrcoef(walks.T)
    assert np.abs(corr[np.triu_indices(3, 1)]).max() < bound
    for axis in range(3):
        assert abs(np.corrcoef(walks[:-1, axis], walks[1:, axis])[0, 1]) < bound
    # the same seed walks the same way; another seed another way
    again = _walkers(simulate, seed=4, steps=(60,))[60]
    other = _walkers(simulate, seed=5, steps=(60,))[60]
    np.testing.assert_array_equal(walks, again)
    assert np.abs(other - walks).mean() > 0.5 * spread


def test_brownian_diffusion_holds_for_verlet_and_a_fine_step(simulate):
    for method, framerate in (("Verlet", 60.0), ("Euler", 240.0)):
        walk = affector("BrownianMotion", **{"BrownianMotion.Diffusion": 0.1, "BrownianMotion.Relaxation": 0.2})
        sim = simulate(make_project(system={"ParticleSystem.IntegrationMethod": method,
                                            "ParticleSystem.Framerate": framerate},
                                    emitters={"E": burst_emitter("Emitter_Point", N_WALKERS,
                                                                 **{"Emission.InitialVelocityStrength": 0.0})},
                                    affectors={"B": walk}), seed=2)
        steps = round(1.5 * framerate)
        for _ in range(steps):
            sim.step()
        x = sim.read_particles(sim.emitters[0])["position"].astype(np.float64)
        expected = discrete_variance(steps, 0.1, 0.2, 1 / framerate, verlet=method == "Verlet")
        chi = (3 * N_WALKERS - 3) * np.mean(x.var(axis=0, ddof=1)) / expected
        assert stats.chi2.sf(chi, 3 * N_WALKERS - 3) > 1e-4 and stats.chi2.cdf(chi, 3 * N_WALKERS - 3) > 1e-4
