"""--frame-budget bounds the whole frame (issue 21): the first frame too (less the time the
GL compiler takes), the simulation checked after every step and the draws after every draw,
so a frame stops as soon as it is past the budget, and the diagnostic names the step or the
draw (the material) that took the time. The slow shaders are made here."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu.shader_limits import CompileClock
from kzplayer.render.budget import FrameWatch
from tests.hostile import kzplayer

SLOW = """for (int i = 0; i < 60000; i++) {
        x = sin(x * 1.0001 + 0.5); x = sin(x * 1.0002 + 0.25); x = cos(x * 0.9999 + 0.125);
    }"""
AFFECTOR = "void affectParticle(uint index) {\n    float x = float(index);\n    " + SLOW + \
           "\n    addParticleAcceleration(index, vec3(0.0, x * 1e-6, 0.0));\n}\n"
PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Slow" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">{camera}
    <ParticleSystem name="System">
      <Property name="ParticleSystem.Framerate">{rate}</Property>
      <ParticleEmitter name="Sparks">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">{emit}</Property>
        <Property name="Emission.Lifetime">5</Property>
        <Property name="ParticleEmitter.MaximumAmount">{n}</Property>
        <Property name="ParticleEmitter.ParticleMaterial">{draw}</Property>
      </ParticleEmitter>
      {affector}
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Spin" slot="Affector" shader="shaders/spin.glsl"/>
    <MaterialType name="Streak" slot="Particle" vertex="shaders/streak.vert.glsl" fragment="shaders/streak.frag.glsl"
                  geometry="billboard" reads="ColorOverLife.StartColor ColorOverLife.EndColor"/>
  </Materials>
</Project>
"""
DATA = Path(__file__).resolve().parents[1] / "render" / "data"
# A Camera spares the run the fit-to-content probe (render/probe.py), which plays the slow
# steps before the first frame and outside the frame's budget
CAMERA = """
    <Camera name="Camera"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,0,9)</Property></Camera>"""


def project(tmp_path: Path, affector=True, draw="ParticlesDefault", rate=60, n=2000, camera=False) -> Path:
    shaders = tmp_path / "shaders"
    shaders.mkdir(exist_ok=True)
    (shaders / "spin.glsl").write_text(AFFECTOR)
    shutil.copy(DATA / "spark_streak.vert.glsl", shaders / "streak.vert.glsl")
    frag = (DATA / "spark_streak.frag.glsl").read_text().replace(
        "    kzWriteParticle(", "    float x = w;\n    " + SLOW.replace("60000", "2000") +
        "\n    w += x * 1e-9;\n    kzWriteParticle(")
    (shaders / "streak.frag.glsl").write_text(frag)
    node = ('<ParticleAffector name="Spinner"><Property name="ParticleAffector.AffectorMaterial">Materials/Spin'
            '</Property></ParticleAffector>') if affector else ""
    kzm = tmp_path / "slow.kzm"
    kzm.write_text(PROJECT.format(affector=node, draw=draw, rate=rate, n=n, emit=n * rate,
                                 camera=CAMERA if camera else ""))
    return kzm


def test_the_first_frame_is_bounded_and_names_the_material(tmp_path):
    kzm = project(tmp_path, camera=True)
    ran = kzplayer("play", kzm, "--frames", 1, "--size", "32x32", "--output", tmp_path / "o.png",
                   "--frame-budget", 0.05, cwd=tmp_path, timeout=240).expect(1)
    assert "frame 0 took" in ran.out and "[play.frame-budget]" in ran.out, ran.out[-2000:]
    assert "the custom material 'Spin'" in ran.out and "shaders/spin.glsl" in ran.out
    assert not (tmp_path / "o.png").exists()
    assert ran.peak_mib < 1500


def test_many_steps_in_one_frame_stop_in_the_middle(tmp_path):
    """1,000 steps in one output frame (Framerate 1000 at 1 fps), each slow: the frame stops
    after the first steps past the budget, not after all of them."""
    kzm = project(tmp_path, rate=1000, n=200, camera=True)
    ran = kzplayer("play", kzm, "--frames", 1, "--fps", 1, "--size", "16x16", "--output", tmp_path / "o.png",
                   "--frame-budget", 0.2, cwd=tmp_path, timeout=240).expect(1)
    assert "stopped in the middle of it" in ran.out and "'Spin'" in ran.out, ran.out[-2000:]


def test_the_camera_probe_is_held_to_the_budget_too(tmp_path):
    """The same slow steps with no Camera: the fit-to-content probe (render/probe.py) plays
    the effect before the first frame; its frames stop at the budget as played ones do
    (before, it played all its slow steps first: about 90 s here)."""
    kzm = project(tmp_path, rate=1000, n=200)
    ran = kzplayer("play", kzm, "--frames", 1, "--fps", 1, "--size", "16x16", "--output", tmp_path / "o.png",
                   "--frame-budget", 0.2, cwd=tmp_path, timeout=240).expect(1)
    assert "the camera probe's frame 0 took" in ran.out and "[play.frame-budget]" in ran.out, ran.out[-2000:]
    assert "'Spin'" in ran.out, ran.out[-2000:]
    assert not (tmp_path / "o.png").exists()


def test_a_slow_draw_is_named(tmp_path):
    kzm = project(tmp_path, affector=False, draw="Materials/Streak", n=400)
    ran = kzplayer("play", kzm, "--frames", 3, "--size", "64x64", "--output", tmp_path / "o.png",
                   "--frame-budget", 0.05, cwd=tmp_path, timeout=240).expect(1)
    assert "[play.frame-budget]" in ran.out, ran.out[-2000:]
    assert "the draw of Screens/Screen/Scene/System/Sparks (custom material 'Streak')" in ran.out, ran.out[-2000:]


class _Sim:
    timings = None
    budget_check = None
    emitters = systems = ()


def test_compile_time_is_left_out_of_the_frame():
    sim = _Sim()
    watch = FrameWatch(sim, budget=0.5)
    watch.start(0)
    assert sim.budget_check == watch.check
    CompileClock.seconds += 1000.0               # a compile of 1000 s within the frame
    time.sleep(0.01)
    watch.check("step")
    watch.stop(0)                                # no error: the frame itself took 10 ms
    assert sim.budget_check is None and watch.parts["step"] < 0.5
    watch.start(1)
    time.sleep(0.6)
    with pytest.raises(KzError) as caught:
        watch.check("ParticleSystem 'S'")
    assert "frame 1 took" in caught.value.diagnostics[0].message and "stopped in the middle" in \
        caught.value.diagnostics[0].message
