"""Rendering: what a frame costs to draw, at 10,000 and 100,000 live particles, 640x360.

    python benchmarks/bench_render.py [--repeat 5]

Three kinds of emitter, each a pool of live particles spread through the view (a 6 m cube
10 m in front of the camera), every frame drawn and read back as the offline player does:

    billboard     ParticlesDefault, additive, Identity order (the live list as it is)
    sorted alpha  ParticlesOverLife with the smoke flipbook, alpha-blended, SortingType Depth
    mesh          a 20-triangle stone chip (a flat-shaded icosahedron, 0.1 m), opaque, lit by a
                  directional light; mesh cost grows with triangles x particles (the
                  samples' 320-triangle rock costs 16x this)

The cases run interleaved (A B C A B C ...), so a burst of load from other work on the
machine hits them alike; each line gives the min / median / max wall time of a frame and the
min CPU time of this process (llvmpipe's threads included), and the ratios to the billboard.
Then the parts of a 100,000-billboard frame, each timed alone the same way: the empty frame
(clear, resolve, read back: the floor any frame pays), the live list, the sort alone (its
share of the sorted frame), the vertex stage alone (rasterizer discard), and the full draw at
a sprite size that covers nothing (1.5 px, the minimum) against the real size (fill).
Prints the figures for docs/benchmarks.md ("Rendering").
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import moderngl
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.commands.play import load_for_play, play_offline  # noqa: E402
from kzplayer.gpu.context import create_context, describe  # noqa: E402
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE  # noqa: E402
from kzplayer.meshes import load_mesh  # noqa: E402
from kzplayer.project.catalog import catalog  # noqa: E402
from kzplayer.render.camera import Camera  # noqa: E402
from kzplayer.render.frame import EmitterDraw, Frame  # noqa: E402
from kzplayer.render.lights import SceneLights  # noqa: E402
from kzplayer.render.live_list import LiveList  # noqa: E402
from kzplayer.render.materials import stock_material  # noqa: E402
from kzplayer.render.renderer import Renderer  # noqa: E402
from kzplayer.render.sort import DEPTH, Sorter  # noqa: E402
from kzplayer.resources import samples_dir  # noqa: E402
from _timing import interleaved  # noqa: E402  (this folder: the benchmarks run as scripts)

SIZE = (640, 360)
ASSETS = samples_dir() / "assets"


def pool(ctx, n: int):
    rng = np.random.default_rng(0)
    a = np.zeros(n, PARTICLE_DTYPE)
    a["position"] = rng.uniform(-3, 3, (n, 3))
    a["lifetime"], a["age"] = 2.0, rng.uniform(0, 2, n)
    a["rotation"] = rng.uniform(-3, 3, (n, 3))
    a["scale"], a["color"], a["flags"] = 1.0, 1.0, FLAG_ALIVE
    return ctx.buffer(a.tobytes())


def values(props: dict):
    cat = catalog()
    return lambda name: props[name] if name in props else getattr(cat.property(name), "default", None)



def chip():
    import tempfile

    import trimesh
    ico = trimesh.creation.icosphere(subdivisions=0, radius=1.0)
    ico.unmerge_vertices()
    path = Path(tempfile.mkdtemp()) / "chip.glb"
    path.write_bytes(ico.export(file_type="glb"))
    return load_mesh(path)


def emitters(buf, n: int):
    cat = catalog()
    rock = chip()
    files = lambda name: ASSETS / name        # noqa: E731
    return {
        "billboard": EmitterDraw("b", buf, n, stock_material(cat, "ParticlesDefault"), values({})),
        "sorted alpha": EmitterDraw("s", buf, n, stock_material(cat, "ParticlesColorOverLife"), values({
            "Particle.Texture": "textures/smoke_sheet.png", "Particle.TextureGrid": (4, 4),
            "Particle.Size": 0.1}), files=files, blend="Alpha", sorting="Depth"),
        "mesh": EmitterDraw("m", buf, n, stock_material(cat, "ParticlesColorOverLife"), values({
            "Particle.ReceiveLight": True, "ParticlesOverLife.OpacityEnd": 1.0, "ParticlesOverLife.ScaleStart": (0.05, 0.05, 0.05),
            "ParticlesOverLife.ScaleEnd": (0.05, 0.05, 0.05)}), mesh=rock, blend="Opaque"),
    }


def line(name: str, walls, cpus, base=None) -> str:
    ms = [w * 1000 for w in walls]
    ratio = f"   {statistics.median(walls) / base:4.2f}x" if base else ""
    return (f"  {name:<34} {min(ms):7.1f} {statistics.median(ms):7.1f} {max(ms):7.1f} ms"
            f"   cpu {min(cpus) * 1000:7.1f} ms{ratio}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-demo", action="store_true", help="skip the end-to-end demo renders")
    args = ap.parse_args()
    ctx = create_context()
    print(f"device: {describe(ctx)}; {SIZE[0]}x{SIZE[1]}; interleaved x{args.repeat}: min / median / max wall per frame")
    world = np.eye(4)
    world[2, 3] = 10.0
    camera = Camera(world)
    lights = SceneLights(directional=[(np.array([0.3, -0.8, -0.5]) / np.linalg.norm([0.3, -0.8, -0.5]),
                                       np.ones(3))])
    renderer = Renderer(ctx, SIZE)
    for n in (10_000, 100_000):
        buf = pool(ctx, n)
        ems = emitters(buf, n)

        def frame(em):
            def run():
                renderer.draw(Frame(emitters=[em], lights=lights), camera)
                renderer.read()
            return run
        results = interleaved({name: frame(em) for name, em in ems.items()}, args.repeat)
        base = statistics.median(results["billboard"][0])
        print(f"{n:,} live particles: draw + read back")
        for name, (walls, cpus) in results.items():
            print(line(name, walls, cpus, base))

        # the parts of a frame, each alone
        live = LiveList(ctx, renderer.programs)
        sorter = Sorter(ctx, renderer.programs)

        def live_list():
            live.update(buf, n)
            ctx.finish()

        def sort_only():
            sorter.sort(live, n, DEPTH, np.eye(4), camera.view)
            ctx.finish()

        def empty():
            renderer.draw(Frame(), camera)
            renderer.read()

        tiny = EmitterDraw("t", buf, n, ems["billboard"].material, values({"Particle.Size": 1e-5}))

        def vertex_only():
            ctx.enable(moderngl.RASTERIZER_DISCARD)
            try:
                renderer.draw(Frame(emitters=[ems["billboard"]]), camera)
                ctx.finish()
            finally:
                ctx.disable(moderngl.RASTERIZER_DISCARD)

        def no_fill():
            renderer.draw(Frame(emitters=[tiny]), camera)
            renderer.read()
        live_list()
        parts = interleaved({"empty frame (clear, resolve, read)": empty, "live list (3 compute passes)": live_list,
                             "sort alone (Depth)": sort_only, "billboards, vertex stage only": vertex_only,
                             "billboards at 1.5 px (no fill)": no_fill, "billboards, full": frame(ems["billboard"])},
                            args.repeat)
        print(f"{n:,} live particles: the parts, each alone (ratio to the full billboard frame)")
        full = statistics.median(parts["billboards, full"][0])
        for name, (walls, cpus) in parts.items():
            print(line(name, walls, cpus, full))
        sort_share = statistics.median(parts["sort alone (Depth)"][0]) / statistics.median(results["sorted alpha"][0])
        print(f"  the sort is {sort_share:.0%} of a sorted alpha frame; {sorter.memory / 1024:.0f} KiB of sort buffers")
        live.release()
        sorter.release()
        buf.release()
    renderer.release()

    if args.no_demo:
        return
    project, graph = load_for_play(None)
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("mp4", "gif"):
            t = time.perf_counter()
            play_offline(project, graph, SIZE, n_frames=300, fps=60.0,
                         output=str(Path(tmp) / f"demo.{ext}"), ctx=ctx)
            print(f"demo, 300 frames at {SIZE[0]}x{SIZE[1]} to .{ext}: {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
