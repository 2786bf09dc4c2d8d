"""The one mesh loader: glTF 2.0 (.glb, .gltf) and OBJ files as numpy arrays, no GL.

A `Mesh` item of the project's `Meshes` library names its file (`Mesh.File`, relative to
the project file); Model3D nodes (`Model3D.Mesh`) and mesh particles
(`ParticleEmitter.ParticleMesh`) refer to the item. The file is read with trimesh, the
field's standard loader (no mesh parser of our own), into

    MeshData.positions  float32 (N, 3)   vertex positions, in the file's units (metres)
    MeshData.normals    float32 (N, 3)   unit vertex normals (computed where the file has none)
    MeshData.uvs        float32 (N, 2)   texture coordinates, or None
    MeshData.indices    uint32  (M, 3)   triangles, counter-clockwise seen from outside

A file with several meshes or a node hierarchy (a glTF scene) is flattened into one mesh
with each node's transform applied. Loaded once per file (cached by path, size and
modification time). GL upload lives in kzplayer/render/; the simulation (mesh emitters and
colliders) uploads its own storage buffers from the same arrays.

The hardening rules hold: the file must lie inside the project folder (no absolute path,
no `..` out of it), and whatever a glTF or OBJ file references (buffers, .mtl files) must
lie beside or below it (trimesh's resolver refuses the rest). A file larger than MAX_BYTES
or with more than MAX_TRIANGLES triangles is refused before or after parsing.
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from kzplayer.project.gltf_nodes import flatten_file
from kzplayer.project.files import Outside, inside, project_folder, read_regular
from kzplayer.project.paths import resolve

SUFFIXES = (".glb", ".gltf", ".obj")
MAX_BYTES = 64 << 20          # 64 MiB: more than any particle or scene mesh needs
MAX_TRIANGLES = 2_000_000


class MeshError(ValueError):
    """A mesh that cannot be used: the message says why, in words for the user."""


@dataclass(frozen=True, eq=False)
class MeshData:
    path: str
    positions: np.ndarray
    normals: np.ndarray
    uvs: np.ndarray | None
    indices: np.ndarray

    @property
    def triangles(self) -> int:
        return len(self.indices)

    @property
    def radius(self) -> float:
        """The largest distance of a vertex from the mesh's origin."""
        return float(np.linalg.norm(self.positions, axis=1).max()) if len(self.positions) else 0.0


_CACHE: dict[tuple, MeshData] = {}


