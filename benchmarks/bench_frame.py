"""The frame pipeline against its ceiling, interleaved in one run (docs/benchmarks.md).

Every case runs once per round, the rounds repeat (A B C ... A B C ...), so the load of
other work on a shared machine falls on all cases alike; each case reports the
min / median / max over the rounds of its wall time and of this process's CPU time per
step (llvmpipe's rasteriser threads included: on a CPU rasteriser that is the work done).
The ratios are taken from the medians of the same run.

    ceiling    the trivial kernel: `position += velocity * h` over 1,000,000 records of 144
               bytes (the old particle record), one dispatch: the least a step can cost
    gravity    kzplayer's step at 1,000,000 live particles under Gravity (split over the
               fewest pools that fit the driver: two of 500,000 on Mesa)
    numpy      the same step in NumPy, structure-of-arrays float32 with masks
    realistic  the realistic stack at about 1,100,000 slots: Schedule emission (a sphere),
               Gravity + Drag + Wind (gusts) + CurlNoise, a plane collider, Event_Lifetime on
               every death and a FromEvents subemitter making one child per death;
               ~700,000 source particles and ~175,000 children alive, ~11,700 deaths a step
    pool10     the gravity case with only 10 % of the slots live, scattered at random
    emitters K K emitters of 100 particles each (Schedule + Point, Gravity), one frame of
               1/60 s per step: the host cost per frame (K = 1, 10, 50, 200)

    python benchmarks/bench_frame.py [--rounds 5] [--steps 4] [--frames 30] [--only NAME]

The script uses only kzplayer's public interface (Simulation, its emitters' Particle Data
Buffers and states), so it also measures older code: run it from a checkout of it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.gpu import Simulation, create_context  # noqa: E402
from kzplayer.gpu import layout as L  # noqa: E402
from kzplayer.gpu.context import describe  # noqa: E402
from kzplayer.project.model import Item, Project, Property  # noqa: E402
from kzplayer.values import BufferHandle, EnumValue, MaterialRef, Srt3D, Vector  # noqa: E402

H = 1.0 / 60.0
N = 1_000_000
SYSTEM = "Screens/Scene/Particle System"
LEGACY_RECORD = 144     # the ceiling kernel's record: kzplayer's particle record before the split


def _item(type_: str, name: str, props: dict) -> Item:
    item = Item(type_, name)
    for key, value in props.items():
        if key.endswith("Material") and isinstance(value, str):
            value = MaterialRef(value)
        elif isinstance(value, tuple):
            value = Vector(value)
        item.properties[key] = Property(key, value)
    return item


def _project(emitters: list[tuple[str, dict]], affectors=(), colliders=()) -> Project:
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
    system = scene.add_child(Item("ParticleSystem", "Particle System"))
    system.properties["ParticleSystem.IntegrationMethod"] = Property(
        "ParticleSystem.IntegrationMethod", EnumValue("Euler"))
    for name, props in emitters:
        system.add_child(_item("ParticleEmitter", name, props))
    for name, props in affectors:
        system.add_child(_item("ParticleAffector", name, props))
    for name, props in colliders:
        system.add_child(_item("ParticleCollider", name, props))
    return Project(name="bench", root=root)


def _records(n: int, live: int, rng, lifetime=(1e9, 1e9)) -> np.ndarray:
    """n slots of which `live` (chosen at random when fewer than n) hold a particle."""
    records = np.zeros(n, L.PARTICLE_DTYPE)
    which = np.arange(n) if live >= n else np.sort(rng.choice(n, live, replace=False))
    r = records[which]
    r["position"] = rng.uniform(-1, 1, (live, 3))
    r["previous_position"] = r["position"]
    r["velocity"] = rng.uniform(-1, 1, (live, 3))
    r["lifetime"] = rng.uniform(*lifetime, live)
    r["age"] = rng.uniform(0, 1, live) * r["lifetime"] if lifetime[0] < 1e8 else 0.0
    r["mass"] = r["time_scale"] = 1.0
    r["scale"] = r["color"] = 1.0
    r["flags"] = L.FLAG_ALIVE
    r["hash"] = rng.integers(0, 2**32, live, dtype=np.uint32)
    r["serial"] = np.arange(live)
    records[which] = r
    return records


def _fill(sim, em, records: np.ndarray) -> None:
    """Put `records` into the emitter's pool through its Particle Data Buffer and state."""
    em.particles.write(records.tobytes())
    state = em.buffers.read_state()
    live = int(((records["flags"] & L.FLAG_ALIVE) != 0).sum())
    state["free_count"] = len(records) - live
    state["total_emitted"] = live
    em.buffers.state.write(state.tobytes())
    if live < len(records):     # the free stack: the empty slots, lowest on top
        free = np.flatnonzero((records["flags"] & L.FLAG_ALIVE) == 0)[::-1].astype(np.uint32)
        _write_free_stack(em, free)


