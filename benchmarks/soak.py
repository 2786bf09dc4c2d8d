"""Soak: the events sample (sample_projects/07_death_sparks.kzm) headless for one hour of
SIMULATED time at 60 Hz: 216,000 frames of one step each, as `kzplayer play` steps it.

Checks on every frame that no emitter holds more live particles than its pool
(ParticleEmitter.MaximumAmount, after bindings) and that the figures balance (alive now =
alive before + emitted - died); measures the process's resident memory (RSS) at the start
(after the first frame: shaders compiled), its peak and at the end, and the wall-clock and
CPU time. Exit code 1 when a check fails or memory grows by more than SOAK_GROWTH_MB.

    python benchmarks/soak.py                 # 216,000 frames (make soak)
    SOAK_STEPS=6000 python benchmarks/soak.py # a shorter run
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

STEPS = int(os.environ.get("SOAK_STEPS", 60 * 60 * 60))
GROWTH_MB = float(os.environ.get("SOAK_GROWTH_MB", 20))
FPS = 60.0


def rss_mb() -> float:
    """Resident memory of this process now, in MiB (Linux /proc)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    import kzplayer
    from kzplayer.bindings import resolve
    from kzplayer.gpu import Simulation
    from kzplayer.gpu.context import create_context

    project = kzplayer.load(REPO / "sample_projects" / "07_death_sparks.kzm")
    graph = resolve(project)
    ctx = create_context(headless=True)
    sim = Simulation(ctx, project, graph)
    pools = {em.path: int(graph.value(em.item, "ParticleEmitter.MaximumAmount")) for em in sim.emitters}
    capacity = {em.path: em.capacity for em in sim.emitters}
    alive = {path: 0 for path in pools}
    totals = {path: {"emitted": 0, "died": 0, "stalled": 0, "events": 0} for path in pools}
    peak_alive = {path: 0 for path in pools}
    problems = []
    samples = []                     # (frame, rss) every 6,000 frames: one simulated minute... x100
    wall0, cpu0 = time.perf_counter(), time.process_time()
    start_rss = peak_rss = None
    for frame in range(STEPS):
        sim.step_frame(1.0 / FPS)
        for path, s in sim.stats.items():
            if s.alive > pools[path] or s.alive > capacity[path]:
                problems.append(f"frame {frame}: {path} holds {s.alive} live particles, its pool {pools[path]}")
            if s.alive != alive[path] + s.emitted - s.died:
                problems.append(f"frame {frame}: {path}: {alive[path]} + {s.emitted} - {s.died} != {s.alive}")
            alive[path] = s.alive
            peak_alive[path] = max(peak_alive[path], s.alive)
            t = totals[path]
            t["emitted"] += s.emitted
            t["died"] += s.died
            t["stalled"] += s.stalled
            t["events"] += s.events_written
        if frame == 0:
            start_rss = peak_rss = rss_mb()
        if frame % 600 == 0:
            now = rss_mb()
            peak_rss = max(peak_rss, now)
            if frame % 6000 == 0:
                samples.append((frame, round(now, 1)))
                print(f"frame {frame:>7,} ({frame / FPS / 60:5.1f} min simulated): RSS {now:7.1f} MiB, "
                      f"alive {dict((p.rsplit('/', 1)[-1], n) for p, n in alive.items())}", flush=True)
        if len(problems) > 20:
            break
    end_rss = rss_mb()
    peak_rss = max(peak_rss or end_rss, end_rss)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    sim.release()
    ctx.release()
    growth = end_rss - (start_rss or end_rss)
    summary = {
        "frames": frame + 1, "simulated_seconds": (frame + 1) / FPS,
        "rss_mib": {"start": round(start_rss, 1), "peak": round(peak_rss, 1), "end": round(end_rss, 1),
                    "growth": round(growth, 1)},
        "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
        "ms_per_frame": round(1000 * wall / (frame + 1), 3),
        "pools": pools, "peak_alive": peak_alive, "totals": totals,
        "rss_samples": samples, "problems": problems[:20],
    }
    print(json.dumps(summary, indent=1))
    ok = not problems and growth <= GROWTH_MB
    print("soak:", "OK" if ok else "FAILED", f"(alive <= MaximumAmount on all {frame + 1:,} frames; "
          f"RSS start {start_rss:.1f}, peak {peak_rss:.1f}, end {end_rss:.1f} MiB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
