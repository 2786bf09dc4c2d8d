"""What issue 12's NeL features cost, on whatever OpenGL the machine offers (llvmpipe
without a GPU), interleaved (every case once per round, A B C A B C ...), min / median / max
of wall and CPU time (this process, llvmpipe's threads included: the steadier figure on a
shared machine), and the ratios of the medians against the case without the feature.

    colliders  100,000 live particles in [-1, 1]^3 flying every way, the fused step with
               Gravity and: no collider; a Collider_Plane; a Collider_Sphere; a closed
               10,000-triangle Collider_Mesh (a sphere of radius 0.6 at the centre, ~1/4 of
               the particles inside its box); the same mesh 50 m away (every path misses its
               tree's root box: the stage without the walk); the mesh and the plane together (the
               earliest-hit resolution over two colliders). The particles are written back
               before each round, so every case times the same work.
    events     a frame in which 10,000 particles die (an emitter spawning 10,000 a step with
               lifetime 0), step_frame + take_stats per frame: no listener; a batch listener
               (one HostEventBatch of numpy arrays a frame); a Python callback per event;
               the `play --events` JSON Lines writer.

    python benchmarks/bench_nel.py [--rounds 5] [--steps 10] [--only colliders|events]
                                   [--baseline REF]

--baseline REF also times every mesh case with the collider shaders of git commit REF
(shaders/Collider_Mesh.glsl and shaders/Particles/collider_resolve.glsl as they were there,
the rest as here), interleaved with the others: a before/after of a shader change in one run.
"""
from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kzplayer.gpu import Simulation, create_context  # noqa: E402
from kzplayer.gpu import layout as L  # noqa: E402
from kzplayer.gpu.context import describe  # noqa: E402
from kzplayer.project.model import Item, Project, Property  # noqa: E402
from kzplayer.values import MaterialRef, Srt3D  # noqa: E402

H = 1.0 / 60.0
N = 100_000


def _item(type_: str, name: str, props: dict) -> Item:
    item = Item(type_, name)
    for key, value in props.items():
        if key.endswith("Material"):
            value = MaterialRef(value)
        item.properties[key] = Property(key, value)
    return item


def _project(colliders: list[str], folder: Path) -> Project:
    root = Item("Project", "")
    scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
    system = scene.add_child(Item("ParticleSystem", "Particle System"))
    system.add_child(_item("ParticleEmitter", "Source", {"ParticleEmitter.MaximumAmount": N}))
    system.add_child(_item("ParticleAffector", "Gravity", {"ParticleAffector.AffectorMaterial": "Gravity"}))
    for k, material in enumerate(colliders):
        props = {"ParticleCollider.ColliderMaterial": material, "Collider.Bounce": 0.6}
        if material == "Collider_Plane":
            props["Node3D.RenderTransformation"] = Srt3D((1, 1, 1), (10, 0, 0), (0, -0.8, 0))
        elif material == "Collider_Sphere":
            props["Collider.Radius"] = 0.6
        elif material.startswith("Collider_Mesh"):
            props["ParticleCollider.ColliderMaterial"] = "Collider_Mesh"
            props["Collider.Mesh"] = "Meshes/Ball"
            if material.endswith("far"):        # 50 m above the swarm: every path outside its tree's root box
                props["Node3D.RenderTransformation"] = Srt3D((1, 1, 1), (0, 0, 0), (0, 50, 0))
        system.add_child(_item("ParticleCollider", f"C{k}", props))
    lib = root.add_child(Item("Meshes", "Meshes"))
    lib.add_child(_item("Mesh", "Ball", {"Mesh.File": "ball.glb"}))
    return Project(name="bench", root=root, path=str(folder / "bench.kzm"))


def _records(rng) -> bytes:
    records = np.zeros(N, L.PARTICLE_DTYPE)
    records["position"] = rng.uniform(-1, 1, (N, 3))
    records["previous_position"] = records["position"]
    records["velocity"] = rng.normal(0, 3.0, (N, 3))
    records["lifetime"] = 1e6
    records["mass"] = records["time_scale"] = 1.0
    records["scale"] = records["color"] = 1.0
    records["flags"] = L.FLAG_ALIVE
    records["hash"] = rng.integers(0, 2**32, N, dtype=np.uint32)
    records["serial"] = np.arange(N)
    return records.tobytes()


def _timed(fn, count: int) -> list[tuple[float, float]]:
    out = []
    for _ in range(count):
        w, c = time.perf_counter(), time.process_time()
        fn()
        out.append(((time.perf_counter() - w) * 1e3, (time.process_time() - c) * 1e3))
    return out


def _report(title: str, samples: dict, base: str, unit: str) -> None:
    print(f"\n{title}")
    print(f"{'case':40} {'wall min/median/max ' + unit:>28} {'CPU min/median/max ' + unit:>28} {'CPU ratio':>9}")
    base_cpu = statistics.median(c for _, c in samples[base])
    for name, s in samples.items():
        w = sorted(x for x, _ in s)
        c = sorted(y for _, y in s)
        print(f"{name:40} {w[0]:8.1f} {statistics.median(w):8.1f} {w[-1]:8.1f}   "
              f"{c[0]:8.1f} {statistics.median(c):8.1f} {c[-1]:8.1f}   {statistics.median(c) / base_cpu:8.2f}x")


BASELINE_FILES = ("Collider_Mesh.glsl", "Particles/collider_resolve.glsl")


def _baseline_shaders(ref: str, folder: Path) -> Path:
    """A copy of shaders/ with the collider files of git commit `ref`."""
    from kzplayer.resources import shader_dir
    root = Path(__file__).resolve().parent.parent
    out = folder / "shaders"
    shutil.copytree(shader_dir(), out)
    for name in BASELINE_FILES:
        text = subprocess.run(["git", "show", f"{ref}:shaders/{name}"], cwd=root, check=True,
                              capture_output=True, text=True).stdout
        (out / name).write_text(text)
    return out


