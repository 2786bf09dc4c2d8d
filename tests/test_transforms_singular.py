"""A node transform with a scale of 0 or a non-finite number (issue 21): validate reports
property.singular-transform at the node's property (file:line:column), play holds the node's last
usable transform and goes on (exit 0, never internal.error 'Singular matrix')."""
from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.resources import samples_dir
from kzplayer.transforms import node_matrix, usable
from kzplayer.values import Srt3D

SPARKS = samples_dir() / "07_death_sparks.kzm"
MESH_CASE = Path(__file__).parent / "validate" / "cases" / "mesh.filter-empty" / "ok_turned.kzm"
ZERO = '<Property name="Node3D.RenderTransformation">Srt3D(0,0,0, 0,0,0, 0,0,0)</Property>'


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output and "internal.error" not in r.output and "Singular" not in r.output, r.output
    return r


def test_a_singular_node_holds_its_last_usable_matrix():
    node = object()
    good = Srt3D((2, 2, 2), (0, 0, 0), (1, 2, 3))
    first = node_matrix(node, good)
    for bad in (Srt3D((0, 1, 1), (0, 0, 0), (0, 0, 0)), Srt3D((1, 1, 1), (math.nan, 0, 0), (0, 0, 0)),
                Srt3D((1, 1, 1), (0, 0, 0), (math.inf, 0, 0)), Srt3D((1e-12, 1, 1), (0, 0, 0), (0, 0, 0))):
        held = node_matrix(node, bad)
        assert np.array_equal(held, first) and usable(held)
    assert np.array_equal(node_matrix(object(), Srt3D((0, 0, 0), (0, 0, 0), (0, 0, 0))), np.eye(4))


def play_and_validate(kzm: Path, marker: str):
    line = next(n for n, text in enumerate(kzm.read_text().splitlines(), 1) if marker in text)
    v = cli("validate", kzm)
    assert v.exit_code == 0, v.output              # a warning: play goes on
    assert re.search(rf"{re.escape(kzm.name)}:{line}:\d+: warning: .*cannot be inverted.*\[property\.singular-transform\]",
                     v.output), v.output
    p = cli("play", kzm, "--frames", 20, "--size", "32x32", "--output", kzm.parent / "o.png", "--stats",
            kzm.parent / "s.csv")
    assert p.exit_code == 0, p.output
    assert (kzm.parent / "o.png").exists()


@pytest.mark.parametrize("shape", ["Collider_Plane", "Collider_Sphere", "Collider_Box"])
def test_a_collider_of_any_shape_with_scale_0(tmp_path, shape):
    text = SPARKS.read_text().replace(
        '<Property name="ParticleCollider.ColliderMaterial">Collider_Plane</Property>',
        f'<Property name="ParticleCollider.ColliderMaterial">{shape}</Property>\n                {ZERO}')
    (tmp_path / "p.kzm").write_text(text)
    shutil.copytree(SPARKS.parent / "assets", tmp_path / "assets")
    play_and_validate(tmp_path / "p.kzm", ZERO)


def test_a_local_space_particle_system_with_scale_0(tmp_path):
    text = SPARKS.read_text().replace(
        '<Property name="ParticleSystem.IntegrationMethod">Verlet</Property>',
        '<Property name="ParticleSystem.IntegrationMethod">Verlet</Property>\n'
        f'              <Property name="ParticleSystem.LocalSpace">true</Property>\n              {ZERO}')
    (tmp_path / "p.kzm").write_text(text)
    shutil.copytree(SPARKS.parent / "assets", tmp_path / "assets")
    play_and_validate(tmp_path / "p.kzm", ZERO)


def test_emitter_mesh_with_scale_0(tmp_path):
    shutil.copytree(MESH_CASE.parent, tmp_path / "case")
    kzm = tmp_path / "case" / MESH_CASE.name
    text = re.sub(r'<Property name="Node3D.RenderTransformation">[^<]*</Property>', ZERO, kzm.read_text(), count=1)
    kzm.write_text(text)
    play_and_validate(kzm, ZERO)
