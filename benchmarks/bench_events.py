"""Cost per step of colliders, event generation and subemitters, on top of the plain step
of bench_frame.py (the Gravity step: reset, Gravity, integrate, kill), at 200,000 particles (one run, on
whatever OpenGL the machine offers: llvmpipe without a GPU).

The source pool is filled directly (every slot live, in [-1, 1]^3, random velocities,
lifetimes spread so that about 1/(2 STEPS) of the pool dies per step and half of it is
left at the end), so each configuration times the same particles; GPU time is between glFinish calls, stats readback included.

    base              reset, Gravity, integrate, kill
    + Plane / Sphere / Box collider   one ParticleCollider (swept test on every particle)
    + Event_Lifetime on deaths        a record per death (~1/(2 STEPS) of the pool a step)
    + Event_AccelerationRange (all)   a record for every live particle every step: the
                                      worst case of the ordering passes
    + subemitter on deaths            the deaths' records, 2 children each
                                      (EmissionCount_FromEvents + Emitter_FromEvents)

Each configuration runs --repeat times (the machine is shared); the fastest run is shown,
as wall time and as this process's CPU time (llvmpipe's threads included: steadier under
load).

    python benchmarks/bench_events.py [--particles N] [--steps K]
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
from kzplayer.project.model import Item, Project, Property  # noqa: E402
from kzplayer.values import BufferHandle, MaterialRef, Srt3D  # noqa: E402

H = 1.0 / 60.0
WARM_UP = 2          # steps run before the clock starts (compile, first dispatches)
SYSTEM = "Screens/Scene/Particle System"


def _item(type_: str, name: str, props: dict) -> Item:
    item = Item(type_, name)
    for key, value in props.items():
        if key.endswith("Material"):
            value = MaterialRef(value)
        item.properties[key] = Property(key, value)
    return item


def _project(n: int, collider: str | None = None, events: dict | None = None, children: int = 0) -> Project:
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
    system = scene.add_child(Item("ParticleSystem", "Particle System"))
    source = {"ParticleEmitter.MaximumAmount": n}
    if events:
        source.update(events)
    system.add_child(_item("ParticleEmitter", "Source", source))
    if children:
        system.add_child(_item("ParticleEmitter", "Sub", {
            "ParticleEmitter.MaximumAmount": n,
            "ParticleEmitter.EmissionCountMaterial": "EmissionCount_FromEvents",
            "ParticleEmitter.EmissionMaterial": "Emitter_FromEvents",
            "Emission.ParticlesPerEvent": children, "Emission.Lifetime": 10.0,
            "Emission.SourceEventBuffer": BufferHandle("EventBuffer", f"{SYSTEM}/Source"),
            "Emission.SourceParticleDataBuffer": BufferHandle("ParticleDataBuffer", f"{SYSTEM}/Source")}))
    system.add_child(_item("ParticleAffector", "Gravity", {"ParticleAffector.AffectorMaterial": "Gravity"}))
    if collider:
        system.add_child(_item("ParticleCollider", "Collider", {
            "ParticleCollider.ColliderMaterial": collider,
            "Node3D.RenderTransformation": Srt3D((0.5, 0.5, 0.5), (10.0, 0.0, 0.0), (0.0, -0.5, 0.0))}))
    return Project(name="bench", root=root)


def _initial(n: int, steps: int, rng) -> np.ndarray:
    records = np.zeros(n, L.PARTICLE_DTYPE)
    records["position"] = rng.uniform(-1, 1, (n, 3))
    records["previous_position"] = records["position"]
    records["velocity"] = rng.uniform(-1, 1, (n, 3))
    # warm-up steps first, then about n / (2 steps) deaths a step: half the pool is left
    records["lifetime"] = rng.uniform(WARM_UP + 0.5, WARM_UP + 2 * steps + 0.5, n) * H
    records["mass"] = records["time_scale"] = 1.0
    records["scale"] = records["color"] = 1.0
    records["flags"] = L.FLAG_ALIVE
    records["hash"] = rng.integers(0, 2**32, n, dtype=np.uint32)
    records["serial"] = np.arange(n)
    return records


def bench(ctx, project: Project, n: int, steps: int) -> tuple[float, float, int]:
    """(wall ms per step, CPU ms per step, events written over the run). On llvmpipe the
    CPU time (this process, its rasteriser threads included) is the steadier figure when
    other work shares the cores; the wall time is what a user waits."""
    sim = Simulation(ctx, project)
    try:
        em = sim.emitters[0]
        em.particles.write(_initial(n, steps, np.random.default_rng(1)).tobytes())
        state = em.buffers.read_state()
        state["free_count"] = 0
        em.buffers.state.write(state.tobytes())
        written = 0
        for _ in range(WARM_UP):
            sim.step()
        ctx.finish()
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            sim.step()
            written += sim.stats[em.path].events_written
        ctx.finish()
        return ((time.perf_counter() - start) / steps * 1e3, (time.process_time() - cpu) / steps * 1e3,
                written)
    finally:
        sim.release()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--particles", type=int, default=200_000)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration; the fastest is shown")
    ap.add_argument("--only", default="", help="run the configurations whose name contains this")
    args = ap.parse_args()
    n, steps = args.particles, args.steps
    ctx = create_context(headless=True)
    print(f"OpenGL: {describe(ctx)}")
    print(f"{n:,} particles, {steps} steps each, fixed step 1/60 s")
    on_death = {"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                "Events.LifetimeMin": 1.0, "Events.LifetimeMax": 1.0}
    every = {"ParticleEmitter.GenerateEventsMaterial": "Event_AccelerationRange",
             "Events.AccelerationMin": 0.0}
    cases = [
        ("base (reset, Gravity, integrate, kill)", _project(n)),
        ("+ Collider_Plane", _project(n, "Collider_Plane")),
        ("+ Collider_Sphere", _project(n, "Collider_Sphere")),
        ("+ Collider_Box", _project(n, "Collider_Box")),
        ("+ Event_Lifetime on deaths", _project(n, events=on_death)),
        ("+ Event_AccelerationRange, every particle", _project(n, events=every)),
        ("+ Event_Lifetime + subemitter, 2 per death", _project(n, events=on_death, children=2)),
    ]
    print(f"{'configuration':44} {'ms/step':>8} {'+ms':>7} {'CPU ms':>7} {'+CPU':>7} {'events/step':>12}")
    base = None
    for name, project in cases:
        if args.only not in name and base is not None:
            continue
        runs = [bench(ctx, project, n, steps) for _ in range(args.repeat)]
        ms, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        if base is None:
            base = (ms, cpu)
            added = f"{'':>7} {cpu:7.1f} {'':>7}"
        else:
            added = f"{ms - base[0]:+7.1f} {cpu:7.1f} {cpu - base[1]:+7.1f}"
        print(f"{name:44} {ms:8.1f} {added} {runs[0][2] / steps:12,.0f}")
    ctx.release()


if __name__ == "__main__":
    main()
