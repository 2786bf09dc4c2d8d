"""A project for the live-preview tests (tests/render/test_live_*.py), written to a temp
folder: two ParticleSystems, "Left" (a jet pushed up by a custom affector whose shader
includes a helper file, drawn with one texture) and "Right" (a spray under gravity, drawn
with another texture), and an editor's save (write a temporary file, rename it over)."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PIL import Image

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Two" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <Camera name="Camera">
      <Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,1,9)</Property>
    </Camera>
    <ParticleSystem name="Left">
      <ParticleEmitter name="Jet">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">200</Property>
        <Property name="Emission.Lifetime">2</Property>
        <Property name="Emission.InitialVelocityStrength">{jet_speed}</Property>
        <Property name="Emission.InitialVelocityOuterAngle">0.4</Property>
        <Property name="Particle.Texture">textures/left.png</Property>
        <Binding target="ParticleEmitter.MaximumAmount">{{./Emission.Rate}} * {jet_pool}</Binding>
      </ParticleEmitter>{left_extra}
      <ParticleAffector name="Swirl">
        <Property name="ParticleAffector.AffectorMaterial">Materials/Swirl</Property>
      </ParticleAffector>
    </ParticleSystem>
    <ParticleSystem name="Right">
      <Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 2,0,0)</Property>
      <ParticleEmitter name="Spray">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">150</Property>
        <Property name="Emission.Lifetime">3</Property>
        <Property name="Emission.InitialVelocityStrength">4</Property>
        <Property name="Emission.InitialVelocityOuterAngle">0.5</Property>
        <Property name="ParticleEmitter.MaximumAmount">600</Property>
        <Property name="Particle.Texture">textures/right.png</Property>
      </ParticleEmitter>
      <ParticleAffector name="Gravity">
        <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
      </ParticleAffector>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Swirl" slot="Affector" shader="shaders/swirl.glsl">
      <PropertyType name="Swirl.Strength" type="float" default="3"/>
    </MaterialType>
  </Materials>
</Project>
"""

SECOND_EMITTER = """
      <ParticleEmitter name="Puff">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Sphere</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Property name="Emission.Rate">50</Property>
        <Property name="Emission.Lifetime">1</Property>
        <Property name="ParticleEmitter.MaximumAmount">80</Property>
      </ParticleEmitter>"""

SWIRL = """#include "swirl_push.glsl"
uniform float Swirl_Strength;

void affectParticle(uint index) {
    addParticleAcceleration(index, swirlPush(Swirl_Strength));
}
"""

# the helper the affector includes; MARK is in every program made with it
MARK = "swirl-push-{n}"
PUSH = """// {mark}
vec3 swirlPush(float s) {{
    return vec3(0.0, {up} * s, 0.0);
}}
"""
BROKEN_PUSH = """// broken
vec3 swirlPush(float s) {
    return vec3(0.0, s, 0.0)
}
"""        # no ';' at line 3: the driver reports the line after it, or line 3 itself


def project_text(jet_speed: float = 2.0, jet_pool: str = "2", left_extra: str = "") -> str:
    return PROJECT.format(jet_speed=jet_speed, jet_pool=jet_pool, left_extra=left_extra)


def push_text(n: int = 0, up: float = 1.0) -> str:
    return PUSH.format(mark=MARK.format(n=n), up=f"{up:.1f}")


def write_project(folder: Path) -> Path:
    """The project file, its shaders and its two textures under `folder`."""
    (folder / "shaders").mkdir(parents=True, exist_ok=True)
    (folder / "textures").mkdir(exist_ok=True)
    (folder / "shaders" / "swirl.glsl").write_text(SWIRL)
    (folder / "shaders" / "swirl_push.glsl").write_text(push_text())
    write_texture(folder / "textures" / "left.png", (255, 64, 32))
    write_texture(folder / "textures" / "right.png", (32, 128, 255))
    path = folder / "two.kzm"
    path.write_text(project_text())
    return path


def write_texture(path: Path, rgb) -> None:
    """A 16x16 round dot of one colour (written to a temporary file, renamed over)."""
    y, x = np.mgrid[0:16, 0:16]
    alpha = (((x - 7.5) ** 2 + (y - 7.5) ** 2) < 56).astype(np.uint8) * 255
    rgba = np.dstack([np.full((16, 16), c, np.uint8) for c in rgb] + [alpha])
    tmp = path.with_name(f".{path.stem}.tmp.png")
    Image.fromarray(rgba, "RGBA").save(tmp)
    os.replace(tmp, path)


def save(path: Path, text: str) -> None:
    """An editor's save: a new file written beside it, renamed over it."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def count_compiles(ctx, monkeypatch) -> list:
    """The programs compiled on `ctx` from now on, for the test (monkeypatch undoes it):
    "compute" or "render", one entry a compile."""
    import moderngl
    calls = []
    for name, kind in (("compute_shader", "compute"), ("program", "render")):
        original = getattr(moderngl.Context, name)

        def counted(self, *a, _o=original, _k=kind, **k):
            if self is ctx:
                calls.append(_k)
            return _o(self, *a, **k)
        monkeypatch.setattr(moderngl.Context, name, counted)
    return calls


def programs_with(sim, text: str) -> int:
    """How many of the simulation's programs (its systems' and its passes') hold `text`."""
    return sum(text in source.text for source in sim.programs.sources())


WAIT = 60.0          # seconds a save may take to be seen on a loaded machine (a hang, not a timing)


def watch(session, saves, turns: int = 10) -> list:
    """Play `session` under the real watcher (kzplayer.render.live.watch_loop) in this thread
    while another makes each save (a callable), the loop having turned `turns` times since
    the last one was answered; returns the outcomes, one per save."""
    import queue
    import threading
    import time

    from kzplayer.render.live_loop import watch_loop

    outcomes, answered, stop = [], queue.Queue(), threading.Event()
    count = [0]

    def saver():
        try:
            for make in saves:
                seen = count[0]
                while count[0] < seen + turns and not stop.is_set():
                    time.sleep(0.01)
                make()
                outcomes.append(answered.get(timeout=WAIT))
        finally:
            stop.set()

    thread = threading.Thread(target=saver)
    thread.start()
    timer = threading.Timer(len(saves) * WAIT, stop.set)
    timer.start()
    try:
        watch_loop(session, on_change=answered.put, stop=stop, on_turn=lambda p: count.__setitem__(0, count[0] + 1))
    finally:
        stop.set()
        timer.cancel()
        thread.join()
    return outcomes


def play_watch_saving(ctx, path: Path, out: Path, make_save) -> tuple[list, int]:
    """`play --watch --output out` of `path` (kzplayer.commands.watch.play_watch, the real
    watcher) in this thread while another waits for the first image, makes the save (a
    callable) and stops the loop once an outcome was heard; returns the outcomes heard and
    the output's mtime (ns) just before the save."""
    import threading
    import time

    from kzplayer.commands.watch import play_watch

    stop, changes, stamps = threading.Event(), [], []

    def saver():
        try:
            deadline = time.monotonic() + WAIT
            while not out.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)                       # the watcher starts after the first image
            stamps.append(out.stat().st_mtime_ns)
            make_save()
            while not changes and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop.set()

    thread = threading.Thread(target=saver)
    thread.start()
    try:
        play_watch(str(path), (), (48, 27), n_frames=1, fps=30, seed=1, output=str(out), stop=stop, ctx=ctx,
                   on_change=changes.append)
    finally:
        stop.set()
        thread.join()
    assert len(stamps) == 1, "the first image was not written"
    return changes, stamps[0]
