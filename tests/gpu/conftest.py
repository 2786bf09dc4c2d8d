"""Projects for GPU tests, built directly from kzplayer.project.model items (no loader):
a Screen with one ParticleSystem holding the given emitters and affectors."""
from __future__ import annotations

import pytest

from kzplayer.project.model import Item, Project, Property
from kzplayer.values import EnumValue, MaterialRef, Vector


def _typed(name: str, value):
    if isinstance(value, tuple) and not isinstance(value, Vector):
        return Vector(value)
    if name.endswith("Material") and isinstance(value, str):
        return MaterialRef(value)
    if name == "ParticleSystem.IntegrationMethod":
        return EnumValue(value)
    return value


def make_item(type_: str, name: str, props: dict | None = None) -> Item:
    item = Item(type_, name)
    for key, value in (props or {}).items():
        item.properties[key] = Property(key, _typed(key, value))
    return item


def make_project(system: dict | None = None, emitters: dict | None = None,
                 affectors: dict | None = None, materials: list[Item] | None = None,
                 path: str = "") -> Project:
    """emitters / affectors: {name: {property: value}} in tree order."""
    root = Item("Project", "")
    screens = root.add_child(Item("Screens", "Screens"))
    screen = screens.add_child(Item("Screen", "Screen"))
    scene = screen.add_child(Item("Scene", "Scene"))
    ps = scene.add_child(make_item("ParticleSystem", "Particle System", system))
    for name, props in (emitters or {}).items():
        ps.add_child(make_item("ParticleEmitter", name, props))
    for name, props in (affectors or {}).items():
        ps.add_child(make_item("ParticleAffector", name, props))
    if materials:
        lib = root.add_child(Item("Materials", "Materials"))
        for m in materials:
            lib.add_child(m)
    return Project(name="Test", root=root, path=path)


def custom_material(folder, name: str, slot: str, body: str, props: dict | None = None) -> Item:
    """A <MaterialType> item whose shader `shaders/<name>.glsl` is written under `folder`;
    props: {property: (type, default text)}."""
    shaders = folder / "shaders"
    shaders.mkdir(parents=True, exist_ok=True)
    (shaders / f"{name}.glsl").write_text(body)
    material = Item("MaterialType", name, attributes={"name": name, "slot": slot,
                                                      "shader": f"shaders/{name}.glsl"})
    for prop, (type_, default) in (props or {}).items():
        material.add_child(Item("PropertyType", prop,
                                attributes={"name": prop, "type": type_, "default": default}))
    return material


@pytest.fixture
def simulate(ctx):
    """simulate(project, seed=None) -> a Simulation released after the test."""
    from kzplayer.gpu import Simulation
    made = []

    def build(project, seed=None):
        sim = Simulation(ctx, project, seed=seed)
        made.append(sim)
        return sim
    yield build
    for sim in made:
        sim.release()


def burst_emitter(material: str, n: int, **props) -> dict:
    """Properties of an emitter that spawns exactly n particles on its first step (a
    one-shot impulse) and then nothing; `props` use '_' for '.' after the type prefix
    is given in full: burst_emitter("Emitter_Box", 100, **{"Emission.Volume": True})."""
    base = {
        "ParticleEmitter.EmissionMaterial": material,
        "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": n,
        "Emission.Rate": 0.0,
        "Emission.ImpulseAtCycleStart": n,
        "Emission.OffDuration": 1e10,
        "Emission.Lifetime": 100.0,
    }
    base.update(props)
    return base


@pytest.fixture
def spawn(simulate):
    """spawn(material, n, **props) -> the n live particles after one step (records in
    simulation space). With InitialVelocityStrength 0 they sit where they were spawned."""
    def run(material, n, seed=None, **props):
        sim = simulate(make_project(emitters={"E": burst_emitter(material, n, **props)}), seed=seed)
        sim.step()
        return sim.read_particles(sim.emitters[0])
    return run


def with_mesh(project, tmp_path, name, mesh):
    """A Meshes library item `name` whose file is `mesh` written as glTF under tmp_path."""
    path = tmp_path / f"{name}.glb"
    mesh.export(path)
    lib = next((i for i in project.root.children if i.type == "Meshes"), None)
    if lib is None:
        lib = project.root.add_child(Item("Meshes", "Meshes"))
    lib.add_child(make_item("Mesh", name, {"Mesh.File": path.name}))
    return project
