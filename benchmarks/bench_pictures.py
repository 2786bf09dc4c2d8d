"""The picture's features (issue 22) against a plain billboard frame, 640x360, interleaved.

    python benchmarks/bench_pictures.py [--repeat 5] [--particles 10000]

The base frame: a ground plane and a box (Model3D), lit by a directional light, and
10,000 additive billboards (ParticlesDefault) in a 6 m cube 10 m in front of the camera,
drawn and read back as the offline player does. Each case is the base frame plus one thing:

    bloom      Scene.ToneMapping ACES, bloom of radius 0.03 (sigma 11 px: the blur at mip level 2)
    shadows    the light casts shadows (one 2048^2 map: the ground and the box drawn again)
    msaa 4     a renderer of 4 samples a pixel (float colour and depth renderbuffers, resolved)
    lightning  + 200 Particles_Lightning bolts of 32 segments (3 px core, glow x 5)

Each line: min / median / max wall time per frame, the min CPU time of this process
(llvmpipe's threads included), and the ratio of medians to the base frame. Prints the
figures for docs/benchmarks.md ("The picture").
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.gpu.context import create_context, describe  # noqa: E402
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE  # noqa: E402
from kzplayer.gpu.views import RecordBuffers  # noqa: E402
from kzplayer.meshes import MeshData  # noqa: E402
from kzplayer.project.catalog import catalog  # noqa: E402
from kzplayer.render.camera import Camera  # noqa: E402
from kzplayer.render.frame import EmitterDraw, Frame, ModelDraw  # noqa: E402
from kzplayer.render.lights import SceneLights  # noqa: E402
from kzplayer.render.materials import stock_material  # noqa: E402
from kzplayer.render.post import PostSettings  # noqa: E402
from kzplayer.render.renderer import Renderer  # noqa: E402
from _timing import interleaved  # noqa: E402  (this folder: the benchmarks run as scripts)

SIZE = (640, 360)


def records(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = np.zeros(n, PARTICLE_DTYPE)
    a["position"] = rng.uniform(-3, 3, (n, 3))
    a["lifetime"], a["age"] = 2.0, rng.uniform(0, 2, n)
    a["scale"], a["color"], a["flags"] = 1.0, 1.0, FLAG_ALIVE
    return a


def values(props: dict):
    cat = catalog()
    return lambda name: props[name] if name in props else getattr(cat.property(name), "default", None)


def box(half: float, centre) -> MeshData:
    c = np.asarray(centre, np.float32)
    corners = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float32)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    positions, normals, indices = [], [], []
    for f in faces:
        quad = corners[list(f)]
        n = np.cross(quad[1] - quad[0], quad[2] - quad[0])
        base = len(positions)
        positions += list(c + half * quad)
        normals += [n / np.linalg.norm(n)] * 4
        indices += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return MeshData("box", np.array(positions, np.float32), np.array(normals, np.float32), None,
                    np.array(indices, np.uint32))


def ground(half: float, height: float) -> MeshData:
    p = np.array([(-half, height, -half), (half, height, -half), (half, height, half), (-half, height, half)], np.float32)
    return MeshData("ground", p, np.tile(np.array([0, 1, 0], np.float32), (4, 1)), None,
                    np.array([[0, 2, 1], [0, 3, 2]], np.uint32))


def line(name: str, walls, cpus, base=None) -> str:
    ms = [w * 1000 for w in walls]
    ratio = f"   {statistics.median(walls) / base:4.2f}x" if base else ""
    return (f"  {name:<12} {min(ms):7.1f} {statistics.median(ms):7.1f} {max(ms):7.1f} ms"
            f"   cpu {min(cpus) * 1000:7.1f} ms{ratio}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--particles", type=int, default=10_000)
    args = ap.parse_args()
    ctx = create_context()
    print(f"device: {describe(ctx)}; {SIZE[0]}x{SIZE[1]}; {args.particles:,} billboards; "
          f"interleaved x{args.repeat}: min / median / max wall per frame")
    world = np.eye(4)
    world[:3, 3] = (0.0, 1.0, 10.0)
    camera = Camera(world)
    cat = catalog()
    grey = values({"Model3D.Color": (0.6, 0.6, 0.6, 1.0)})
    models = [ModelDraw("ground", ground(20.0, -3.0), np.eye(4), grey),
              ModelDraw("box", box(0.8, (1.5, -2.2, -1.0)), np.eye(4), grey, order=1)]
    direction = np.array([0.4, -0.8, -0.3]) / np.linalg.norm([0.4, -0.8, -0.3])
    plain = SceneLights(directional=[(direction, np.ones(3))])
    shadowed = SceneLights(directional=[(direction, np.ones(3))], shadows=[("DirectionalLight", 0)])
    sprites = RecordBuffers(ctx, records(args.particles, 0))
    bolts = RecordBuffers(ctx, records(200, 1))
    billboard = EmitterDraw("b", sprites, args.particles, stock_material(cat, "ParticlesDefault"), values({}), order=2)
    lightning = EmitterDraw("l", bolts, 200, stock_material(cat, "Particles_Lightning"), values({
        "Lightning.Target": (0.5, -1.5, 0.2), "Lightning.Width": 3.0, "Lightning.Segments": 32}), order=3)
    plain_renderer, msaa_renderer = Renderer(ctx, SIZE), Renderer(ctx, SIZE, samples=4)
    bloom = PostSettings(tone_mapping="ACES", bloom_intensity=0.5, bloom_threshold=1.0, bloom_radius=0.03)

    def case(renderer, lights=plain, post=PostSettings(), extra=()):
        frame = Frame(emitters=[billboard, *extra], models=models, lights=lights, post=post)

        def run():
            renderer.draw(frame, camera)
            renderer.read()
        return run
    results = interleaved({
        "billboard": case(plain_renderer),
        "bloom": case(plain_renderer, post=bloom),
        "shadows": case(plain_renderer, lights=shadowed),
        "msaa 4": case(msaa_renderer),
        "lightning": case(plain_renderer, extra=[lightning]),
    }, args.repeat)
    base = statistics.median(results["billboard"][0])
    for name, (walls, cpus) in results.items():
        print(line(name, walls, cpus, base))
    for r in (plain_renderer, msaa_renderer):
        r.release()
    sprites.release()
    bolts.release()


if __name__ == "__main__":
    main()
