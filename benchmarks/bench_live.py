"""Live preview: the wall time from a file's save to the first frame that shows the change,
for each kind of save (docs/play.md "Live preview"), on three samples and on a generated
project of 200 emitters (20 ParticleSystems of 10), interleaved.

    python benchmarks/bench_live.py [--rounds 3] [--size 320x180] [--play 1.0] [--gap 0.25]
                                    [--only gen200]

The kinds, each an edit of a temp copy of the project, every other save undoing it:

    value       the first Emission.InitialVelocityStrength scaled (parameter words)
    binding     the first MaximumAmount binding's expression scaled (or a MaximumAmount
                bound where the project binds none): re-resolved, parameter words, in place
    structural  a Drag affector added to the first ParticleSystem (and removed): that
                system rebuilt and re-run to the running time, the others kept
    shader      the shader file of a custom affector edited: the programs that include it
                compiled again (each project gets that one custom affector, a small push,
                in its first ParticleSystem, so that it has a shader file of its own)
    texture     the first Particle.Texture image rewritten tinted: that texture read again

Each round makes a fresh copy and a fresh LiveSession per project, plays it `--play`
seconds under `render.live_loop.watch_loop` (watchfiles, in this thread) while a thread saves the
way an editor does (a temporary file renamed over the old one) once per kind, `--gap`
seconds of play apart; the kinds' order rotates from round to round and the projects
alternate. The clock starts just before the rename; it stops when the loop has reloaded,
applied the change and drawn and read back the frame that shows it (Player.draw +
Player.image), so it includes watchfiles' debounce (30 ms here) and polling step. Prints
min / median / max per project and kind against the targets (value and binding <= 100 ms,
structural <= 1 s, shader <= 1.5 s).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kzplayer.commands.watch import check_live, read_live  # noqa: E402
from kzplayer.gpu.context import create_context, describe  # noqa: E402
from kzplayer.render.live import LiveSession  # noqa: E402
from kzplayer.render.live_loop import watch_loop  # noqa: E402
from kzplayer.render.player import Player  # noqa: E402

SAMPLES = ("04_fire.kzm", "06_smoke_wind.kzm", "08_rock_debris.kzm")
KINDS = ("value", "binding", "structural", "shader", "texture")
TARGETS = {"value": 0.1, "binding": 0.1, "structural": 1.0, "shader": 1.5, "texture": None}
STRENGTH = re.compile(r'(<Property name="Emission.InitialVelocityStrength">)([^<]+)(</Property>)')
POOL_BINDING = re.compile(r'(<Binding target="ParticleEmitter.MaximumAmount">)([^<]+)(</Binding>)')
POOL = re.compile(r'<Property name="ParticleEmitter.MaximumAmount">([^<]+)</Property>')
TEXTURE = re.compile(r'<Property name="Particle.Texture">([^<]+)</Property>')
SYSTEM = re.compile(r"(<ParticleSystem [^>]*>)")

SWIRL = """uniform float BenchPush_Strength;

