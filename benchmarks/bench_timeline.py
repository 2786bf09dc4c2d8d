"""The timeline: restart, step back and seek, against the floor of re-running the same frames
from 0 (docs/benchmarks.md, "Timeline").

Per sample, a Player (320x180, seed 1) first plays 10 s in frames of 1/60 s, as a script or
a seek's re-run does (the Player keeps its checkpoints on the way where it has them), then:

    play 10 s  those 600 frames themselves, from a restart (what keeping checkpoints costs)
    restart    Player.restart()
    back 5 s   at 5 s (a seek there first, untimed), one frame back: seek(5 - 1/60)
    back 10 s  the same at 10 s
    scrub      8 seeks to random times in 0-10 s on the 1/60 grid, back and forth (fixed seed)
    floor      a bare Simulation stepped from 0 frame by frame, nothing drawn: what a re-run
               from 0 to each case's time costs at the least (its ratio is the case's)

    python benchmarks/bench_timeline.py [--rounds 3]                 # this checkout
    python benchmarks/bench_timeline.py --before ../before           # A B A B against another one

With --before, every round runs each checkout in its own process, alternated (this, the
other, this, ...), so the machine's load falls on both alike; min / median / max of the
wall time over the rounds, the median CPU time of the process (llvmpipe's threads
included), and the ratios of the medians, wall and CPU, to the floor's (the same code in
both checkouts: its median over every round of both).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLES = ("demo_fountain.kzm", "07_death_sparks.kzm", "12_spell.kzm")
DT = 1 / 60
PLAYED = 600                      # frames played first: 10 s
SCRUB = 8


def scrub_frames() -> list[int]:
    import random
    rng = random.Random(7)
    return [rng.randrange(0, PLAYED + 1) for _ in range(SCRUB)]


def timed(fn) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def one_round(tree: Path) -> dict:
    """Every case once per sample, in this process, with the kzplayer of `tree`."""
    sys.path.insert(0, str(tree))
    import kzplayer
    from kzplayer.bindings import resolve
    from kzplayer.gpu import Simulation
    from kzplayer.gpu.context import create_context
    from kzplayer.render.player import Player

    ctx = create_context(headless=True)
    out = {}
    for name in SAMPLES:
        project = kzplayer.load(str(kzplayer.sample(name)))
        graph = resolve(project)
        player = Player(ctx, project, graph, (320, 180), seed=1)
        # the floor: a bare Simulation's cumulative wall time at each frame from 0
        bare = Simulation(ctx, project, graph, seed=1, leave_out_broken=True)
        start, cpu, cumulative = time.perf_counter(), time.process_time(), [(0.0, 0.0)]
        for _ in range(PLAYED):
            bare.step_frame(DT)
            bare.take_stats()
            ctx.finish()
            cumulative.append((time.perf_counter() - start, time.process_time() - cpu))
        bare.release()
        player.seek(1.0, DT)              # warm: every program has run once
        cases = {}

        def play():
            player.restart()
            for _ in range(PLAYED):
                player.step(DT)
            ctx.finish()
        cases["play 10 s"] = (*timed(play), PLAYED, PLAYED)
        cases["restart"] = (*timed(player.restart), 0, 0)      # (wall, CPU, frames from 0, frames re-run)
        for label, at in (("back 5 s", 300), ("back 10 s", 600)):
            player.seek(at * DT, DT)
            stepped = player.frame
            cases[label] = (*timed(lambda: player.seek((at - 1) * DT, DT)), at - 1)
            cases[label] += (player.frame - stepped,)
        targets = scrub_frames()
        player.seek(PLAYED * DT, DT)
        stepped = player.frame

        def scrub():
            for frame in targets:
                player.seek(frame * DT, DT)
        cases["scrub"] = (*timed(scrub), sum(targets), player.frame - stepped)
        player.release()
        out[name] = {"cases": cases, "floor": cumulative}
    ctx.release()
    return out


def floor_of(cumulative: list, label: str, kind: int) -> float:
    """The floor's wall (kind 0) or CPU (1) seconds of a case: its frames from 0."""
    if label == "restart":
        return 0.0
    frames = {"scrub": scrub_frames(), "play 10 s": [PLAYED], "back 5 s": [299], "back 10 s": [599]}[label]
    return sum(cumulative[f][kind] for f in frames)


def report(rounds: dict[str, list[dict]]) -> None:
    """The table; the floor is the same code in every checkout: its median over all rounds."""
    print(f"{'sample':20} {'case':10} {'tree':7} {'min ms':>8} {'median':>8} {'max':>8} {'CPU med':>8} "
          f"{'floor':>8} {'/floor':>7} {'CPU/fl.':>7} {'re-run':>7} {'of':>6}")
    for name in SAMPLES:
        for label in ("play 10 s", "restart", "back 5 s", "back 10 s", "scrub"):
            every = [r[name]["floor"] for runs in rounds.values() for r in runs]
            floor, floor_cpu = (statistics.median(floor_of(c, label, kind) for c in every) for kind in (0, 1))
            for tree, runs in rounds.items():
                wall = [r[name]["cases"][label][0] for r in runs]
                cpu = [r[name]["cases"][label][1] for r in runs]
                of, rerun = runs[-1][name]["cases"][label][2:4]
                ratios = (f"{statistics.median(wall) / floor:7.3f} {statistics.median(cpu) / floor_cpu:7.3f}"
                          if floor else f"{'-':>7} {'-':>7}")
                print(f"{name:20} {label:10} {tree:7} {min(wall) * 1e3:8.1f} {statistics.median(wall) * 1e3:8.1f} "
                      f"{max(wall) * 1e3:8.1f} {statistics.median(cpu) * 1e3:8.1f} {floor * 1e3:8.1f} {ratios} "
                      f"{rerun:7d} {of:6d}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="another checkout to alternate with, one process per round each")
    parser.add_argument("--one-round", help=argparse.SUPPRESS)       # a worker: one round of that tree, as JSON
    args = parser.parse_args()
    if args.one_round:
        print(json.dumps(one_round(Path(args.one_round))))
        return
    trees = {"after": HERE.parent}
    if args.before:
        trees = {"before": Path(args.before).resolve(), **trees}
    rounds: dict[str, list[dict]] = {tree: [] for tree in trees}
    for k in range(args.rounds):
        for tree, path in trees.items():
            done = subprocess.run([sys.executable, __file__, "--one-round", str(path)], capture_output=True,
                                  text=True, check=True, env={**os.environ, "PYTHONPATH": str(path)})
            rounds[tree].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"round {k + 1}: {tree} done", file=sys.stderr)
    report(rounds)


if __name__ == "__main__":
    main()
