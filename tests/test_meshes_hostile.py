"""Hostile mesh files and their side files (issue 21), made in the test: a pipe or a 4.5 GiB
sparse file as a glTF buffer or an OBJ's .mtl, an index past the vertex count, deeply nested
JSON. Each is a MeshError (mesh.unreadable in validate, exit 1), never a hang, an escaping
exception or a read of gigabytes."""
from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from kzplayer.meshes import MeshError, _read, load_mesh
from tests.hostile import kzplayer
from tests.project.assets_fixture import TRIANGLE, gltf, make


def test_a_pipe_or_folder_as_mesh_file_is_refused_before_opening(tmp_path):
    os.mkfifo(tmp_path / "m.glb")
    (tmp_path / "d.obj").mkdir()
    for name in ("m.glb", "d.obj"):
        with pytest.raises(MeshError, match="not a mesh file"):
            load_mesh(tmp_path / name)


@pytest.mark.parametrize("make_side", ["pipe", "sparse", "folder"])
def test_a_hostile_gltf_buffer_is_refused_unread(tmp_path, make_side):
    (tmp_path / "tri.gltf").write_text(gltf("tri.bin"))
    side = tmp_path / "tri.bin"
    if make_side == "pipe":
        os.mkfifo(side)
    elif make_side == "folder":
        side.mkdir()
    else:
        with open(side, "wb") as f:
            f.truncate(9 << 29)
    with pytest.raises(MeshError):
        _read(tmp_path / "tri.gltf")


def test_an_obj_whose_mtl_is_a_pipe_still_reads_or_is_refused(tmp_path):
    (tmp_path / "q.obj").write_text("mtllib q.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n")
    os.mkfifo(tmp_path / "q.mtl")
    try:
        assert _read(tmp_path / "q.obj").triangles == 1      # trimesh goes on without the material
    except MeshError:
        pass


def test_an_index_past_the_vertex_count_is_a_mesh_error(tmp_path):
    tree = json.loads(gltf("tri.bin"))
    (tmp_path / "tri.bin").write_bytes(TRIANGLE[:36] + struct.pack("<3H", 0, 1, 999) + b"\0\0")
    (tmp_path / "tri.gltf").write_text(json.dumps(tree))
    with pytest.raises(MeshError):
        _read(tmp_path / "tri.gltf")


def test_deeply_nested_gltf_json_is_no_recursion_error(tmp_path):
    (tmp_path / "deep.gltf").write_text('{"asset": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(MeshError):
        _read(tmp_path / "deep.gltf")
    from kzplayer.project.assets import _gltf_json
    assert _gltf_json(tmp_path / "deep.gltf") is None


@pytest.mark.parametrize("make_side", ["pipe", "sparse"])
def test_validate_and_convert_of_a_project_with_a_hostile_buffer(tmp_path, make_side):
    kzm = make(tmp_path / "p")
    side = kzm.parent / "meshes" / "tri.bin"
    side.unlink()
    if make_side == "pipe":
        os.mkfifo(side)
    else:
        with open(side, "wb") as f:
            f.truncate(9 << 29)
    ran = kzplayer("validate", kzm, cwd=tmp_path, timeout=120).expect(1)
    assert "mesh.unreadable" in ran.out and "fx.kzm:" in ran.out and ran.peak_mib < 1500, ran.out
    conv = kzplayer("convert", kzm, tmp_path / "out", cwd=tmp_path, timeout=120).expect(0, 1, 2)
    assert conv.peak_mib < 1500
