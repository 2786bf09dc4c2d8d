"""Level of detail (render/lod.py, docs/rendering.md "LOD"): the continuous emission rate
falls with the camera's distance along the Emission.LodNear / LodFar / LodMinimumRate curve
(bursts untouched), fan lights and ribbons lose sides as they shrink on screen; both are in
--stats and both go with --no-lod."""
from __future__ import annotations

import csv
import math

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
