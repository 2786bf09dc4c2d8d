"""Level of detail (render/lod.py, docs/rendering.md "LOD"): the continuous emission rate
falls with the camera's distance along the Emission.LodNear / LodFar / LodMinimumRate curve
(bursts untouched), fan lights and ribbons lose sides as they shrink on screen; both are in
--stats and both go with --no-lod."""
from __future__ import annotations

import csv
import math

import numpy as np

import pytest
from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.gpu.schedule import Schedule, schedule_counts
from kzplayer.render.lod import emission_factor, pixels_per_metre, sides_for
from kzplayer.render.player import Player
from kzplayer.values import Srt3D

from tests.gpu.conftest import make_item, make_project

NEAR, FAR, MINIMUM = 10.0, 40.0, 0.25
RATE = 300.0
FRAMES = 60


def lod_project(distance: float, material: str = "ParticlesDefault", impulse: float = 0.0, **props):
    """An emitter at the origin and a Camera `distance` away on +Z looking at it."""
    project = make_project(emitters={"E": {
        "ParticleEmitter.EmissionMaterial": "Emitter_Point", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
        "ParticleEmitter.MaximumAmount": 2000, "ParticleEmitter.ParticleMaterial": material,
        "Emission.Rate": RATE, "Emission.Lifetime": 0.5, "Emission.ImpulseAtCycleStart": impulse,
        "Emission.LodNear": NEAR, "Emission.LodFar": FAR, "Emission.LodMinimumRate": MINIMUM, **props}})
    scene = next(i for i in project.walk() if i.type == "Scene")
    scene.add_child(make_item("Camera", "Camera", {"Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0),
                                                                                         (0, 0, distance))}))
    return project


def run(ctx, project, lod=True, frames=FRAMES):
    from kzplayer.bindings import resolve
    player = Player(ctx, project, resolve(project), (160, 90), lod=lod)
    rows = []
    player.on_stats = lambda frame, figures: rows.extend(figures.values())
    try:
        for _ in range(frames):
            player.step(1 / 60)
        player.flush_stats()
    finally:
        player.release()
    return rows


def test_the_emission_curve():
    assert emission_factor(0.0, NEAR, FAR, MINIMUM) == 1.0
    assert emission_factor(NEAR, NEAR, FAR, MINIMUM) == 1.0
    assert emission_factor(25.0, NEAR, FAR, MINIMUM) == pytest.approx(1 - 0.75 * 0.5)
    assert emission_factor(FAR, NEAR, FAR, MINIMUM) == MINIMUM
    assert emission_factor(1e6, NEAR, FAR, MINIMUM) == MINIMUM
    assert emission_factor(25.0, 0.0, 0.0, MINIMUM) == 1.0           # the default: no LOD


@pytest.mark.parametrize("distance", [5.0, 25.0, 60.0])
def test_measured_emission_at_three_distances_follows_the_curve(ctx, distance):
    factor = emission_factor(distance, NEAR, FAR, MINIMUM)
    rows = run(ctx, lod_project(distance))
    assert len(rows) == FRAMES
    assert all(r.lod_rate == pytest.approx(factor) for r in rows)
    # exactly the reference count of the scaled rate, frame by frame
    assert [r.emitted for r in rows] == schedule_counts(Schedule(rate=RATE, lod=factor), 1 / 60, FRAMES)
    total = sum(r.emitted for r in rows)
    assert abs(total - RATE * factor * FRAMES / 60) <= 1


@pytest.mark.parametrize("distance", [5.0, 60.0])
def test_no_lod_emits_the_whole_rate_at_any_distance(ctx, distance):
    rows = run(ctx, lod_project(distance), lod=False)
    assert all(r.lod_rate == 1.0 for r in rows)
    assert [r.emitted for r in rows] == schedule_counts(Schedule(rate=RATE), 1 / 60, FRAMES)


def test_a_burst_is_never_degraded(ctx):
    rows = run(ctx, lod_project(60.0, impulse=50.0), frames=3)
    counts = schedule_counts(Schedule(rate=RATE, impulse=50.0, lod=MINIMUM), 1 / 60, 3)
    assert [r.emitted for r in rows] == counts
    assert counts[0] == 50 + math.floor(RATE * MINIMUM / 60)      # the whole burst, a quarter of the rate


def test_fan_sectors_and_ribbon_sides_fall_with_size_on_screen(ctx):
    from kzplayer.render.camera import Camera
    import numpy as np
    cam = Camera(np.eye(4))
    for geometry, most, radius in (("fan", 24, 0.5), ("tube", 6, 0.05)):
        near = sides_for(geometry, radius * pixels_per_metre(cam, 1.0, 360), most)
        mid = sides_for(geometry, radius * pixels_per_metre(cam, 8.0, 360), most)
        far = sides_for(geometry, radius * pixels_per_metre(cam, 200.0, 360), most)
        assert near == most and far == {"fan": 6, "tube": 3}[geometry]
        assert far <= mid <= near
    # a side per 8 (fan) / 6 (tube) pixels of the rim: 40 px of radius make 32 fan sectors
    assert sides_for("fan", 40.0, 128) == math.ceil(2 * math.pi * 40 / 8)
    assert sides_for("tube", 29.0 / (2 * math.pi), 32) == 5            # 29 px of girth: 5 sides of 6 px


