"""validate and play agree on a custom material play leaves out (issue 21): a `shader=` that
is missing, a pipe or a folder is validate's `material.unknown` (exit 1) at the slot where
play reports it and plays on (exit 0); a shader that does not compile, in a project without
a Camera (the fit-to-content probe plays the effect too), is left out with exit 0."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Case" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="Particle System">
      <ParticleEmitter name="Emitter"/>
      <ParticleAffector name="Swirl">
        <Property name="ParticleAffector.AffectorMaterial">Materials/Swirl</Property>
      </ParticleAffector>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Swirl" slot="Affector" shader="shaders/swirl.glsl"/>
  </Materials>
</Project>
"""
# line, column of the slot's value, where both report it
SLOT = next((n, t.index(">Materials/Swirl<") + 2) for n, t in enumerate(PROJECT.splitlines(), 1)
            if ">Materials/Swirl<" in t)


def kzplayer(*args, timeout=240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kzplayer.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def case(tmp_path: Path, kind: str) -> Path:
    (tmp_path / "shaders").mkdir()
    shader = tmp_path / "shaders" / "swirl.glsl"
    if kind == "pipe":
        os.mkfifo(shader)
    elif kind == "folder":
        shader.mkdir()
    elif kind == "broken":
        shader.write_text("void affectParticle(uint index) {\n    undeclared_name;\n}\n")
    path = tmp_path / "case.kzm"
    path.write_text(PROJECT)
    return path


@pytest.mark.parametrize("kind", ["missing", "pipe", "folder"])
def test_validate_reports_the_shader_play_leaves_out(tmp_path, kind):
    path = case(tmp_path, kind)
    checked = kzplayer("validate", path, timeout=60)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    where = f"{path}:{SLOT[0]}:{SLOT[1]}: error:"
    (found,) = [line for line in checked.stdout.splitlines() if line.startswith(where)]
    assert found.endswith("[material.unknown]") and "the shader of 'Swirl' is missing" in found
    played = kzplayer("play", path, "--headless", "--frames", "3", "--size", "64x36",
                      "--output", tmp_path / "x.png", timeout=120)
    assert played.returncode == 0, played.stderr
    assert f"{where} Screens/Screen/Scene/Particle System/Swirl: ParticleAffector.AffectorMaterial: " \
           f"the shader of 'Swirl' is missing" in played.stderr
    assert (tmp_path / "x.png").is_file() and "Traceback" not in played.stderr


def test_a_broken_affector_without_a_camera_is_left_out_and_plays(tmp_path):
    path = case(tmp_path, "broken")
    shader = tmp_path / "shaders" / "swirl.glsl"
    played = kzplayer("play", path, "--headless", "--frames", "3", "--size", "64x36",
                      "--output", tmp_path / "x.png", timeout=120)
    assert played.returncode == 0, played.stderr
    assert f"{shader}:2:5: error: `undeclared_name' undeclared [shader.compile]" in played.stderr
    assert "playing anyway" in played.stderr and "not playing after all" not in played.stderr
    assert "fit-to-content camera" in played.stdout
    assert (tmp_path / "x.png").is_file()
