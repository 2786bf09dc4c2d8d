"""Hostile shader files (issue 21): `#line` mapping past 100,000 lines, size limits per file
and per program, special files refused before they are opened. Each case is made here and
checked through `kzplayer validate` (the diagnostic's rule, file:line:column, the exit code)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kzplayer.gpu.preprocessor import MAX_PROGRAM_BYTES, MAX_SHADER_BYTES

ROOT = Path(__file__).resolve().parents[2]

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Case" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="Particle System">
      <ParticleAffector name="Swirl">
        <Property name="ParticleAffector.AffectorMaterial">Materials/Swirl</Property>
      </ParticleAffector>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <Materials>
    <MaterialType name="Swirl" slot="Affector" shader="{shader}"/>
  </Materials>
</Project>
"""

GOOD = "void affectParticle(uint index) {\n}\n"


def project(tmp_path: Path, shader: str = "shaders/swirl.glsl") -> Path:
    (tmp_path / "shaders").mkdir(exist_ok=True)
    path = tmp_path / "case.kzm"
    path.write_text(PROJECT.format(shader=shader), encoding="utf-8")
    return path


def validate(path: Path, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kzplayer.cli", "validate", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def findings(result) -> list[str]:
    return [line for line in result.stdout.splitlines() if "[shader.compile]" in line]


@pytest.mark.parametrize("where", ["material", "include"])
def test_an_error_past_line_100000_is_reported_at_its_file_and_line(tmp_path, where):
    path = project(tmp_path)
    body = "\n" * 150_002 + "float broken = undeclared_name;\n"
    if where == "material":
        (tmp_path / "shaders" / "swirl.glsl").write_text(body + GOOD, encoding="utf-8")
        name = "swirl.glsl"
    else:
        (tmp_path / "shaders" / "helper.glsl").write_text(body, encoding="utf-8")
        (tmp_path / "shaders" / "swirl.glsl").write_text('#include "helper.glsl"\n' + GOOD, encoding="utf-8")
        name = "helper.glsl"
    result = validate(path)
    assert result.returncode == 1, result.stdout + result.stderr
    first = findings(result)[0]
    assert first.startswith(f"{tmp_path / 'shaders' / name}:150003:16: error:"), result.stdout
    assert "undeclared_name" in first
    assert "Traceback" not in result.stderr


def test_a_shader_file_past_the_size_limit_is_refused_unread(tmp_path):
    path = project(tmp_path)
    shader = tmp_path / "shaders" / "swirl.glsl"
    with open(shader, "wb") as f:       # sparse: 1 GiB that a read would take minutes on
        f.write(GOOD.encode())
        f.truncate(1 << 30)
    result = validate(path, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    (first,) = findings(result)
    assert first.startswith(f"{shader}:1:1: error: cannot read shader"), result.stdout
    assert f"more than the {MAX_SHADER_BYTES >> 20:,} MiB it may be" in first


def test_a_program_past_the_size_limit_after_its_includes_is_refused(tmp_path):
    path = project(tmp_path)
    chunk = "// " + "x" * 996 + "\n"          # 1,000 bytes a line
    parts = MAX_PROGRAM_BYTES // (MAX_SHADER_BYTES - 10_000) + 1
    for n in range(parts):
        (tmp_path / "shaders" / f"part{n}.glsl").write_text(chunk * ((MAX_SHADER_BYTES - 10_000) // 1000))
    includes = "".join(f'#include "part{n}.glsl"\n' for n in range(parts))
    (tmp_path / "shaders" / "swirl.glsl").write_text(includes + GOOD, encoding="utf-8")
    result = validate(path)
    assert result.returncode == 1, result.stdout + result.stderr
    (first,) = findings(result)
    assert f"more than the {MAX_PROGRAM_BYTES >> 20:,} MiB a program may be" in first, result.stdout
    assert first.startswith(str(tmp_path / "shaders" / "part")), first


@pytest.mark.parametrize("kind", ["pipe", "folder"])
def test_a_special_shader_include_is_refused_before_it_is_opened(tmp_path, kind):
    path = project(tmp_path)
    special = tmp_path / "shaders" / "helper.glsl"
    if kind == "pipe":
        os.mkfifo(special)          # opening it for reading would block for ever
    else:
        special.mkdir()
    (tmp_path / "shaders" / "swirl.glsl").write_text('#include "helper.glsl"\n' + GOOD, encoding="utf-8")
    result = validate(path, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert any(line.startswith(f"{tmp_path / 'shaders' / 'swirl.glsl'}:1:1: error:")
               for line in findings(result)), result.stdout
