"""NeL representations: what a frame of trails costs to draw, and what the position history
costs the simulation's step.

    python benchmarks/bench_representations.py [--repeat 5] [--particles 10000] [--steps-particles 300000]

Part 1, drawing (640x360, draw + read back, as the offline player does): 10,000 live
particles spread through a 6 m cube 10 m in front of the camera, each with a 16-position
history along a ballistic arc (0.9 m long), drawn as

    billboard        ParticlesDefault (the reference: one quad each)
    dot, line        Particles_Dot, Particles_Line (1 vertex, 4)
    gradient line    Particles_GradientLine, N = 16 (a 32-vertex strip)
    flat ribbon      Particles_FlatRibbon, N = 16 (a 32-vertex strip)
    ribbon           Particles_Ribbon, N = 16, 6 sides (15 x 6 quads: 112 vertices, 540 indices)
    ribbon, 3 sides  the same at the geometry LOD's lowest (64 vertices, 270 indices)

Part 2, the history write: one simulation step of 300,000 live particles under Gravity,
with ParticlesDefault (no history) and with Particles_Ribbon (N = 16: the step writes one
16-byte entry per particle into its ring), the GPU finished each time.

Every case runs interleaved (A B C ... A B C ...) after a warm-up; each line gives the min /
median / max wall time and the min CPU time of this process (llvmpipe's threads included),
and the ratio of medians to the reference. Prints the figures for docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import moderngl
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.gpu.context import create_context, describe  # noqa: E402
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE  # noqa: E402
from kzplayer.gpu.views import RecordBuffers  # noqa: E402
from kzplayer.project.catalog import catalog  # noqa: E402
from kzplayer.render.camera import Camera  # noqa: E402
from kzplayer.render.frame import EmitterDraw, Frame, history_of  # noqa: E402
from kzplayer.render.materials import stock_material  # noqa: E402
from kzplayer.render.renderer import Renderer  # noqa: E402
from _timing import interleaved  # noqa: E402  (this folder: the benchmarks run as scripts)

SIZE = (640, 360)
N_HISTORY = 16


def records(n: int):
    rng = np.random.default_rng(0)
    a = np.zeros(n, PARTICLE_DTYPE)
    a["position"] = rng.uniform(-3, 3, (n, 3))
    a["lifetime"], a["age"] = 2.0, rng.uniform(0, 2, n)
    a["velocity"] = rng.normal(0, 2, (n, 3))
    a["previous_position"] = a["position"] - a["velocity"] / 60
    a["scale"], a["color"], a["flags"] = 1.0, 1.0, FLAG_ALIVE
    k = np.arange(N_HISTORY)[None, :, None] / 60.0
    g = np.array([0.0, -9.8, 0.0])[None, None]
    history = a["position"][:, None] - a["velocity"][:, None] * k + 0.5 * g * k * k
    return a, history


def values(props: dict):
    cat = catalog()
    return lambda name: props[name] if name in props else getattr(cat.property(name), "default", None)


def line(name: str, walls, cpus, base=None) -> str:
    ms = [w * 1000 for w in walls]
    ratio = f"   {statistics.median(walls) / base:5.2f}x" if base else ""
    return (f"  {name:<26} {min(ms):8.1f} {statistics.median(ms):8.1f} {max(ms):8.1f} ms"
            f"   cpu {min(cpus) * 1000:8.1f} ms{ratio}")


def drawing(ctx, n: int, repeat: int) -> None:
    cat = catalog()
    a, history = records(n)
    buf = RecordBuffers(ctx, a, history=history)
    world = np.eye(4)
    world[2, 3] = 10.0
    camera = Camera(world)
    renderer = Renderer(ctx, SIZE)
    trail = {"Trail.Length": N_HISTORY}
    looks = {
        "billboard": ("ParticlesDefault", {}, None),
        "dot": ("Particles_Dot", {}, None),
        "line": ("Particles_Line", {}, None),
        "gradient line (N 16)": ("Particles_GradientLine", trail, None),
        "flat ribbon (N 16)": ("Particles_FlatRibbon", {**trail, "FlatRibbon.Width": 0.05}, None),
        "ribbon (N 16, 6 sides)": ("Particles_Ribbon", {**trail, "Ribbon.Radius": 0.02}, None),
        "ribbon (N 16, 3 sides)": ("Particles_Ribbon", {**trail, "Ribbon.Radius": 0.02}, 3),
    }

    def frame(material, props, sides, discard=False):
        em = EmitterDraw(material, buf, n, stock_material(cat, material), values(props), history=history_of(buf),
                         sides=sides)

        def run():
            if discard:         # the vertex stage alone: no triangle reaches setup or fill
                ctx.enable(moderngl.RASTERIZER_DISCARD)
            try:
                renderer.draw(Frame(emitters=[em]), camera)
                renderer.read()
            finally:
                ctx.disable(moderngl.RASTERIZER_DISCARD)
        return run
    cases = {name: frame(*look) for name, look in looks.items()}
    cases["ribbon, vertex stage only"] = frame(*looks["ribbon (N 16, 6 sides)"], discard=True)
    results = interleaved(cases, repeat)
    base = statistics.median(results["billboard"][0])
    print(f"{n:,} live particles, {SIZE[0]}x{SIZE[1]}: draw + read back (ratio to billboards)")
    for name, (walls, cpus) in results.items():
        print(line(name, walls, cpus, base))
    tris = {"billboard": 2, "ribbon (N 16, 6 sides)": 2 * 6 * (N_HISTORY - 1), "ribbon (N 16, 3 sides)": 2 * 3 * (N_HISTORY - 1),
            "gradient line (N 16)": 2 * (N_HISTORY - 1)}
    print("  triangles a frame: " + ", ".join(f"{k} {v * n:,}" for k, v in tris.items()))
    print(f"  history buffer: {n * N_HISTORY * 16 / 2**20:.2f} MiB (N x 16 bytes a particle)")
    renderer.release()
    buf.release()


def stepping(ctx, n: int, repeat: int) -> None:
    repeat = max(repeat, 9)         # a step is a few ms: more rounds to see through the noise
    from kzplayer.gpu import Simulation
    from tests.gpu.conftest import burst_emitter, make_project
    sims = {}
    for name, material in (("step, no history", "ParticlesDefault"), ("step, history N 16", "Particles_Ribbon")):
        project = make_project(emitters={"E": burst_emitter("Emitter_Sphere", n, **{
            "ParticleEmitter.ParticleMaterial": material, "Trail.Length": N_HISTORY,
            "Emission.Volume": True, "Emission.InitialVelocityStrength": 2.0, "Emission.Lifetime": 1e6})},
            affectors={"Gravity": {"ParticleAffector.AffectorMaterial": "Gravity"}})
        sim = Simulation(ctx, project)
        sim.step()
        sims[name] = sim

    def step(sim):
        def run():
            sim.step()
            ctx.finish()
        return run
    results = interleaved({name: step(sim) for name, sim in sims.items()}, repeat)
    base = statistics.median(results["step, no history"][0])
    print(f"{n:,} live particles: one simulation step, the GPU finished (ratio to the step without history)")
    for name, (walls, cpus) in results.items():
        print(line(name, walls, cpus, base))
    with_h, without = results["step, history N 16"], results["step, no history"]
    for what, k, pick in (("median wall", 0, statistics.median), ("min wall", 0, min), ("min CPU", 1, min)):
        extra = pick(with_h[k]) - pick(without[k])
        print(f"  the history write by {what}: {extra * 1000:+.2f} ms a step, {extra / n * 1e9:+.1f} ns a particle, "
              f"{pick(with_h[k]) / pick(without[k]):.2f}x")
    sim = sims["step, history N 16"]
    print(f"  {sim.memory()[sim.emitters[0].path]['history'] / 2**20:.1f} MiB of rings")
    for sim in sims.values():
        sim.release()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--particles", type=int, default=10_000)
    ap.add_argument("--steps-particles", type=int, default=300_000)
    args = ap.parse_args()
    ctx = create_context()
    print(f"device: {describe(ctx)}; interleaved x{args.repeat}: min / median / max wall")
    drawing(ctx, args.particles, args.repeat)
    stepping(ctx, args.steps_particles, args.repeat)


if __name__ == "__main__":
    main()
