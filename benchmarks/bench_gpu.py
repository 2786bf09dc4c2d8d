"""Particle-steps per second: 1,000,000 particles under Gravity, one fixed step at a time,
on the GPU pipeline (whatever OpenGL the machine offers: llvmpipe on a machine without a
GPU) against a NumPy implementation of the same step, measured in one run.

The step is the one of docs/player.md without emission: reset the acceleration, the
Gravity affector, semi-implicit Euler integration with ageing, the kill test. Both sides
touch every pool slot, live or not, as the GPU does. GPU time includes the per-step
dispatches, barriers and the tiny stats readback, with glFinish at both ends.

    python benchmarks/bench_gpu.py [--particles N] [--steps K]

One pool holds at most the driver's largest storage block (kzplayer.gpu.simulation.max_pool:
932,067 particles on Mesa, whose storage blocks are 128 MiB), so N is split evenly over as
many emitters as it takes (two of 500,000 on Mesa); the one Gravity affector acts on all.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.gpu import Simulation, create_context  # noqa: E402
from kzplayer.gpu import layout as L  # noqa: E402
from kzplayer.gpu.context import describe  # noqa: E402
from kzplayer.gpu.simulation import max_pool  # noqa: E402
from kzplayer.project.model import Item, Project, Property  # noqa: E402
from kzplayer.values import MaterialRef  # noqa: E402

H = np.float32(1.0 / 60.0)


def _pools(n: int, limit: int) -> list[int]:
    """N split evenly over the fewest emitters whose pools each fit the driver."""
    k = -(-n // limit)
    return [n // k + (i < n % k) for i in range(k)]


def _project(sizes: list[int], method: str) -> Project:
    from kzplayer.values import EnumValue
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
    system = scene.add_child(Item("ParticleSystem", "Particle System"))
    system.properties["ParticleSystem.IntegrationMethod"] = Property(
        "ParticleSystem.IntegrationMethod", EnumValue(method))
    for i, n in enumerate(sizes):
        emitter = system.add_child(Item("ParticleEmitter", f"Pool {i}"))
        emitter.properties["ParticleEmitter.MaximumAmount"] = Property("ParticleEmitter.MaximumAmount", n)
    gravity = system.add_child(Item("ParticleAffector", "Gravity"))
    gravity.properties["ParticleAffector.AffectorMaterial"] = Property(
        "ParticleAffector.AffectorMaterial", MaterialRef("Gravity"))
    return Project(name="bench", root=root)


def _initial(n: int, rng) -> np.ndarray:
    records = np.zeros(n, L.PARTICLE_DTYPE)
    records["position"] = rng.uniform(-1, 1, (n, 3))
    records["previous_position"] = records["position"]
    records["velocity"] = rng.uniform(-1, 1, (n, 3))
    records["lifetime"] = 1e9
    records["mass"] = records["time_scale"] = 1.0
    records["scale"] = 1.0
    records["flags"] = L.FLAG_ALIVE
    records["serial"] = np.arange(n)
    return records


def bench_gpu(ctx, sizes: list[int], steps: int, method: str = "Euler") -> float:
    sim = Simulation(ctx, _project(sizes, method))
    n = sum(sizes)
    try:
        for em, size in zip(sim.emitters, sizes):
            em.particles.write(_initial(size, np.random.default_rng(1)).tobytes())
            state = em.buffers.read_state()
            state["free_count"] = 0                  # every slot taken
            em.buffers.state.write(state.tobytes())
        sim.step()                                   # compile and warm up
        ctx.finish()
        start = time.perf_counter()
        for _ in range(steps):
            sim.step()
        ctx.finish()
        elapsed = time.perf_counter() - start
        assert sum(sim.stats[em.path].alive for em in sim.emitters) == n
        return n * steps / elapsed
    finally:
        sim.release()


def bench_numpy(n: int, steps: int) -> float:
    p = _initial(n, np.random.default_rng(1))
    pos, prev = p["position"].copy(), p["previous_position"].copy()
    vel, acc = p["velocity"].copy(), np.zeros((n, 3), np.float32)
    age, life = p["age"].copy(), p["lifetime"].copy()
    alive = np.ones(n, bool)
    gravity = np.array([0, -9.8, 0], np.float32)

    def step():
        live = alive[:, None]
        acc[:] = 0.0                                 # reset
        np.add(acc, gravity, out=acc, where=live)    # Gravity
        np.copyto(prev, pos, where=live)             # integrate (semi-implicit Euler), age
        np.add(vel, acc * H, out=vel, where=live)
        np.add(pos, vel * H, out=pos, where=live)
        np.add(age, H, out=age, where=alive)
        alive[age >= life] = False                   # kill

    step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return n * steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--particles", type=int, default=1_000_000)
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    ctx = create_context(headless=True)
    print(f"OpenGL: {describe(ctx)}")
    sizes = _pools(args.particles, max_pool(ctx))
    print(f"{args.particles:,} particles in {len(sizes)} pool(s) of {', '.join(f'{s:,}' for s in sizes)}, "
          f"{args.steps} steps each, Gravity, fixed step 1/60 s")
    gpu_euler = bench_gpu(ctx, sizes, args.steps, "Euler")
    gpu_verlet = bench_gpu(ctx, sizes, args.steps, "Verlet")
    cpu = bench_numpy(args.particles, args.steps)
    print(f"GPU pipeline, Euler : {gpu_euler / 1e6:8.1f} M particle-steps/s "
          f"({args.particles / gpu_euler * 1e3:.1f} ms per step)")
    print(f"GPU pipeline, Verlet: {gpu_verlet / 1e6:8.1f} M particle-steps/s "
          f"({args.particles / gpu_verlet * 1e3:.1f} ms per step)")
    print(f"NumPy, same step    : {cpu / 1e6:8.1f} M particle-steps/s "
          f"({args.particles / cpu * 1e3:.1f} ms per step)")
    print(f"GPU / NumPy (Euler) : {gpu_euler / cpu:8.2f}x")
    ctx.release()


if __name__ == "__main__":
    main()
