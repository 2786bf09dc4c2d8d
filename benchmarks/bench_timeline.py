"""The timeline and the GPU timers, interleaved in one run (docs/benchmarks.md, "Timeline").

Per sample, cases alternated round by round (A B C ... A B C ...), min / median / max of the
wall time over the rounds, and the median CPU time of this process (llvmpipe's threads
included):

    restart    Player.restart(): a new Simulation of the same scene, compiled programs kept
    seek       Player.seek(T): restart, then T x 60 frames re-run without drawing
    play       the same T x 60 frames played with Player.advance (no drawing), for the ratio
    timed      the same frames with the GPU timers on (gpu/timers.py): their cost

    python benchmarks/bench_timeline.py [--rounds 3] [--seconds 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kzplayer  # noqa: E402
from kzplayer.bindings import resolve  # noqa: E402
from kzplayer.gpu.context import create_context  # noqa: E402
from kzplayer.render.player import Player  # noqa: E402

from _timing import interleaved  # noqa: E402

SAMPLES = ("demo_fountain.kzm", "07_death_sparks.kzm", "12_spell.kzm")


def cases(ctx, name: str, seconds: float) -> tuple[dict, list]:
    project = kzplayer.load(str(kzplayer.sample(name)))
    graph = resolve(project)
    plain = Player(ctx, project, graph, (320, 180), seed=1)
    timed = Player(ctx, project, graph, (320, 180), seed=1, gpu_timers=True)
    frames = round(seconds * 60)

    def play(player):
        def run():
            player.restart()
            for _ in range(frames):
                player.advance(1 / 60)
            player.flush_stats()
        return run
    return {"restart": plain.restart, "seek": lambda: plain.seek(seconds, 1 / 60),
            "play": play(plain), "timed": play(timed)}, [plain, timed]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    ctx = create_context(headless=True)
    print(f"{'sample':24} {'case':8} {'min ms':>8} {'median':>8} {'max':>8} {'CPU median':>10}")
    for name in SAMPLES:
        fns, players = cases(ctx, name, args.seconds)
        try:
            times = interleaved(fns, args.rounds)
        finally:
            for p in players:
                p.release()
        medians = {}
        for case, (wall, cpu) in times.items():
            medians[case] = statistics.median(wall)
            print(f"{name:24} {case:8} {min(wall) * 1e3:8.0f} {medians[case] * 1e3:8.0f} {max(wall) * 1e3:8.0f} "
                  f"{statistics.median(cpu) * 1e3:10.0f}")
        # the seek re-runs what play plays: the same work, so the ratio says what it adds
        print(f"{name:24} seek/play {medians['seek'] / medians['play']:.2f}   "
              f"timed/play {medians['timed'] / medians['play']:.2f}")
    ctx.release()


if __name__ == "__main__":
    main()
