"""Global forces (the NeL design: "forces such as wind should affect all systems at the same
time, if they're flagged for that"): a ParticleAffector with ParticleAffector.Global acts on
every ParticleSystem of its scene that accepts global forces, in tree order over the scene
and in each system's own space."""
from __future__ import annotations

import numpy as np
import pytest

from kzplayer.project.model import Item, Project
from kzplayer.values import Srt3D

from .conftest import burst_emitter, make_item

STILL = {"Emission.InitialVelocityStrength": 0.0}
PUSH = {"ParticleAffector.AffectorMaterial": "Accelerate", "Accelerate.Direction": (1.0, 0.0, 0.0),
        "Accelerate.Magnitude": 2.0}


def scene_project(*layout):
    """layout: ("system", name, system props, {affector name: props}) or ("affector", name,
    props) entries, in tree order under one Scene; each system gets one still emitter."""
    root = Item("Project", "")
    screen = root.add_child(Item("Screens", "Screens")).add_child(Item("Screen", "Screen"))
    scene = screen.add_child(Item("Scene", "Scene"))
    for entry in layout:
        if entry[0] == "affector":
            scene.add_child(make_item("ParticleAffector", entry[1], entry[2]))
            continue
        _, name, props, affectors = entry
        ps = scene.add_child(make_item("ParticleSystem", name, props))
        ps.add_child(make_item("ParticleEmitter", "E", burst_emitter("Emitter_Point", 1, **STILL)))
        for aname, aprops in affectors.items():
            ps.add_child(make_item("ParticleAffector", aname, aprops))
    return Project(name="Test", root=root, path="")


def velocities(sim, steps=10):
    for _ in range(steps):
        sim.step()
    return {em.system.item.name: sim.read_particles(em)[0]["velocity"] for em in sim.emitters}


def test_a_global_affector_acts_on_every_system_that_accepts_global_forces(simulate):
    project = scene_project(
        ("affector", "Breeze", {**PUSH, "ParticleAffector.Global": True}),
        ("system", "A", {}, {}),
        ("system", "B", {"ParticleSystem.AcceptGlobalForces": False}, {}),
        ("system", "C", {"ParticleSystem.Framerate": 30.0}, {}))
    sim = simulate(project)
    v = velocities(sim, 12)
    np.testing.assert_allclose(v["A"], [2.0 * 12 / 60, 0, 0], rtol=1e-5)
    np.testing.assert_allclose(v["B"], [0, 0, 0])
    np.testing.assert_allclose(v["C"], [2.0 * 12 / 30, 0, 0], rtol=1e-5)   # its own steps


def test_a_global_affector_inside_a_system_reaches_the_others_and_a_plain_one_does_not(simulate):
    project = scene_project(
        ("system", "Owner", {}, {"Breeze": {**PUSH, "ParticleAffector.Global": True},
                                 "Local": {**PUSH, "Accelerate.Direction": (0.0, 0.0, 1.0)}}),
        ("system", "Other", {}, {}))
    sim = simulate(project)
    v = velocities(sim, 6)
    np.testing.assert_allclose(v["Owner"], [0.2, 0, 0.2], rtol=1e-5)
    np.testing.assert_allclose(v["Other"], [0.2, 0, 0], rtol=1e-5)


def test_global_forces_keep_tree_order_over_the_scene(simulate):
    # VelocityClamp caps what the affectors above it accumulated: a global push before a
    # system's clamp is capped, one after it adds its a h on top of the cap.
    clamp = {"ParticleAffector.AffectorMaterial": "VelocityClamp", "VelocityClamp.MaxSpeed": 0.05}
    before = scene_project(("affector", "Breeze", {**PUSH, "ParticleAffector.Global": True}),
                           ("system", "S", {}, {"Clamp": clamp}))
    after = scene_project(("system", "S", {}, {"Clamp": clamp}),
                          ("affector", "Breeze", {**PUSH, "ParticleAffector.Global": True}))
    capped = velocities(simulate(before), 5)["S"]
    uncapped = velocities(simulate(after), 5)["S"]
    assert np.linalg.norm(capped) == pytest.approx(0.05, rel=1e-4)
    assert np.linalg.norm(uncapped) == pytest.approx(0.05 + 2.0 / 60, rel=1e-4)


def test_a_global_force_acts_in_each_systems_own_space(simulate):
    # Gravity is a world direction: a local-space system turned upside down sees it as +Y.
    down = {"ParticleAffector.AffectorMaterial": "Gravity", "ParticleAffector.Global": True}
    flipped = {"ParticleSystem.LocalSpace": True,
               "Node3D.RenderTransformation": Srt3D((1, 1, 1), (180, 0, 0), (0, 0, 0))}
    project = scene_project(("affector", "Earth", down), ("system", "World", {}, {}),
                            ("system", "Flipped", flipped, {}))
    sim = simulate(project)
    v = velocities(sim, 6)
    np.testing.assert_allclose(v["World"], [0, -9.8 * 0.1, 0], rtol=1e-5)
    np.testing.assert_allclose(v["Flipped"], [0, 9.8 * 0.1, 0], rtol=1e-5, atol=1e-6)
    # a binding or set_value that turns the flag off takes the force away
    earth = next(i for i in project.walk() if i.name == "Earth")
    sim.set_value(earth, "ParticleAffector.Global", False)
    before = velocities(sim, 0)
    after = velocities(sim, 3)
    np.testing.assert_allclose(after["World"], before["World"])