def load_mesh(path: str | Path) -> MeshData:
    """The mesh in `path` (cached); MeshError when it cannot be read."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError:
        raise MeshError(f"mesh file not found: {path}") from None
    import stat as S
    if not S.S_ISREG(st.st_mode):
        raise MeshError(f"{path}: a {'folder' if S.S_ISDIR(st.st_mode) else 'pipe, device or socket'}, not a mesh file")
    if path.suffix.lower() not in SUFFIXES:
        raise MeshError(f"{path}: kzplayer reads meshes from .glb, .gltf and .obj files, not {path.suffix or 'this'}")
    if st.st_size > MAX_BYTES:
        raise MeshError(f"{path}: {st.st_size / 2**20:.0f} MiB is more than a mesh may be ({MAX_BYTES >> 20} MiB)")
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        _CACHE[key] = _read(path)
    return _CACHE[key]


def _side_files(path: Path):
    """trimesh's resolver for the files a mesh names (glTF buffers and images, an OBJ's .mtl
    and maps): beside or below the mesh file, regular files only (a pipe is refused before it
    is opened, never read), MAX_BYTES a file and all of them together."""
    from trimesh.resolvers import FilePathResolver

    class SideFiles(FilePathResolver):
        budget = [MAX_BYTES]

        def namespaced(self, namespace):
            inner = SideFiles(os.path.join(self.parent, namespace))
            inner.budget = self.budget
            return inner

        def get(self, name: str):
            for candidate in (name.strip(), name.strip().lstrip("/"), os.path.split(name)[-1]):
                try:
                    found = self.absolute(candidate)
                except ValueError:
                    continue
                if os.path.lexists(found):
                    data = read_regular(found, self.budget[0], f"{candidate} (named by {path.name})")
                    self.budget[0] -= len(data)
                    return data
            self.absolute(name)
            raise FileNotFoundError(name)

    return SideFiles(str(path))


def _read(path: Path) -> MeshData:
    import trimesh
    try:
        source = str(path)
        if path.suffix.lower() in (".gltf", ".glb"):     # its node tree flattened first: linear time
            flat = flatten_file(read_regular(path, MAX_BYTES, "the mesh file"), path.suffix.lower() == ".glb")
            source = io.BytesIO(flat.data) if flat is not None else source
        kind = {"file_type": path.suffix.lower()[1:]} if not isinstance(source, str) else {}
        loaded = trimesh.load(source, force="mesh", process=False, resolver=_side_files(path), **kind)
    except Exception as exc:      # trimesh raises whatever its parsers raise on a bad file
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise MeshError(f"{path}: not a readable mesh ({why[:200]})") from None
    if not isinstance(loaded, trimesh.Trimesh) or len(loaded.faces) == 0:
        raise MeshError(f"{path}: the file holds no triangles")
    if len(loaded.faces) > MAX_TRIANGLES:
        raise MeshError(f"{path}: {len(loaded.faces):,} triangles is more than a mesh may have "
                        f"({MAX_TRIANGLES:,})")
    positions = np.ascontiguousarray(loaded.vertices, dtype=np.float32)
    faces = np.asarray(loaded.faces)
    if faces.ndim != 2 or faces.shape[1] != 3 or faces.min() < 0 or faces.max() >= len(positions):
        raise MeshError(f"{path}: a triangle names a vertex the mesh does not have "
                        f"(index {int(faces.max())}, {len(positions):,} vertices)")
    indices = np.ascontiguousarray(faces, dtype=np.uint32)
    if not np.isfinite(positions).all():
        raise MeshError(f"{path}: the mesh has vertices at infinity or NaN")
    normals = np.asarray(loaded.vertex_normals, dtype=np.float32)
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.ascontiguousarray(np.where(lengths > 1e-12, normals / np.maximum(lengths, 1e-12),
                                            np.array([0.0, 1.0, 0.0], np.float32)), dtype=np.float32)
    uv = getattr(loaded.visual, "uv", None)
    uvs = None
    if uv is not None and len(uv) == len(positions):
        uvs = np.ascontiguousarray(uv, dtype=np.float32)
    return MeshData(str(path), positions, normals, uvs, indices)


def inside_project(project, relative: str) -> Path:
    """`relative` (a file named by the project) as a path inside the project folder;
    MeshError when it is absolute, leaves the folder (also through a link) or is no name a
    file can have: kzplayer.project.files.inside, the one rule for files a project names."""
    text = str(relative).strip()
    if not text:
        raise MeshError("no file is named")
    root = project_folder(project).resolve()
    try:
        return inside(root, text, [root], str(relative))
    except Outside as exc:
        raise MeshError(str(exc)) from None


def mesh_item_file(project, item) -> Path:
    """The file of a Mesh item (its Mesh.File, inside the project folder)."""
    name = item.get("Mesh.File") if hasattr(item, "get") else None
    if not name:
        raise MeshError(f"{item.path}: Mesh.File names no file")
    return inside_project(project, str(name))


def find_mesh_item(project, ref, owner=None):
    """The Mesh item an item-typed property (Model3D.Mesh, ParticleEmitter.ParticleMesh)
    refers to; MeshError when it names none."""
    text = str(getattr(ref, "path", ref) or "").strip()
    if not text:
        raise MeshError("no Mesh item is named")
    found = resolve(project, text, owner)
    if not found:
        raise MeshError(f"{found} (a Mesh item of the project's Meshes library)")
    if found.type != "Mesh":
        raise MeshError(f"{text} is {found.type} '{found.name}', not a Mesh")
    return found


def mesh_for(project, ref, owner=None) -> MeshData:
    """The MeshData an item reference names (Mesh item -> file -> arrays)."""
    return load_mesh(mesh_item_file(project, find_mesh_item(project, ref, owner)))
