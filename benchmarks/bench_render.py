"""Rendering: the default billboard drawn from a particle pool and read back, per frame, at
640x360, for pools of 10,000 and 100,000 live particles spread through the view; then the
built-in demo rendered to MP4 and GIF end to end (load, simulate, draw, encode).

    python benchmarks/bench_render.py [--repeat 10]

Prints the figures for docs/play.md ("Figures").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import best_of  # noqa: E402  (this folder: the benchmarks run as scripts)
from kzplayer.commands.play import load_for_play, play_offline, reader  # noqa: E402
from kzplayer.gpu.context import create_context, describe  # noqa: E402
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE  # noqa: E402
from kzplayer.render.billboard import Look, Renderer  # noqa: E402
from kzplayer.render.camera import Camera  # noqa: E402

SIZE = (640, 360)


def pool(ctx, n: int):
    rng = np.random.default_rng(0)
    a = np.zeros(n, PARTICLE_DTYPE)
    a["position"] = rng.uniform(-3, 3, (n, 3))
    a["lifetime"], a["age"] = 2.0, rng.uniform(0, 2, n)
    a["scale"], a["color"], a["flags"] = 1.0, 1.0, FLAG_ALIVE
    return SimpleNamespace(particles=ctx.buffer(a.tobytes()), capacity=n, model=None, look=Look())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    ctx = create_context()
    print(f"device: {describe(ctx)}")
    world = np.eye(4)
    world[2, 3] = 10.0
    camera = Camera(world)
    renderer = Renderer(ctx, SIZE)
    for n in (10_000, 100_000):
        emitter = pool(ctx, n)

        def frame():
            renderer.draw([emitter], camera)
            return renderer.read()

        frame()   # compile and warm up
        seconds, _ = best_of(args.repeat, frame)
        print(f"draw + read back {SIZE[0]}x{SIZE[1]}, {n:,} particles: {seconds * 1000:.1f} ms per frame")
        emitter.particles.release()
    renderer.release()

    project, graph = load_for_play(None)
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("mp4", "gif"):
            t = time.perf_counter()
            play_offline(project, graph, reader(graph), SIZE, n_frames=300, fps=60.0,
                         output=str(Path(tmp) / f"demo.{ext}"), ctx=ctx)
            print(f"demo, 300 frames at {SIZE[0]}x{SIZE[1]} to .{ext}: {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