void affectParticle(uint index) {{
    addParticleAcceleration(index, vec3(0.0, {up} * BenchPush_Strength, 0.0));
}}
"""
AFFECTOR = ('<ParticleAffector name="BenchPush"><Property name="ParticleAffector.AffectorMaterial">'
            'Materials/BenchPush</Property></ParticleAffector>')
MATERIAL = ('<MaterialType name="BenchPush" slot="Affector" shader="bench/push.glsl">'
            '<PropertyType name="BenchPush.Strength" type="float" default="0.5"/></MaterialType>')
DRAG = ('<ParticleAffector name="BenchDrag"><Property name="ParticleAffector.AffectorMaterial">Drag'
        '</Property></ParticleAffector>')


# -- the projects ------------------------------------------------------------------------------

def with_custom_affector(text: str) -> str:
    """The project with the BenchPush affector in its first system and its MaterialType."""
    text = SYSTEM.sub(lambda m: m.group(1) + AFFECTOR, text, count=1)
    if "<Materials/>" in text:
        return text.replace("<Materials/>", f"<Materials>{MATERIAL}</Materials>", 1)
    if "<Materials>" in text:
        return text.replace("<Materials>", f"<Materials>{MATERIAL}", 1)
    return text.replace("</Project>", f"<Materials>{MATERIAL}</Materials></Project>")


def generated(systems: int = 20, emitters: int = 10) -> str:
    """A project of systems x emitters: points spraying up, each pool bound to rate x 2 s,
    one texture, a Gravity per system."""
    out = ['<?xml version="1.0" encoding="utf-8"?>\n<Project name="Gen200" format="1"><Screens><Screen name="Screen">'
           '<Scene name="Scene"><Camera name="Camera"><Property name="Node3D.RenderTransformation">'
           'Srt3D(1,1,1, 0,0,0, 0,2,30)</Property></Camera>']
    for s in range(systems):
        x = (s % 5 - 2) * 5.0
        y = (s // 5) * 3.0
        out.append(f'<ParticleSystem name="System {s}"><Property name="Node3D.RenderTransformation">'
                   f'Srt3D(1,1,1, 0,0,0, {x},{y},0)</Property>')
        for e in range(emitters):
            out.append(
                f'<ParticleEmitter name="Emitter {e}">'
                '<Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>'
                '<Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>'
                f'<Property name="Emission.Rate">{40 + 5 * e}</Property>'
                '<Property name="Emission.Lifetime">1.5</Property>'
                f'<Property name="Emission.InitialVelocityStrength">{2 + 0.2 * e:g}</Property>'
                '<Property name="Emission.InitialVelocityOuterAngle">0.5</Property>'
                '<Property name="Particle.Texture">textures/dot.png</Property>'
                '<Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * 2</Binding>'
                '</ParticleEmitter>')
        out.append('<ParticleAffector name="Gravity"><Property name="ParticleAffector.AffectorMaterial">Gravity'
                   '</Property></ParticleAffector></ParticleSystem>')
    out.append("</Scene></Screen></Screens><Materials/></Project>\n")
    return "".join(out)


def make_copy(name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bench_live_"))
    (folder / "bench").mkdir()
    (folder / "bench" / "push.glsl").write_text(SWIRL.format(up="1.0"))
    if name == "gen200":
        (folder / "textures").mkdir()
        Image.new("RGBA", (32, 32), (255, 255, 255, 255)).save(folder / "textures" / "dot.png")
        text = generated()
        path = folder / "gen200.kzm"
    else:
        shutil.copytree(REPO / "sample_projects" / "assets", folder / "assets")     # textures, meshes
        text = (REPO / "sample_projects" / name).read_text()
        path = folder / name
    path.write_text(with_custom_affector(text))
    return path


# -- the saves ---------------------------------------------------------------------------------

def value_edit(text: str) -> str:
    return STRENGTH.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * 1.25:g}{m.group(3)}", text, count=1)


def binding_edit(text: str) -> str:
    if POOL_BINDING.search(text):
        return POOL_BINDING.sub(lambda m: f"{m.group(1)}({m.group(2)}) * 1.25{m.group(3)}", text, count=1)
    return POOL.sub(lambda m: f'<Binding target="ParticleEmitter.MaximumAmount">{m.group(1)} * 1.25</Binding>',
                    text, count=1)


def structural_edit(text: str) -> str:
    return SYSTEM.sub(lambda m: m.group(1) + DRAG, text, count=1)


EDITS = {"value": value_edit, "binding": binding_edit, "structural": structural_edit}


class Case:
    """One project's copy: its files as they were, and the saves of each kind."""

    def __init__(self, name: str):
        self.name = name
        self.path = make_copy(name)
        self.text = self.path.read_text()
        self.done = dict.fromkeys(KINDS, 0)
        found = TEXTURE.search(self.text)
        self.texture = self.path.parent / found.group(1)
        self.texture_bytes = self.texture.read_bytes()

    def save(self, kind: str) -> float:
        """Make one save of `kind` (its edit, or the undo of its last one, the other kinds'
        edits as they stand); returns the perf_counter just before the rename."""
        undo = self.done[kind] % 2 == 1
        self.done[kind] += 1
        if kind == "shader":
            return _write(self.path.parent / "bench" / "push.glsl",
                          SWIRL.format(up="1.0" if undo else "1.5").encode())
        if kind == "texture":
            if undo:
                return _write(self.texture, self.texture_bytes)
            img = np.asarray(Image.open(self.texture).convert("RGBA")).copy()
            img[..., 1] //= 2
            tmp = self.texture.with_name(".bench.png")
            Image.fromarray(img, "RGBA").save(tmp)
            return _write(self.texture, tmp.read_bytes())
        text = self.text
        for name, edit in EDITS.items():
            if self.done[name] % 2 == 1:
                text = edit(text)
        return _write(self.path, text.encode())

    def release(self) -> None:
        shutil.rmtree(self.path.parent, ignore_errors=True)


