"""The asset surface of the fuzz (issue 21): mutated PNG, JPEG, glTF, GLB, OBJ and GLSL files
and special files, through the readers that validate and play use (kzplayer.render.textures
read_image, kzplayer.meshes' loader with its side files, the shader preprocessor and the
checks before the GL compiler, kzplayer.gpu.shader_limits). An input fails when anything but
the documented refusal escapes (ValueError/OSError for an image, MeshError for a mesh,
KzError for a shader) or it takes longer than LIMIT seconds (a hang).

    python -m tests.fuzz.assets COUNT [SECONDS]      # a long run; prints the figures
    python -m tests.fuzz.run --channels assets       # the same inputs as a channel of `make fuzz`
"""
from __future__ import annotations

import io
import json
import os
import random
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

LIMIT = 10.0


def _seeds() -> dict[str, bytes]:
    from PIL import Image
    from tests.project.assets_fixture import OBJ, TRIANGLE, gltf
    rng = np.random.default_rng(0)
    out = {}
    for fmt, mode in (("PNG", "RGBA"), ("PNG", "P"), ("PNG", "L"), ("JPEG", "RGB")):
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (7, 5, 4 if mode == "RGBA" else 3), np.uint8)[..., :4 if mode == "RGBA" else 3],
                        "RGBA" if mode == "RGBA" else "RGB").convert(mode).save(buf, format=fmt)
        out[f"{fmt.lower()}-{mode}.{'png' if fmt == 'PNG' else 'jpg'}"] = buf.getvalue()
    text = gltf("tri.bin").encode()
    out["tri.gltf"] = text
    body = text + b" " * (-len(text) % 4)
    out["tri.glb"] = (b"glTF" + struct.pack("<II", 2, 12 + 8 + len(body) + 8 + len(TRIANGLE))
                      + struct.pack("<I", len(body)) + b"JSON" + body
                      + struct.pack("<I", len(TRIANGLE)) + b"BIN\0" + TRIANGLE)
    out["q.obj"] = OBJ.encode()
    from tests.project.assets_fixture import SHADERS
    out["main.glsl"] = (SHADERS["shaders/lib/strength.glsl"] + SHADERS["shaders/main.glsl"].split("\n", 3)[3]).encode()
    out["macros.glsl"] = (b"#define A0 1.0\n#define A1 (A0 + A0)\n#define A2 (A1 + A1)\n#define F(x, y) (x * y)\n"
                          b"const int N = 16;\nfloat f0(float x) { return x; }\nfloat f1(float x) { return f0(x) + f0(x); }\n"
                          b"void affectParticle(uint index) {\n    float a[N * 4];\n    a[0] = F(A2, f1(1.0));\n"
                          b"    if (a[0] > 1.0) { for (int i = 0; i < 4; i++) { a[i] = (((a[0]))); } }\n}\n")
    return out


def _mutate(data: bytes, r: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(r.randint(1, 6)):
        op = r.random()
        k = r.randrange(len(b) + 1)
        if op < 0.4 and b:
            b[min(k, len(b) - 1)] = r.randrange(256)
        elif op < 0.55:
            b[k:k] = bytes(r.randrange(256) for _ in range(r.randint(1, 16)))
        elif op < 0.7:
            del b[k:k + r.randint(1, 32)]
        elif op < 0.8:
            b[k:k] = r.choice([b"\xff" * 4, struct.pack("<I", 2 ** 31 - 1), struct.pack(">I", 65535),
                               b'"uri": "/etc/passwd"', b'"uri": "../../x"', b"[" * 64, b"1e400", b"-1",
                               b'\n#include "/etc/passwd"\n', b'\n#include "../../x.glsl"\n', b"(" * 300,
                               b"\n#define A3 (A2 + A2 + A2)\n", b"[100000000]", b"\\\n", b"/*", b"#if A2\n"])
        elif op < 0.9:
            b = b[: r.randrange(len(b) + 1)]
        else:
            b[k:k] = bytes(b[r.randrange(len(b) + 1):][: r.randint(1, 64)]) if b else b""
    return bytes(b)


def one(folder: Path, name: str, data: bytes, r: random.Random) -> str:
    """'ok', 'refused', or a failure ('escape: ...')."""
    from kzplayer import meshes
    from kzplayer.diagnostics import KzError
    from kzplayer.render import textures
    from tests.project.assets_fixture import TRIANGLE
    path = folder / name
    special = r.random() < 0.03
    if special:
        os.mkfifo(path) if r.random() < 0.5 else path.mkdir()
    else:
        path.write_bytes(data)
    side = folder / "tri.bin"
    if name.endswith(".gltf") and not side.exists():
        side.write_bytes(_mutate(TRIANGLE, r) if r.random() < 0.5 else TRIANGLE)
    textures._sizes.clear()
    textures._decoded.clear()
    meshes._CACHE.clear()
    try:
        if name.endswith((".png", ".jpg")):
            textures.read_image(path)
        elif name.endswith(".glsl"):
            from kzplayer.gpu.preprocessor import preprocess
            from kzplayer.gpu.shader_limits import check_compilable
            check_compilable(preprocess(path))
        else:
            meshes.load_mesh(path)
        return "ok"
    except (ValueError, OSError, KzError):       # MeshError is a ValueError
        return "refused"
    except Exception as exc:             # noqa: BLE001: what the fuzz looks for
        return f"escape: {exc.__class__.__name__}: {str(exc)[:200]}"


def make(n: int, seed=21) -> tuple[str, bytes, random.Random]:
    """Input N: (file name, mutated bytes, the rng the run goes on with); deterministic."""
    seeds = _SEEDS or _SEEDS.update(_seeds()) or _SEEDS
    names = sorted(seeds)
    r = random.Random(f"{seed}:{n}")
    name = names[n % len(names)]
    return name, _mutate(seeds[name], r), r


_SEEDS: dict[str, bytes] = {}


def fuzz(count: int, seconds: float = 1e9, seed: int = 21) -> dict:
    figures = {"inputs": 0, "ok": 0, "refused": 0, "escapes": [], "hangs": [], "slowest": 0.0}
    start = time.monotonic()
    for n in range(count):
        if time.monotonic() - start > seconds:
            break
        name, data, r = make(n, seed)
        with tempfile.TemporaryDirectory(prefix="kzfuzz-") as tmp:
            t = time.monotonic()
            outcome = one(Path(tmp), name, data, r)
            took = time.monotonic() - t
        figures["inputs"] += 1
        figures["slowest"] = max(figures["slowest"], took)
        if took > LIMIT:
            figures["hangs"].append((n, name, took))
        if outcome.startswith("escape"):
            figures["escapes"].append((n, name, outcome))
        else:
            figures[outcome] += 1
    return figures


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    result = fuzz(count, float(sys.argv[2]) if len(sys.argv) > 2 else 1e9)
    print(json.dumps(result, indent=1))