@contextlib.contextmanager
def _shaders_from(folder: Path | None):
    """Programs compiled inside read their shader library from `folder` (None: as usual)."""
    if folder is None:
        yield
        return
    from kzplayer.gpu import materials, preprocessor
    saved = preprocessor.shader_dir, materials.shader_dir
    preprocessor.shader_dir = materials.shader_dir = lambda: folder
    try:
        yield
    finally:
        preprocessor.shader_dir, materials.shader_dir = saved


def colliders(ctx, rounds: int, steps: int, baseline: str = "") -> None:
    import trimesh
    folder = Path(tempfile.mkdtemp())
    ball = trimesh.creation.uv_sphere(radius=0.6, count=[52, 50])
    ball.export(folder / "ball.glb")
    cases = {"no collider": [], "Collider_Plane": ["Collider_Plane"], "Collider_Sphere": ["Collider_Sphere"],
             f"Collider_Mesh ({len(ball.faces):,} triangles)": ["Collider_Mesh"],
             "Collider_Mesh, 50 m away": ["Collider_Mesh far"],
             "Collider_Mesh + Collider_Plane": ["Collider_Mesh", "Collider_Plane"]}
    old = _baseline_shaders(baseline, folder) if baseline else None
    data = _records(np.random.default_rng(1))
    sims = {}
    for name, c in cases.items():
        versions = [(name, None)] + ([(f"{name} [{baseline}]", old)] if old and any("Mesh" in m for m in c) else [])
        for label, shaders in versions:
            with _shaders_from(shaders):    # compile (and warm up) with that shader library
                sim = sims[label] = Simulation(ctx, _project(c, folder))
                sim.emitters[0].particles.write(data)
                sim.step()
    samples = {name: [] for name in sims}
    hits = {name: 0 for name in sims}
    try:
        for _ in range(rounds):
            for name, sim in sims.items():
                sim.emitters[0].particles.write(data)
                state = sim.emitters[0].buffers.read_state()
                state["free_count"] = 0
                sim.emitters[0].buffers.state.write(state.tobytes())
                ctx.finish()

                def run(sim=sim):
                    for _ in range(steps):
                        sim.step()
                    ctx.finish()
                samples[name] += [(w / steps, c / steps) for w, c in _timed(run, 1)]
                hits[name] = sim.stats[sim.emitters[0].path].hits
    finally:
        for sim in sims.values():
            sim.release()
    _report(f"colliders: {N:,} particles, ms per step ({rounds} rounds of {steps} steps, interleaved)",
            samples, "no collider", "ms")
    print("particle-steps with a hit in the last step: " + ", ".join(f"{k}: {v:,}" for k, v in hits.items()))


def events(ctx, rounds: int, frames: int) -> None:
    def project():
        root = Item("Project", "")
        scene = root.add_child(Item("Screens", "Screens")).add_child(Item("Scene", "Scene"))
        system = scene.add_child(Item("ParticleSystem", "Particle System"))
        system.add_child(_item("ParticleEmitter", "Flash", {
            "ParticleEmitter.MaximumAmount": 10_000, "Emission.Rate": 600_000.0, "Emission.Lifetime": 0.0,
            "ParticleEmitter.EmissionMaterial": "Emitter_Point", "ParticleEmitter.EmissionCountMaterial": "EmissionCount_Schedule"}))
        return Project(name="bench", root=root)

    heard = [0]

    def per_event(event):
        heard[0] += 1

    def per_batch(batch):
        heard[0] += len(batch)

    from kzplayer.render.event_log import EventLog
    folder = Path(tempfile.mkdtemp())
    sims, logs = {}, []
    for name in ("no listener", "batch listener", "callback per event", "--events writer (JSON Lines)"):
        sim = Simulation(ctx, project(), events_cap=10_000)
        if name == "batch listener":
            sim.listen(sim.emitters[0], per_batch, kinds=("death",), batch=True)
        elif name == "callback per event":
            sim.listen(sim.emitters[0], per_event, kinds=("death",))
        elif name.startswith("--events"):
            logs.append(EventLog(sim, folder / "events.jsonl"))
        sims[name] = sim
    samples = {name: [] for name in sims}
    try:
        for sim in sims.values():
            for _ in range(4):
                sim.step_frame(H)
                sim.take_stats()
        for _ in range(rounds):
            for name, sim in sims.items():
                def frame(sim=sim):
                    sim.step_frame(H)
                    sim.take_stats()
                samples[name] += _timed(frame, frames)
        died = sims["no listener"].stats[sims["no listener"].emitters[0].path].died
    finally:
        for log in logs:
            log.close()
        for sim in sims.values():
            sim.release()
    _report(f"host events: {died:,} deaths a frame, ms per frame (step_frame + take_stats; {rounds} rounds of "
            f"{frames} frames, interleaved)", samples, "no listener", "ms")
    size = (folder / "events.jsonl").stat().st_size
    print(f"the --events file: {size / 2**20:.1f} MiB for {len(logs) and rounds * frames + 4} frames")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--only", default="")
    ap.add_argument("--baseline", default="", help="also time the mesh cases with the collider shaders of this git commit")
    args = ap.parse_args()
    ctx = create_context(headless=True)
    print(f"OpenGL: {describe(ctx)}")
    if args.only in ("", "colliders"):
        colliders(ctx, args.rounds, args.steps, args.baseline)
    if args.only in ("", "events"):
        events(ctx, args.rounds, args.steps)
    ctx.release()


if __name__ == "__main__":
    main()
