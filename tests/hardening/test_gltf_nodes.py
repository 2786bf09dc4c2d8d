"""Nested glTF nodes in linear time without recursion (issue 21: 3,000 nested nodes took 51 s
in trimesh's own walk, 300 took 11 s): kzplayer.project.gltf_nodes flattens the tree first, one
visit a node. Depth 3,000 loads with every node's transform applied; ten times the nodes is
ten times the visits (counted, not timed); a cycle, a node of two parents, a node that does
not exist, a transform that is no numbers are MeshErrors. The files are made here."""
from __future__ import annotations

import base64
import json
import struct

import numpy as np
import pytest

from kzplayer.project.gltf_nodes import flatten_file
from kzplayer.meshes import MeshError, _read
from tests.hostile import run
from tests.project.assets_fixture import TRIANGLE


def chain(n: int, mesh_every=False, step=(0.001, 0.0, 0.0)) -> dict:
    nodes = [{"children": [i + 1], "translation": list(step), **({"mesh": 0} if mesh_every else {})}
             for i in range(n - 1)] + [{"mesh": 0}]
    uri = "data:application/octet-stream;base64," + base64.b64encode(TRIANGLE).decode()
    return {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
            "buffers": [{"uri": uri, "byteLength": len(TRIANGLE)}],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                            {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                           "min": [0, 0, 0], "max": [1, 1, 0]},
                          {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]}


def test_3000_nested_nodes_load_with_every_transform(tmp_path):
    path = tmp_path / "deep.gltf"
    path.write_text(json.dumps(chain(3000)))
    ran = run([__import__("sys").executable, "-c", f"from kzplayer.meshes import _read; from pathlib import Path; "
               f"m = _read(Path({str(path)!r})); print(m.triangles, m.positions[:, 0].max())"],
              env=dict(__import__("os").environ, PYTHONPATH=str(__import__("tests.hostile").hostile.ROOT)),
              timeout=120)
    ran.expect(0)
    triangles, x = ran.out.split()
    assert int(triangles) == 1 and float(x) == pytest.approx(1.0 + 2999 * 0.001, abs=1e-4)   # the leaf, moved
    assert ran.peak_mib < 1000 and ran.seconds < 60


def test_the_work_is_linear_in_the_node_count():
    small = flatten_file(json.dumps(chain(300)).encode(), glb=False)
    large = flatten_file(json.dumps(chain(3000)).encode(), glb=False)
    assert (small.visits, large.visits) == (300, 3000)
    assert len(json.loads(large.data)["nodes"]) == 1                    # one node draws: it alone stays
    every = flatten_file(json.dumps(chain(3000, mesh_every=True)).encode(), glb=False)
    assert every.visits == 3000 and len(json.loads(every.data)["nodes"]) == 3000


def test_every_node_of_a_chain_draws_where_its_parents_put_it(tmp_path):
    path = tmp_path / "all.gltf"
    path.write_text(json.dumps(chain(50, mesh_every=True, step=(0.0, 2.0, 0.0))))
    mesh = _read(path)
    assert mesh.triangles == 50
    # node i moves by 2 (i + 1) with its parents; the last node has no translation of its own
    offsets = {2.0 * (i + 1) for i in range(49)}
    assert sorted(set(np.round(mesh.positions[:, 1], 4))) == pytest.approx(
        sorted(offsets | {o + 1 for o in offsets}))


def test_a_glb_is_flattened_too(tmp_path):
    tree = chain(2000)
    text = json.dumps(tree).encode()
    text += b" " * (-len(text) % 4)
    glb = b"glTF" + struct.pack("<II", 2, 12 + 8 + len(text)) + struct.pack("<II", len(text), 0x4E4F534A) + text
    (tmp_path / "deep.glb").write_bytes(glb)
    mesh = _read(tmp_path / "deep.glb")
    assert mesh.positions[:, 0].max() == pytest.approx(1.0 + 1999 * 0.001, abs=1e-4)


@pytest.mark.parametrize("edit, why", [
    (lambda t: t["nodes"][5].update(children=[2]), "reached twice"),
    (lambda t: t["nodes"][5].update(children=[99_999]), "does not have"),
    (lambda t: t["nodes"][5].update(translation=["x", 0, 0]), "not numbers"),
    (lambda t: t["nodes"][5].update(matrix=[1e400] * 16), "not finite"),
])
def test_a_broken_tree_is_a_mesh_error(tmp_path, edit, why):
    tree = chain(10)
    edit(tree)
    (tmp_path / "bad.gltf").write_text(json.dumps(tree))
    with pytest.raises(MeshError, match=why):
        _read(tmp_path / "bad.gltf")
