"""The studio's frame stream (docs/studio.md): frames per second that reach a page at
640x360, and the wall time from an edit to the first frame that shows it, on two samples,
interleaved (fountain fps, firework fps, fountain latency, firework latency, ... each round).
A heavy-fill sample (04_fire: large soft sprites) is bound by llvmpipe's rasteriser, not by
the stream: `play` draws it as slowly.

    python benchmarks/bench_studio.py [--rounds 3] [--seconds 3] [--edits 10] [--fps 60]

Both studios run in this process (kzplayer.studio.server.Studio, each with its own render
thread and uvicorn on a free port), the one not measured paused. A websocket client with
the page's Origin counts the JPEG frames it receives over `--seconds` (the stream capped at
`--fps`: the studio's --fps, 60 at most). An edit is a POST /api/set of Emission.Rate (the
page's path: JSON over HTTP, applied on the render thread through Simulation.set_value);
its latency runs from just before the POST to the arrival of the first frame whose figures
carry the session version the edit made. Targets (issue 18): >= 20 fps, <= 200 ms.
Prints min / median / max per case.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
import websockets  # noqa: E402

from kzplayer.studio.server import Studio  # noqa: E402

SAMPLES = {"fountain": ("demo_fountain.kzm", "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"),
           "firework": ("03_firework.kzm", None)}


def emitter_of(studio) -> str:
    state = httpx.get(f"http://127.0.0.1:{studio.port}/api/state?token={studio.token}", timeout=30).json()
    return state["emitters"][0]


class Client:
    def __init__(self, studio):
        self.studio = studio
        self.base = f"http://127.0.0.1:{studio.port}"
        self.headers = {"X-Studio-Token": studio.token}

    async def post(self, http, path, data):
        r = await http.post(self.base + path, json=data, headers=self.headers, timeout=30)
        r.raise_for_status()
        return r.json()

    def socket(self):
        return websockets.connect(f"ws://127.0.0.1:{self.studio.port}/ws?token={self.studio.token}",
                                  additional_headers={"Origin": self.base}, origin=None, max_size=2**24)


async def fps(client, seconds: float) -> float:
    async with httpx.AsyncClient() as http:
        await client.post(http, "/api/control", {"action": "play"})
        async with client.socket() as ws:
            await ws.recv()                       # the stream runs
            frames, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                if isinstance(await ws.recv(), bytes):
                    frames += 1
            rate = frames / (time.perf_counter() - t0)
        await client.post(http, "/api/control", {"action": "pause"})
    return rate


async def latency(client, path: str, edits: int) -> list[float]:
    out = []
    async with httpx.AsyncClient() as http:
        await client.post(http, "/api/control", {"action": "play"})
        async with client.socket() as ws:
            for k in range(edits):
                t0 = time.perf_counter()
                state = await client.post(http, "/api/set", {"path": path, "name": "Emission.Rate",
                                                             "value": str(100 + 50 * (k % 2))})
                while True:
                    message = await ws.recv()
                    if isinstance(message, str) and json.loads(message)["version"] >= state["version"]:
                        break
                out.append(time.perf_counter() - t0)
                await asyncio.sleep(0.1)
        await client.post(http, "/api/undo", {})
        await client.post(http, "/api/control", {"action": "pause"})
    return out


def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
    v = [x * scale for x in values]
    return f"{name:<22} min {min(v):7.1f}  median {statistics.median(v):7.1f}  max {max(v):7.1f} {unit}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--fps", type=float, default=60.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kz-bench-studio-"))
    studios, clients, paths = {}, {}, {}
    try:
        for name, (sample, path) in SAMPLES.items():
            folder = tmp / name
            shutil.copytree(REPO / "sample_projects", folder, ignore=shutil.ignore_patterns("golden", "pictures"))
            studios[name] = Studio(str(folder / sample), port=0, fps=args.fps, seed=1, watch=False)
            studios[name].start()
            clients[name] = Client(studios[name])
            paths[name] = path or emitter_of(studios[name])
            asyncio.run(_pause(clients[name]))
        rates = {n: [] for n in SAMPLES}
        waits = {n: [] for n in SAMPLES}
        for _ in range(args.rounds):
            for n in SAMPLES:
                rates[n].append(asyncio.run(fps(clients[n], args.seconds)))
            for n in SAMPLES:
                waits[n].extend(asyncio.run(latency(clients[n], paths[n], args.edits)))
        print(f"kzplayer studio stream at 640x360, capped at {args.fps:g} fps; {args.rounds} rounds")
        for n in SAMPLES:
            print(line(f"{n} stream", rates[n], "fps"))
        for n in SAMPLES:
            print(line(f"{n} edit -> frame", waits[n], "ms", 1000.0))
    finally:
        for s in studios.values():
            s.stop()
        shutil.rmtree(tmp, ignore_errors=True)


async def _pause(client) -> None:
    async with httpx.AsyncClient() as http:
        await client.post(http, "/api/control", {"action": "pause"})


if __name__ == "__main__":
    main()
