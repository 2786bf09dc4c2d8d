"""kzplayer.meshes, the one mesh loader: glTF 2.0 and OBJ through trimesh into numpy arrays,
cached, and kept inside the project folder."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh

from kzplayer import meshes
from kzplayer.meshes import MeshError, find_mesh_item, inside_project, load_mesh, mesh_for
from kzplayer.project.model import Item, Project, Property
from kzplayer.values import ItemRef


def _box(tmp_path, name):
    box = trimesh.creation.box(extents=(2.0, 1.0, 0.5))
    path = tmp_path / name
    box.export(path)
    return path, box


@pytest.mark.parametrize("name", ["box.glb", "box.gltf", "box.obj"])
def test_gltf_and_obj_load_as_the_same_arrays(tmp_path, name):
    path, box = _box(tmp_path, name)
    mesh = load_mesh(path)
    assert mesh.positions.dtype == np.float32 and mesh.positions.shape[1] == 3
    assert mesh.normals.shape == mesh.positions.shape and mesh.indices.dtype == np.uint32
    assert mesh.triangles == 12
    # the same box: its bounds, and every normal of unit length
    assert np.allclose(mesh.positions.min(axis=0), (-1.0, -0.5, -0.25), atol=1e-6)
    assert np.allclose(mesh.positions.max(axis=0), (1.0, 0.5, 0.25), atol=1e-6)
    assert np.allclose(np.linalg.norm(mesh.normals, axis=1), 1.0, atol=1e-5)
    assert mesh.radius == pytest.approx(np.linalg.norm((1.0, 0.5, 0.25)), rel=1e-6)


def test_triangles_face_outwards(tmp_path):
    path, _ = _box(tmp_path, "box.glb")
    mesh = load_mesh(path)
    tri = mesh.positions[mesh.indices]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    centre = tri.mean(axis=1)
    assert (np.einsum("ij,ij->i", normal, centre) > 0).all()


def test_a_mesh_is_read_once_per_file(tmp_path, monkeypatch):
    path, _ = _box(tmp_path, "box.obj")
    first = load_mesh(path)
    monkeypatch.setattr(meshes, "_read", lambda p: pytest.fail("read twice"))
    assert load_mesh(path) is first


def test_texture_coordinates_come_through_when_the_file_has_them(tmp_path):
    plane = trimesh.Trimesh(vertices=[(0, 0, 0), (1, 0, 0), (1, 0, -1), (0, 0, -1)],
                            faces=[(0, 1, 2), (0, 2, 3)], process=False)
    plane.visual = trimesh.visual.TextureVisuals(uv=[(0, 0), (1, 0), (1, 1), (0, 1)])
    plane.export(tmp_path / "plane.glb")
    mesh = load_mesh(tmp_path / "plane.glb")
    assert mesh.uvs is not None and np.allclose(sorted(map(tuple, mesh.uvs)), [(0, 0), (0, 1), (1, 0), (1, 1)])
    _, _ = _box(tmp_path, "box.obj")
    assert load_mesh(tmp_path / "box.obj").uvs is None


@pytest.mark.parametrize("content, name, message", [
    (None, "gone.glb", "mesh file not found"),
    (b"not a mesh at all", "bad.glb", "not a readable mesh"),
    (b"", "empty.obj", "holds no triangles"),
    (b"v 0 0 0\n", "rock.stl", "from .glb, .gltf and .obj"),
])
def test_bad_files_are_a_clear_error(tmp_path, content, name, message):
    if content is not None:
        (tmp_path / name).write_bytes(content)
    with pytest.raises(MeshError, match=message):
        load_mesh(tmp_path / name)


def test_a_gltf_cannot_read_a_buffer_outside_its_folder(tmp_path):
    inner = tmp_path / "project" / "meshes"
    inner.mkdir(parents=True)
    (tmp_path / "secret.bin").write_bytes(b"\0" * 64)
    (inner / "evil.gltf").write_text(
        '{"asset": {"version": "2.0"}, "buffers": [{"uri": "../../secret.bin", "byteLength": 64}],'
        ' "bufferViews": [{"buffer": 0, "byteLength": 36}],'
        ' "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],'
        ' "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],'
        ' "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}')
    with pytest.raises(MeshError, match="not a readable mesh"):
        load_mesh(inner / "evil.gltf")


def _project(tmp_path, file="meshes/box.glb"):
    root = Item("Project", "")
    lib = root.add_child(Item("Meshes", "Meshes"))
    mesh = lib.add_child(Item("Mesh", "Box"))
    mesh.properties["Mesh.File"] = Property("Mesh.File", file)
    screens = root.add_child(Item("Screens", "Screens"))
    model = screens.add_child(Item("Model3D", "Floor"))
    return Project(name="P", root=root, path=str(tmp_path / "p.kzm")), model


def test_a_mesh_item_names_its_file_relative_to_the_project(tmp_path):
    (tmp_path / "meshes").mkdir()
    _box(tmp_path / "meshes", "box.glb")
    project, model = _project(tmp_path)
    assert find_mesh_item(project, ItemRef("Meshes/Box")).name == "Box"
    assert mesh_for(project, ItemRef("Meshes/Box"), model).triangles == 12
    with pytest.raises(MeshError, match="Meshes"):
        find_mesh_item(project, ItemRef("Meshes/Rock"))
    with pytest.raises(MeshError, match="not a Mesh"):
        find_mesh_item(project, ItemRef("Screens/Floor"))


@pytest.mark.parametrize("name, message", [
    ("/etc/passwd", "absolute path"),
    ("../outside.glb", "outside the project folder"),
    ("meshes/../../outside.glb", "outside the project folder"),
    ("", "no file"),
])
def test_files_outside_the_project_are_refused(tmp_path, name, message):
    project, _ = _project(tmp_path)
    with pytest.raises(MeshError, match=message):
        inside_project(project, name)