@pytest.mark.parametrize("distance, lod", [(2.0, True), (30.0, True), (120.0, True), (120.0, False)])
def test_the_drawn_fan_has_the_sectors_the_lod_chose_and_stats_say_so(ctx, distance, lod):
    from kzplayer.bindings import resolve
    project = lod_project(distance, "Particles_FanLight", **{"FanLight.Sectors": 48, "FanLight.Radius": 1.0})
    player = Player(ctx, project, resolve(project), (160, 90), lod=lod)
    rows = []
    player.on_stats = lambda frame, figures: rows.extend(figures.values())
    try:
        for _ in range(3):
            player.step(1 / 60)
            player.draw()
        player.flush_stats()
        pixels = 1.0 * pixels_per_metre(player.camera()[0], distance, 90)
        want = sides_for("fan", pixels, 48) if lod else 48
        args = player.renderer.live_list(player.sim.emitters[0].path).read_args()
        assert args[0] == want + 2                          # the fan's vertices per particle
        assert {r.lod_sides for r in rows} == {want}
    finally:
        player.release()
    if lod:
        assert want < 48 or distance < 5


LOD_KZM = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Lod" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Camera name="Camera"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,0,60)</Property></Camera>
    <ParticleSystem name="Particle System">
      <ParticleEmitter name="E">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="ParticleEmitter.MaximumAmount">500</Property>
        <Property name="Emission.Rate">300</Property>
        <Property name="Emission.Lifetime">0.5</Property>
        <Property name="Emission.LodNear">10</Property>
        <Property name="Emission.LodFar">40</Property>
        <Property name="Emission.LodMinimumRate">0.25</Property>
      </ParticleEmitter>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials/>
  <PropertyTypes/>
</Project>
"""


def test_play_stats_and_no_lod_on_the_command_line(tmp_path):
    path = tmp_path / "lod.kzm"
    path.write_text(LOD_KZM)
    runner = CliRunner()
    for flag, factor in ((None, MINIMUM), ("--no-lod", 1.0)):
        out = tmp_path / f"{flag}.csv"
        args = ["play", str(path), "--headless", "--frames", "10", "--stats", str(out)] + ([flag] if flag else [])
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        rows = list(csv.DictReader(out.open()))
        assert rows and all(float(r["lod_rate"]) == factor for r in rows)
        assert sum(int(r["emitted"]) for r in rows) == sum(schedule_counts(Schedule(rate=RATE, lod=factor), 1 / 60, 10))


# -- emitters bound to particles (EmissionCount_PerParticle) ----------------------------------

PARENTS, PER_PARENT, PARENT_LIFE = 10, 40.0, 1.5


def bound_lod_project(distance: float):
    """10 shells and a trail bound to them (RatePerParticle 40) whose LOD is the curve's; the
    Camera `distance` away. The shells' own emission is a burst: the LOD leaves it whole."""
    from tests.gpu.test_bound_emitters import bound, shells
    project = bound(shells(PARENTS, lifetime=PARENT_LIFE),
                    {"Emission.RatePerParticle": PER_PARENT, "Emission.LodNear": NEAR,
                     "Emission.LodFar": FAR, "Emission.LodMinimumRate": MINIMUM})
    scene = next(i for i in project.walk() if i.type == "Scene")
    scene.add_child(make_item("Camera", "Camera", {"Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0),
                                                                                         (0, 0, distance))}))
    return project


def bound_counts(factor: float, frames: int) -> list[int]:
    """The algorithm's count in float32, as the GPU works it: a parent of age a has had
    floor(R a) children due and kept floor(f floor(R a)) of them (Particles/bound_emission.glsl thins them)."""
    import numpy as np
    age = np.cumsum(np.full(frames, np.float32(1 / 60), np.float32), dtype=np.float32)
    a1 = np.minimum(age, np.float32(PARENT_LIFE))
    a0 = np.minimum(np.concatenate([np.zeros(1, np.float32), age[:-1]]), a1)
    r, f = np.float32(PER_PARENT), np.float32(factor)
    kept = lambda a: np.floor(f * np.floor(r * a))
    alive = np.concatenate([[True], age[:-1] < np.float32(PARENT_LIFE)])
    return (PARENTS * (kept(a1) - kept(a0)) * alive).astype(int).tolist()


