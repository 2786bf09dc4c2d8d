"""What only a real GPU can confirm: run this on a machine with one (a few minutes).

llvmpipe runs dispatches one after another on coherent memory and its atomics come out in
invocation order, so a missing glMemoryBarrier or an order that follows the hardware's
scheduling shows nothing there. This script prints which OpenGL it got (check that the
renderer is the GPU, not llvmpipe: on a headless NVIDIA machine EGL must find
libEGL_nvidia through glvnd), the limits kzplayer sizes pools by, then

1. the barrier- and order-sensitive tests (pytest, on this OpenGL): the recorded barrier
   rules, free-stack integrity and slot order, Event Buffer order, subemitter children,
   bit-identical dumps per seed, the Schedule count against the CPU reference (doubles),
   the std430 layout, and the frame pipeline's own checks (tests/gpu/test_pipeline.py: the
   fused system against its emitters alone, the live list against a walk of every slot,
   texel-buffer images against storage blocks, both emitter scans, late stats);
2. a stress run at GPU scale, three times: 200,000 particles dying over the run with a
   collider, a death event each and a subemitter making 2 children per death. Every step,
   the bytes of both pools and of the Event Buffer are hashed; the three runs must agree
   step for step, and the pool bookkeeping must hold (live + free = capacity, no slot both,
   the live list = the live slots, ascending);
3. throughput: particle-steps per second of the realistic stack of benchmarks/bench_frame.py
   (Schedule emission, Gravity + Drag + Wind + CurlNoise, a plane collider, Event_Lifetime, a
   FromEvents subemitter) at 1,000,000 and 10,000,000 slots (as many systems as the driver
   needs to hold them: one texel buffer and one dispatch each), steps between glFinish calls.
   The target on a current data-centre GPU is 1e10 particle-steps/s. On llvmpipe only the
   1,000,000 size runs unless --sizes asks for more.

    python benchmarks/gpu_check.py [--particles N] [--steps K] [--sizes 1000000,10000000]

Exit status 0 when everything agrees. (Float results are compared run to run on one
GPU only: another driver rounds transcendental functions differently; see docs/player.md.)
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_events import _initial, _project  # noqa: E402
from bench_frame import Realistic  # noqa: E402

from kzplayer.gpu import Simulation, create_context  # noqa: E402
from kzplayer.gpu import layout as L  # noqa: E402
from kzplayer.gpu.events import read_events  # noqa: E402
from kzplayer.gpu.simulation import max_pool, system_limit  # noqa: E402

TESTS = [
    "tests/gpu/test_barriers.py",
    "tests/gpu/test_pool.py",
    "tests/gpu/test_lifetime.py",
    "tests/gpu/test_layout.py",
    "tests/gpu/test_schedule.py",
    "tests/gpu/test_events.py",
    "tests/gpu/test_subemitters.py",
    "tests/gpu/test_frame.py",
    "tests/gpu/test_colliders.py",
    "tests/gpu/test_pipeline.py",
]


def describe(ctx) -> None:
    info = ctx.info
    print(f"GL_VENDOR   {info.get('GL_VENDOR')}")
    print(f"GL_RENDERER {info.get('GL_RENDERER')}")
    print(f"GL_VERSION  {info.get('GL_VERSION')}")
    for key in ("GL_MAX_COMPUTE_WORK_GROUP_COUNT", "GL_MAX_SHADER_STORAGE_BLOCK_SIZE",
                "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"):
        print(f"{key:40} {info.get(key)}")
    print(f"{'largest pool (max_pool)':40} {max_pool(ctx):,}")
    print(f"{'largest system (system_limit)':40} {system_limit(ctx, True):,}")
    for key in ("GL_MAX_TEXTURE_BUFFER_SIZE", "GL_MAX_UNIFORM_BLOCK_SIZE"):
        print(f"{key:40} {info.get(key)}")
    if "llvmpipe" in str(info.get("GL_RENDERER", "")).lower():
        print("WARNING: this is llvmpipe, not a GPU: the checks below prove nothing new here")


def run_tests() -> bool:
    print(f"\n== pytest: {len(TESTS)} files on this OpenGL")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS],
                          cwd=ROOT, env=os.environ.copy())
    print(f"   {time.perf_counter() - started:.1f} s")
    return done.returncode == 0


def stress_run(ctx, n: int, steps: int) -> tuple[list[str], list[str]]:
    """(a digest per step of both pools and the Event Buffer, bookkeeping problems)."""
    on_death = {"ParticleEmitter.GenerateEventsMaterial": "Event_Lifetime",
                "Events.LifetimeMin": 1.0, "Events.LifetimeMax": 1.0}
    sim = Simulation(ctx, _project(n, "Collider_Sphere", events=on_death, children=2), seed=1)
    digests, problems = [], []
    try:
        source = sim.emitters[0]
        source.particles.write(_initial(n, steps, np.random.default_rng(7)).tobytes())
        state = source.buffers.read_state()
        state["free_count"] = 0
        source.buffers.state.write(state.tobytes())
        for step in range(steps):
            sim.step()
            digest = hashlib.sha256()
            for em in sim.emitters:
                records = em.buffers.read_records()
                digest.update(records.tobytes())
                live = np.flatnonzero(records["flags"] & L.FLAG_ALIVE)
                free = em.buffers.read_free_list()
                if len(live) + len(free) != em.capacity or len(np.union1d(live, free)) != em.capacity:
                    problems.append(f"step {step}, {em.item.name}: {len(live)} live + {len(free)} free "
                                    f"!= {em.capacity} slots, or a slot both")
                if not np.array_equal(em.live.read(), live):
                    problems.append(f"step {step}, {em.item.name}: the live list is not the live slots, ascending")
            header, events = read_events(source)
            digest.update(events.tobytes())
            if np.any(np.diff(events["particle"].astype(np.int64)) <= 0):
                problems.append(f"step {step}: Event Buffer records not in slot order")
            digests.append(digest.hexdigest())
        stats = sim.stats[sim.emitters[1].path]
        if stats.alive == 0:
            problems.append("the subemitter made no children: the stress run tested nothing")
    finally:
        sim.release()
    return digests, problems


def throughput(ctx, slots: int, steps: int) -> tuple[float, float, int]:
    """(particle-steps per second, ms per step, live particles) of the realistic stack with
    `slots` slots in all: 80 % source pools, 20 % subemitter pools, 70 % of the source
    slots live, spread over as many systems as the driver needs."""
    per_system = system_limit(ctx, True)
    systems = max(-(-slots // per_system), 1)
    source, sub = int(slots * 0.8) // systems, int(slots * 0.2) // systems
    source, sub = min(source, max_pool(ctx)), min(sub, max_pool(ctx))
    case = Realistic(ctx, source=source, sub=sub, alive=int(source * 0.7), systems=systems)
    try:
        ctx.finish()
        started = time.perf_counter()
        walked = 0
        for _ in range(steps):
            case.step()
        ctx.finish()
        elapsed = time.perf_counter() - started
        walked = case.live()
        case.check()
        return walked * steps / elapsed, elapsed / steps * 1e3, walked
    finally:
        case.release()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--particles", type=int, default=200_000)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--sizes", default="", help="slots of the throughput runs (comma list); "
                    "default 1,000,000 and 10,000,000 (1,000,000 on llvmpipe)")
    ap.add_argument("--no-tests", action="store_true", help="only the stress and throughput runs")
    args = ap.parse_args()
    ctx = create_context(headless=True)
    describe(ctx)
    cpu = "llvmpipe" in str(ctx.info.get("GL_RENDERER", "")).lower()
    sizes = [int(s) for s in args.sizes.split(",") if s] or ([1_000_000] if cpu else [1_000_000, 10_000_000])
    ok = True
    if not args.no_tests:
        ok = run_tests() and ok
    print(f"\n== stress: {args.particles:,} particles, {args.steps} steps, 3 runs")
    runs = []
    for k in range(3):
        started = time.perf_counter()
        digests, problems = stress_run(ctx, args.particles, args.steps)
        print(f"   run {k + 1}: {time.perf_counter() - started:.1f} s, last digest {digests[-1][:16]}")
        for problem in problems[:5]:
            print(f"   PROBLEM {problem}")
        ok = ok and not problems
        runs.append(digests)
    for step, (a, b, c) in enumerate(zip(*runs)):
        if not a == b == c:
            print(f"   DIFFER from step {step}: pools or events are not repeatable on this GPU")
            ok = False
            break
    else:
        print("   the three runs agree at every step")
    print("\n== throughput: the realistic stack (target on a data-centre GPU: 1e10 particle-steps/s)")
    for slots in sizes:
        rate, ms, live = throughput(ctx, slots, steps=20)
        print(f"   {slots:>12,} slots, {live:>11,} live: {rate:10.3g} particle-steps/s, {ms:8.2f} ms per step")
    ctx.release()
    print("\nPASS" if ok else "\nFAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
