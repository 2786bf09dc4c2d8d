"""Nothing a project names leads kzplayer out of it (issue 21): validate, play (headless, a
few frames, every destination) and convert of a project whose assets point everywhere
(tests/hardening/everywhere.py: absolute paths, `..`, links out, /etc/passwd, /dev/zero, `~`,
glTF buffers, .mtl files and #includes outside) run in a child process under an audit hook
(tests/hardening/audit_child.py), and no path they open, list, copy, move or remove lies
outside the project, its destination, kzplayer's own data and code, Python's libraries and
the GL driver's files (tests/hardening/audit_paths.py); no program runs but the GL driver's
library lookup, no socket is opened."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.hardening.audit_paths import escapes
from tests.hardening.everywhere import make_everywhere
from tests.hostile import ROOT, run

CHILD = Path(__file__).with_name("audit_child.py")


def audited(tmp_path: Path, *args, dest: Path | None = None):
    log = tmp_path / "audit.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    ran = run([sys.executable, str(CHILD), str(log), *map(str, args)], cwd=tmp_path, env=env, timeout=300)
    ran.expect(0, 1, 2)
    assert ran.peak_mib < 2000 and ran.seconds < 240, (ran.peak_mib, ran.seconds)
    opened = [r for r in map(json.loads, log.read_text().splitlines()) if r["event"] == "open"]
    own = [dest] if dest else []
    return ran, opened, escapes(log, tmp_path / "proj", *own)


def _opened(opened, path: Path) -> bool:
    return any(Path(r["cwd"], p).resolve() == path.resolve() for r in opened for p in r["paths"])


@pytest.mark.parametrize("shaders_out", [True, False])
def test_validate_opens_nothing_outside(tmp_path, shaders_out):
    kzm = make_everywhere(tmp_path, shaders_out)
    ran, opened, out = audited(tmp_path, "validate", kzm)
    assert ran.code == 1 and "refused" in ran.out and "shader.compile" in ran.out
    assert _opened(opened, kzm) and _opened(opened, kzm.parent / "shaders" / "main.glsl")
    assert "root:" not in ran.out                 # no byte of /etc/passwd shown
    assert out == []


@pytest.mark.parametrize("shaders_out", [True, False])
def test_play_opens_nothing_outside(tmp_path, shaders_out):
    kzm = make_everywhere(tmp_path, shaders_out)
    dest = tmp_path / "out"
    ran, opened, out = audited(tmp_path, "play", kzm, "--frames", 3, "--size", "64x48", "--output", dest / "p.png",
                               "--stats", dest / "s.csv", "--events", dest / "e.jsonl", "--dump", dest / "d.npz",
                               dest=dest)
    assert ran.code == 0, ran.out[-3000:]
    assert (dest / "p.png").is_file() and (dest / "d.npz").is_file()
    assert _opened(opened, kzm.parent / "textures" / "ground.png")     # the hook sees the good assets
    assert out == []


@pytest.mark.parametrize("target", ["folder", "fx2.kzm"])
def test_convert_opens_and_copies_nothing_outside(tmp_path, target):
    kzm = make_everywhere(tmp_path, shaders_out=False)
    dest = tmp_path / "conv" / target
    ran, opened, out = audited(tmp_path, "convert", kzm, dest, dest=tmp_path / "conv")
    assert ran.code == 0, ran.out[-3000:]
    assert "not copied" in ran.out
    assert out == []
    copied = [p for p in dest.parent.rglob("*") if p.is_file()]
    assert copied and not any(p.is_symlink() for p in dest.parent.rglob("*"))
    bait = {p.read_bytes() for p in (tmp_path / "outside").rglob("*") if p.is_file()}
    assert not any(p.read_bytes() in bait for p in copied if p.suffix in (".glsl", ".bin", ".mtl"))


def test_convert_shows_a_pipe_as_no_regular_file_and_neither_hangs_nor_copies_it(tmp_path):
    """A FIFO as a glTF buffer, a texture and an #include: named in convert's notes as not a
    regular file (only a stat, never an open: no hang), not copied."""
    from tests.hostile import kzplayer
    from tests.project.assets_fixture import make
    kzm = make(tmp_path / "p")
    for name in ("meshes/tri.bin", "textures/ground.png", "shaders/lib/strength.glsl"):
        (kzm.parent / name).unlink()
        os.mkfifo(kzm.parent / name)
    ran = kzplayer("convert", kzm, tmp_path / "out", cwd=tmp_path, timeout=120).expect(0)
    for name in ("tri.bin", "textures/ground.png", "strength.glsl"):
        assert f"not copied: {name} (" in ran.out, ran.out
    assert ran.out.count("is not a regular file (a pipe, a device, a socket or a folder)") == 3
    assert not (tmp_path / "out" / "meshes" / "tri.bin").exists()
    assert not (tmp_path / "out" / "textures" / "ground.png").exists()
    assert (tmp_path / "out" / "meshes" / "tri.gltf").is_file()
    assert ran.seconds < 60 and ran.peak_mib < 800
