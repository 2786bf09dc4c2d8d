"""Live preview: the wall time from a file's save to the first frame that shows the change,
for a value change (applied in place) and, for comparison, a structural change (an item
added: a rebuild, re-run to the same time), on two samples, interleaved.

    python benchmarks/bench_live.py [--repeat 5] [--size 320x180] [--play 1.0]

Each case is one real watch: a temp copy of the sample, a LiveSession played by
`render.live.watch_loop` (watchfiles) in this thread, a thread that saves the file the way
an editor does (write a temporary file, rename it over the project) once the effect has
played `--play` seconds. The clock starts just before the rename; it stops when the loop
has reloaded, applied the change and drawn and read back the frame that shows it
(Player.draw + Player.image). So it includes watchfiles' debounce (30 ms here) and its
polling step. The cases alternate (fountain value, fire value, fountain binding, ...) so
the load of other work on the machine falls on all alike; prints min / median / max.
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kzplayer.commands.watch import load_live  # noqa: E402
from kzplayer.gpu.context import create_context  # noqa: E402
from kzplayer.render.live import LiveSession, watch_loop  # noqa: E402
from kzplayer.render.player import Player  # noqa: E402

SAMPLES = ("demo_fountain.kzm", "04_fire.kzm")
STRENGTH = re.compile(r'(<Property name="Emission.InitialVelocityStrength">)([^<]+)(</Property>)')


def value_edit(text: str, k: int) -> str:
    """The first InitialVelocityStrength, scaled (a parameter word)."""
    return STRENGTH.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * (1.1 + 0.01 * k):g}{m.group(3)}", text, count=1)


def binding_edit(text: str, k: int) -> str:
    """A structural edit: an affector item added (a rebuild, re-run to the same time)."""
    return text.replace("</ParticleSystem>", f'<ParticleAffector name="Bench{k}"/></ParticleSystem>', 1)


def one_save(ctx, sample: str, edit, k: int, size, play: float) -> tuple[float, str]:
    folder = Path(tempfile.mkdtemp(prefix="bench_live_"))
    path = folder / sample
    shutil.copy(REPO / "sample_projects" / sample, path)
    shutil.copytree(REPO / "sample_projects" / "assets", folder / "assets")     # textures, meshes
    text = path.read_text()
    session = LiveSession(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, size, seed=1))
    session.start()
    session.player.prepare()
    stop, started, saved, got = threading.Event(), threading.Event(), [], []

    def saver():
        if started.wait(30):
            time.sleep(play)
            tmp = path.with_name(".save.tmp")
            tmp.write_text(edit(text, k))
            saved.append(time.perf_counter())
            os.replace(tmp, path)
        guard = threading.Timer(30, stop.set)       # a save never seen ends the case
        guard.daemon = True
        guard.start()

    def changed(outcome):
        session.player.draw()
        session.player.image()
        got.append((time.perf_counter(), outcome.kind))
        stop.set()

    thread = threading.Thread(target=saver)
    thread.start()
    try:
        watch_loop(session, on_change=changed, stop=stop, on_turn=lambda p: started.set())
    finally:
        stop.set()
        thread.join()
        session.release()
        shutil.rmtree(folder, ignore_errors=True)
    if not got or not saved:
        raise SystemExit(f"{sample}: the save was not seen")
    return got[0][0] - saved[0], got[0][1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", default="320x180")
    ap.add_argument("--play", type=float, default=1.0)
    args = ap.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    ctx = create_context(headless=True)
    cases = {(s, kind): [] for kind in ("value", "structural") for s in SAMPLES}
    kinds = {}
    for k in range(args.repeat + 1):           # the first round warms up (imports, first compiles)
        for (sample, kind), walls in cases.items():
            wall, outcome = one_save(ctx, sample, value_edit if kind == "value" else binding_edit, k, size, args.play)
            kinds[(sample, kind)] = outcome
            if k:
                walls.append(wall)
    print(f"save -> first frame showing the change, {args.size}, after {args.play:g} s of play, "
          f"{args.repeat} interleaved rounds; load average {os.getloadavg()[0]:.2f}")
    for (sample, kind), walls in cases.items():
        print(f"  {sample:<20} {kind:<10} ({kinds[(sample, kind)]}): min {min(walls) * 1000:6.0f} ms  "
              f"median {statistics.median(walls) * 1000:6.0f} ms  max {max(walls) * 1000:6.0f} ms")
    ctx.release()


if __name__ == "__main__":
    main()