@pytest.mark.parametrize("distance, lod", [(5.0, True), (25.0, True), (60.0, True), (60.0, False)])
def test_a_bound_subemitters_rate_per_parent_follows_the_curve(ctx, distance, lod):
    """RatePerParticle is a continuous rate: at each distance every parent keeps
    floor(f floor(R age)) of its children, frame by frame, and --stats says f; the shells'
    burst is whole at any distance."""
    factor = emission_factor(distance, NEAR, FAR, MINIMUM) if lod else 1.0
    frames = 100                                       # the shells die at frame 90
    rows = run(ctx, bound_lod_project(distance), lod=lod, frames=frames)
    trail = [r for r in rows if r.emitter.endswith("/Trail")]
    shell = [r for r in rows if r.emitter.endswith("/Shells")]
    assert len(trail) == len(shell) == frames and not any("#" in r.emitter for r in rows)
    assert all(r.lod_rate == pytest.approx(factor) for r in trail)
    assert [r.emitted for r in trail] == bound_counts(factor, frames)
    assert sum(r.emitted for r in trail) == PARENTS * math.floor(factor * math.floor(PER_PARENT * PARENT_LIFE))
    assert shell[0].emitted == PARENTS and sum(r.emitted for r in shell) == PARENTS


def test_a_thinned_trail_is_a_subset_of_the_whole_one(ctx):
    """The LOD drops children, it does not renumber them: every child kept at 60 m is a child
    of the whole trail (the same start on its parent's path, the same random numbers)."""
    import numpy as np
    from kzplayer.bindings import resolve
    kept = {}
    for distance in (5.0, 60.0):
        project = bound_lod_project(distance)
        player = Player(ctx, project, resolve(project), (160, 90))
        try:
            for _ in range(30):
                player.step(1 / 60)
            em = next(e for e in player.sim.emitters if e.path.endswith("/Trail"))
            recs = player.sim.read_particles(em)
            kept[distance] = np.round(np.concatenate([recs["position"], recs["age"][:, None]], axis=1), 5)
        finally:
            player.release()
    whole, thin = {tuple(r) for r in kept[5.0]}, {tuple(r) for r in kept[60.0]}
    assert len(thin) == len(kept[60.0]) > 0 and len(thin) < len(whole)
    assert thin <= whole


@pytest.mark.parametrize("space, local_system", [("Local", False), ("World", True), ("Inherit", True)])
def test_the_lod_distance_is_the_emitters_node_whatever_its_particles_space(ctx, space, local_system):
    """The emitter's node is 35 m from the camera (its system node 30 m off, turned): the
    factor is the curve's at 35 m whether its particles are kept in the system's basis
    (Local), the world's (World in a LocalSpace system) or the system's own."""
    from kzplayer.project.model import Property
    from kzplayer.values import EnumValue
    project = lod_project(5.0, **{"ParticleEmitter.Space": EnumValue(space),
                                  "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, 0, -2))})
    system = next(i for i in project.walk() if i.type == "ParticleSystem")
    system.properties["Node3D.RenderTransformation"] = Property(
        "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 90, 0), (2, 0, -30)))     # the emitter: world (0, 0, -30)
    system.properties["ParticleSystem.LocalSpace"] = Property("ParticleSystem.LocalSpace", local_system)
    factor = emission_factor(35.0, NEAR, FAR, MINIMUM)
    rows = run(ctx, project, frames=10)
    assert all(r.lod_rate == pytest.approx(factor, abs=1e-5) for r in rows)
    assert [r.emitted for r in rows] == schedule_counts(Schedule(rate=RATE, lod=np.float32(factor)), 1 / 60, 10)


def test_the_lod_is_decided_once_per_view_and_follows_an_edit(ctx, monkeypatch):
    from kzplayer.bindings import resolve
    from kzplayer.gpu.transplant import apply_value
    project = lod_project(25.0)
    player = Player(ctx, project, resolve(project), (160, 90))
    try:
        chosen = []
        real = Player.camera
        monkeypatch.setattr(Player, "camera", lambda self, *a, **k: (chosen.append(1), real(self, *a, **k))[1])
        player.seek(1.0, 1 / 60)                    # nothing drawn: the camera chosen once, not a frame
        assert len(chosen) == 1
        rows = []
        player.on_stats = lambda frame, figures: rows.extend(figures.values())
        player.step(1 / 60)
        player.flush_stats()
        assert rows[-1].lod_rate == pytest.approx(emission_factor(25.0, NEAR, FAR, MINIMUM))
        emitter = player.sim.emitters[0].item
        apply_value(player.sim, emitter, "Emission.LodNear", 30.0)   # a live save's edit: nearer than LodNear now
        for _ in range(4):
            player.step(1 / 60)
        player.flush_stats()
        assert rows[-1].lod_rate == 1.0
        camera = next(i for i in player.project.walk() if i.type == "Camera")
        apply_value(player.sim, camera, "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 0, 0), (0, 0, 60.0)))
        for _ in range(4):
            player.step(1 / 60)
        player.flush_stats()
        assert rows[-1].lod_rate == pytest.approx(emission_factor(60.0, 30.0, FAR, MINIMUM))
    finally:
        player.release()
