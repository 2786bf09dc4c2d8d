"""A non-editable `pip install .` gives a kzplayer that finds its schema, catalog, shaders and
built-in demo from any working folder (issue 2): built once into a temporary folder, then
run from another folder with nothing of the repository on the path."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


# The data folders at the top of the repository and where they install inside the package.
DATA_FOLDERS = {"kzm_schema": "kzplayer/_schema", "shaders": "kzplayer/_shaders",
                "sample_projects": "kzplayer/_samples"}


def _copy_of_repo(tmp_path_factory) -> Path:
    # Built from a copy: pip builds in the source tree, and a build/ left there by an earlier
    # build (with modules since removed) would be packaged too.
    source = tmp_path_factory.mktemp("source") / "kzplayer"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", "build", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", "tests", "out"))
    return source


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """(the wheel, the build's output with setuptools' messages: -v shows them)."""
    source = _copy_of_repo(tmp_path_factory)
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                        "--disable-pip-version-check", "-w", str(out), str(source)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    [built] = out.glob("kzplayer-*.whl")
    return built, r.stdout + r.stderr


def test_the_wheel_builds_without_a_setuptools_warning(wheel):
    """The packages are found (setup.py), so setuptools has nothing to warn about: no
    `Package 'kzplayer._samples.assets.meshes' is absent from the packages configuration`."""
    _, log = wheel
    warnings = [line.strip() for line in log.splitlines()
                if re.search(r"\w*Warning: |absent from the `packages`", line)]
    assert warnings == []


def test_the_wheel_holds_every_data_file_and_every_module(wheel):
    """Every file of kzm_schema/, shaders/ and sample_projects/ (meshes, textures, pictures,
    the samples' shaders included) and every module of kzplayer/, as found on disk."""
    built, _ = wheel
    names = set(zipfile.ZipFile(built).namelist())
    expected = {f"{target}/{f.relative_to(REPO / folder).as_posix()}"
                for folder, target in DATA_FOLDERS.items()
                for f in (REPO / folder).rglob("*") if f.is_file() and "__pycache__" not in f.parts}
    expected |= {f.relative_to(REPO).as_posix() for f in (REPO / "kzplayer").rglob("*.py")
                 if "__pycache__" not in f.parts}
    assert {n for n in expected if n.endswith(".glb")} and {n for n in expected if n.endswith(".png")}
    assert sorted(expected - names) == []


def test_the_wheel_holds_the_studio_page(wheel):
    """kzplayer serve's page is package data: every file of kzplayer/studio/static/."""
    built, _ = wheel
    names = set(zipfile.ZipFile(built).namelist())
    page = {f.relative_to(REPO).as_posix() for f in (REPO / "kzplayer" / "studio" / "static").iterdir()}
    assert "kzplayer/studio/static/index.html" in page and sorted(page - names) == []


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    source = _copy_of_repo(tmp_path_factory)
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
