"""A non-editable `pip install .` gives a kzplayer that finds its schema, catalog, shaders and
built-in demo from any working folder (issue 2): built once into a temporary folder, then
run from another folder with nothing of the repository on the path."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    # Built from a copy: pip builds in the source tree, and a build/ left there by an earlier
    # build (with modules since removed) would be packaged too.
    source = tmp_path_factory.mktemp("source") / "kzplayer"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", "tests", "out"))
    target = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
                        "--disable-pip-version-check", "--target", str(target), str(source)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return target


def run_installed(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KZPLAYER_SHADERS")}
    env["PYTHONPATH"] = str(installed)          # only the installed copy, not the repository
    return subprocess.run([sys.executable, "-m", "kzplayer.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_installed_package_is_the_installed_copy_with_its_data(installed, tmp_path):
    probe = subprocess.run(
        [sys.executable, "-c", "import kzplayer, kzplayer.resources as r; print(kzplayer.__file__);"
                               "print(r.schema_dir())"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)}, capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    module, schema = probe.stdout.split("\n")[:2]
    assert Path(module).is_relative_to(installed) and Path(schema).is_relative_to(installed)
    assert (Path(schema) / "kzm.rng").is_file() and (Path(schema) / "catalog.toml").is_file()


def test_installed_inspect_from_another_folder(installed, tmp_path):
    sample = installed / "kzplayer" / "_samples" / "demo_fountain.kzm"
    assert sample.is_file()
    r = run_installed(installed, tmp_path, "inspect", str(sample))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Fountain (") and "ParticleEmitter" in r.stdout
    # the schema is applied: a broken file is rejected with its position, exit 1
    bad = tmp_path / "bad.kzm"
    bad.write_text('<Project name="B">\n  <Screens>\n    <Property>1</Property>\n  </Screens>\n</Project>\n')
    r = run_installed(installed, tmp_path, "inspect", str(bad))
    assert r.returncode == 1 and f"{bad}:3:" in r.stderr and "Traceback" not in r.stderr


def test_installed_play_headless_from_another_folder(installed, tmp_path):
    sample = installed / "kzplayer" / "_samples" / "demo_fountain.kzm"
    out = tmp_path / "x.png"
    r = run_installed(installed, tmp_path, "play", str(sample), "--headless", "--frames", "3",
                      "--output", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.is_file() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_samples_bring_their_textures_meshes_and_shaders(installed, tmp_path):
    """The samples' assets/ and shaders/ are package data too: a sample with meshes,
    textures and a custom rendering material validates and plays from the installed copy."""
    samples = installed / "kzplayer" / "_samples"
    for name in ("02_sparks_spray", "08_rock_debris"):
        r = run_installed(installed, tmp_path, "validate", "--strict", str(samples / f"{name}.kzm"))
        assert r.returncode == 0, r.stdout + r.stderr
    out = tmp_path / "rocks.png"
    r = run_installed(installed, tmp_path, "play", str(samples / "08_rock_debris.kzm"), "--headless",
                      "--frames", "10", "--size", "64x36", "--output", str(out))
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
    assert (samples / "assets" / "meshes" / "rock.glb").is_file()