def _write_free_stack(em, free: np.ndarray) -> None:
    if hasattr(em.buffers, "write_free_list"):
        em.buffers.write_free_list(free)
    else:                       # the pipeline before the frame pipeline v2: a buffer of its own
        em.buffers.sync_for_cpu()
        em.buffers.free_list.write(free.tobytes())


def _pools(ctx, n: int) -> list[int]:
    from kzplayer.gpu.simulation import max_pool
    limit = max_pool(ctx)
    k = -(-n // limit)
    return [n // k + (i < n % k) for i in range(k)]


# -- the cases: each is set up once, then `step()` is timed per round -----------------------

class Ceiling:
    """One dispatch of the trivial kernel over N records of 144 bytes."""
    SOURCE = """#version 430
layout(local_size_x = 64) in;
struct Record { vec3 position; float age; vec3 previousPosition; float lifetime; vec3 velocity; float mass;
                vec4 rest[6]; };
layout(std430, binding = 0) buffer Records { Record records[]; };
uniform float h;
uniform uint count;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        records[i].position += records[i].velocity * h;
    }
}
"""

    def __init__(self, ctx):
        import moderngl
        self.ctx = ctx
        self.barrier = moderngl.SHADER_STORAGE_BARRIER_BIT
        self.program = ctx.compute_shader(self.SOURCE)
        self.program["h"].value = H
        self.program["count"].value = N
        self.buffer = ctx.buffer(_records(N, N, np.random.default_rng(1)).tobytes())
        self.steps_per_call = 1

    def step(self):
        self.buffer.bind_to_storage_buffer(0)
        self.program.run((N + 63) // 64)
        self.ctx.memory_barrier(self.barrier)

    def release(self):
        self.program.release()
        self.buffer.release()


class Gravity:
    def __init__(self, ctx, live_fraction=1.0):
        sizes = _pools(ctx, N)
        gravity = [("Gravity", {"ParticleAffector.AffectorMaterial": "Gravity"})]
        self.sim = Simulation(ctx, _project([(f"Pool {i}", {"ParticleEmitter.MaximumAmount": n})
                                             for i, n in enumerate(sizes)], gravity))
        rng = np.random.default_rng(2)
        self.live = 0
        for em, n in zip(self.sim.emitters, sizes):
            live = int(round(n * live_fraction))
            _fill(self.sim, em, _records(n, live, rng))
            self.live += live
        for _ in range(2):
            self.sim.step()

    def step(self):
        self.sim.step()

    def check(self):
        alive = sum(s.alive for s in self.sim.stats.values())
        assert alive == self.live, (alive, self.live)

    def release(self):
        self.sim.release()


def realistic_project(source: int, sub: int, alive: int, systems: int = 1) -> Project:
    """The realistic stack, in `systems` copies: a Schedule sphere emitting `alive` particles a
    second (lifetime 1 +- 0.5 s) into a pool of `source`, Gravity + Drag + Wind (gusts) +
    CurlNoise, a plane collider, Event_Lifetime on every death and a FromEvents subemitter
    (pool `sub`) making one child (0.25 s) per death."""
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
    for k in range(systems):
        name = "Particle System" if systems == 1 else f"Particle System {k}"
        system = scene.add_child(Item("ParticleSystem", name))
        path = f"Screens/Scene/{name}"
        system.add_child(_item("ParticleEmitter", "Source", {
            "ParticleEmitter.MaximumAmount": source,
            "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
            "ParticleEmitter.EmissionMaterial": "Emitter_Sphere",
            "Emission.Volume": True, "Emission.Radius": 1.0,
            "Emission.Rate": float(alive), "Emission.Lifetime": 1.0, "Emission.LifetimeVariance": 0.5,
            "Emission.InitialVelocityStrength": 2.0,
            "ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
            "Events.LifetimeMin": 1.0, "Events.LifetimeMax": 1.0}))
        system.add_child(_item("ParticleEmitter", "Sub", {
            "ParticleEmitter.MaximumAmount": sub,
            "ParticleEmitter.EmissionCountMaterial": "EmissionCount_FromEvents",
            "ParticleEmitter.EmissionMaterial": "Emitter_FromEvents",
            "Emission.ParticlesPerEvent": 1, "Emission.Lifetime": 0.25,
            "Emission.SourceEventBuffer": BufferHandle("EventBuffer", f"{path}/Source"),
            "Emission.SourceParticleDataBuffer": BufferHandle("ParticleDataBuffer", f"{path}/Source")}))
        for name_, props in (
                ("Gravity", {"ParticleAffector.AffectorMaterial": "Gravity"}),
                ("Drag", {"ParticleAffector.AffectorMaterial": "Drag", "Drag.DragCoefficient": 0.1}),
                ("Wind", {"ParticleAffector.AffectorMaterial": "Wind", "Wind.WindSpeed": 10.0,
                          "Wind.GustAmplitude": 0.3}),
                ("Curl", {"ParticleAffector.AffectorMaterial": "CurlNoise", "CurlNoise.Strength": 1.0,
                          "CurlNoise.Frequency": 0.5})):
            system.add_child(_item("ParticleAffector", name_, props))
        system.add_child(_item("ParticleCollider", "Floor", {
            "ParticleCollider.ColliderMaterial": "Collider_Plane",
            "Node3D.RenderTransformation": Srt3D((1, 1, 1), (0, 0, 0), (0, -2, 0))}))
    return Project(name="bench", root=root)


class Realistic:
    SOURCE, SUB = 900_000, 200_000
    ALIVE = 700_000

    def __init__(self, ctx, source=SOURCE, sub=SUB, alive=ALIVE, systems=1):
        self.sim = Simulation(ctx, realistic_project(source, sub, alive, systems))
        self.alive = alive
        rng = np.random.default_rng(3)
        for em in self.sim.emitters:
            if em.item.name == "Source":
                _fill(self.sim, em, _records(source, alive, rng, lifetime=(0.5, 1.5)))
        for _ in range(3):
            self.sim.step()

    def step(self):
        self.sim.step()

    def live(self) -> int:
        return sum(s.alive for s in self.sim.stats.values())

    def check(self):
        figures = [self.sim.stats[em.path] for em in self.sim.emitters]
        for src, sub in zip(figures[0::2], figures[1::2]):
            assert src.events_written == src.died > 1000 and sub.emitted == src.events_written, (src, sub)
            assert src.alive > self.alive // 2 and sub.alive > 0

    def release(self):
        self.sim.release()


class NumPyGravity:
    def __init__(self, ctx=None):
        p = _records(N, N, np.random.default_rng(1))
        self.pos, self.prev = p["position"].copy(), p["previous_position"].copy()
        self.vel, self.acc = p["velocity"].copy(), np.zeros((N, 3), np.float32)
        self.age, self.life = p["age"].copy(), p["lifetime"].copy()
        self.alive = np.ones(N, bool)
        self.gravity = np.array([0, -9.8, 0], np.float32)
        self.h = np.float32(H)
        self.step()

    def step(self):
        live = self.alive[:, None]
        self.acc[:] = 0.0                                          # reset
        np.add(self.acc, self.gravity, out=self.acc, where=live)   # Gravity
        np.copyto(self.prev, self.pos, where=live)                 # integrate, age
        np.add(self.vel, self.acc * self.h, out=self.vel, where=live)
        np.add(self.pos, self.vel * self.h, out=self.pos, where=live)
        np.add(self.age, self.h, out=self.age, where=self.alive)
        self.alive[self.age >= self.life] = False                  # kill

    def release(self):
        pass


class Emitters:
    """K emitters of 100 particles (steady: Rate 100/s, Lifetime 1 s), stepped a frame at a time."""

    def __init__(self, ctx, k: int):
        emitter = {"ParticleEmitter.MaximumAmount": 110,
                   "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule",
                   "ParticleEmitter.EmissionMaterial": "Emitter_Point",
                   "Emission.Rate": 100.0, "Emission.Lifetime": 1.0}
        gravity = [("Gravity", {"ParticleAffector.AffectorMaterial": "Gravity"})]
        self.sim = Simulation(ctx, _project([(f"E{i}", dict(emitter)) for i in range(k)], gravity))
        self.k = k
        for _ in range(70):                 # past one lifetime: 100 alive each
            self.sim.step_frame(H)

    def step(self):
        self.sim.step_frame(H)

    def check(self):
        alive = [s.alive for s in self.sim.stats.values()]
        assert len(alive) == self.k and min(alive) >= 95, alive

    def release(self):
        self.sim.release()


def _measure(case, ctx, steps: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per step of `steps` steps, the GPU idle at both ends."""
    ctx.finish()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        case.step()
    ctx.finish()
    return ((time.perf_counter() - wall) / steps * 1e3, (time.process_time() - cpu) / steps * 1e3)


def _summary(values: list[float]) -> str:
    return f"{min(values):8.2f} {statistics.median(values):8.2f} {max(values):8.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (A B C ... repeated)")
    ap.add_argument("--steps", type=int, default=4, help="steps per round of the 1M-particle cases")
    ap.add_argument("--frames", type=int, default=30, help="frames per round of the emitter cases")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this (comma list)")
    args = ap.parse_args()
    ctx = create_context(headless=True)
    print(f"OpenGL: {describe(ctx)}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} at the start")
    factories = {
        "ceiling": (lambda: Ceiling(ctx), args.steps),
        "gravity": (lambda: Gravity(ctx), args.steps),
        "numpy": (lambda: NumPyGravity(), args.steps),
        "realistic": (lambda: Realistic(ctx), args.steps),
        "pool10": (lambda: Gravity(ctx, 0.1), args.steps),
        "emitters 1": (lambda: Emitters(ctx, 1), args.frames),
        "emitters 10": (lambda: Emitters(ctx, 10), args.frames),
        "emitters 50": (lambda: Emitters(ctx, 50), args.frames),
        "emitters 200": (lambda: Emitters(ctx, 200), args.frames),
    }
    wanted = [w for w in args.only.split(",") if w]
    names = [n for n in factories if not wanted or any(w in n for w in wanted)]
    cases, steps = {}, {}
    for name in names:
        started = time.perf_counter()
        cases[name] = factories[name][0]()
        steps[name] = factories[name][1]
        print(f"  set up {name:14} in {time.perf_counter() - started:5.1f} s")
    wall = {n: [] for n in names}
    cpu = {n: [] for n in names}
    for _ in range(args.rounds):
        for name in names:
            w, c = _measure(cases[name], ctx, steps[name])
            wall[name].append(w)
            cpu[name].append(c)
    for name in names:
        if hasattr(cases[name], "check"):
            cases[name].check()
    print(f"load average {os.getloadavg()[0]:.2f} at the end; {args.rounds} rounds")
    print(f"{'case':14} {'wall ms per step: min median max':>34}   {'CPU ms per step: min median max':>32}")
    for name in names:
        print(f"{name:14} {_summary(wall[name]):>34}   {_summary(cpu[name]):>32}")
    med = {n: statistics.median(cpu[n]) for n in names}
    medw = {n: statistics.median(wall[n]) for n in names}
    print("\nratios (medians of this run; CPU time, wall time in brackets):")

    def ratio(a, b, label, target):
        if a in med and b in med:
            print(f"  {label:34} {med[a] / med[b]:6.2f}x  ({medw[a] / medw[b]:5.2f}x)   target {target}")
    ratio("gravity", "ceiling", "gravity / ceiling", "<= 2x")
    ratio("gravity", "numpy", "gravity / numpy", "< 1x")
    ratio("realistic", "ceiling", "realistic / ceiling", "<= 5x")
    ratio("pool10", "gravity", "10 % pool / full pool", "<= 0.2x")
    for k, target in ((1, ""), (10, ""), (50, "<= 2 ms"), (200, "<= 5 ms")):
        name = f"emitters {k}"
        if name in med:
            print(f"  {name + ', CPU ms per frame':34} {med[name]:6.2f}    ({medw[name]:5.2f} wall)   "
                  f"{'target ' + target if target else ''}")
    for case in cases.values():
        case.release()
    ctx.release()


if __name__ == "__main__":
    main()