def _write(path: Path, data: bytes) -> float:
    tmp = path.with_name(f".{path.name}.save")
    tmp.write_bytes(data)
    t = time.perf_counter()
    os.replace(tmp, path)
    return t


def one_session(ctx, name: str, kinds, size, play: float, gap: float) -> dict:
    """{kind: (seconds, outcome kind, outcome)} of one session of `name` making each save once."""
    case = Case(name)
    # as `play --watch` runs it: a save's whole-project checks after the frame that shows it
    session = LiveSession(str(case.path), load=read_live, check=check_live,
                          make_player=lambda p, g: Player(ctx, p, g, size, seed=1))
    session.start()
    session.player.prepare()
    stop, started, answered = threading.Event(), threading.Event(), []
    out = {}

    def saver():
        try:
            if not started.wait(60):
                return
            time.sleep(play)
            for kind in kinds:
                n = len(answered)
                saved = case.save(kind)
                deadline = time.monotonic() + 60
                while len(answered) == n and time.monotonic() < deadline:
                    time.sleep(0.002)
                if len(answered) == n:
                    raise SystemExit(f"{name}: the {kind} save was not seen")
                done, outcome = answered[-1]
                out[kind] = (done - saved, outcome.kind, outcome)
                time.sleep(gap)
        finally:
            stop.set()

    def changed(outcome):
        session.player.draw()
        session.player.image()
        answered.append((time.perf_counter(), outcome))

    thread = threading.Thread(target=saver)
    thread.start()
    try:
        watch_loop(session, on_change=changed, stop=stop, on_turn=lambda p: started.set())
    finally:
        stop.set()
        thread.join()
        session.release()
        case.release()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--size", default="320x180")
    ap.add_argument("--play", type=float, default=1.0)
    ap.add_argument("--gap", type=float, default=0.25)
    ap.add_argument("--only", nargs="*", default=None, help="projects (sample file names, gen200)")
    args = ap.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    ctx = create_context(headless=True)
    projects = args.only or [*SAMPLES, "gen200"]
    walls = {(p, k): [] for p in projects for k in KINDS}
    said = {}
    for r in range(args.rounds + 1):            # round 0 warms up (imports, the driver's first compiles)
        order = KINDS[r % len(KINDS):] + KINDS[:r % len(KINDS)]
        for project in projects:
            for kind, (wall, outcome_kind, outcome) in one_session(ctx, project, order, size, args.play,
                                                                   args.gap).items():
                said[(project, kind)] = f"{outcome_kind}, {outcome.compiled} compiled" + (
                    f", re-ran {len(outcome.rerun)} kept {len(outcome.kept)}" if outcome.rerun or outcome.kept else "")
                if r:
                    walls[(project, kind)].append(wall)
    print(f"save -> first frame showing the change, {args.size}, {describe(ctx)}, {args.rounds} rounds "
          f"(kinds interleaved, projects alternating), {args.play:g} s of play first; "
          f"load average {os.getloadavg()[0]:.2f}")
    for (project, kind), w in walls.items():
        target = TARGETS[kind]
        verdict = ("no target" if target is None else
                   f"target {target * 1000:.0f}: {'ok' if statistics.median(w) <= target else 'OVER'}")
        print(f"  {project:<20} {kind:<10} min {min(w) * 1000:6.0f}  median {statistics.median(w) * 1000:6.0f}  "
              f"max {max(w) * 1000:6.0f} ms  ({verdict}; {said[(project, kind)]})")
    ctx.release()


if __name__ == "__main__":
    main()
