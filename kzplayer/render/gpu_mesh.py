"""Meshes on the GPU: a MeshData (kzplayer.meshes) as one interleaved vertex buffer
(position, normal, uv: 32 bytes a vertex) and one index buffer, uploaded once per mesh and
shared by every Model3D and mesh-particle emitter that draws it."""
from __future__ import annotations

import numpy as np

VERTEX_FORMAT = "3f 3f 2f"
ATTRIBUTES = ("kzPosition", "kzNormal", "kzTexCoord")


class GpuMesh:
    def __init__(self, ctx, mesh):
        uvs = mesh.uvs if mesh.uvs is not None else np.zeros((len(mesh.positions), 2), np.float32)
        data = np.hstack([mesh.positions, mesh.normals, uvs]).astype(np.float32)
        self.vertices = ctx.buffer(data.tobytes())
        self.indices = ctx.buffer(np.ascontiguousarray(mesh.indices, np.uint32).tobytes())
        self.index_count = int(mesh.indices.size)
        self.has_uvs = mesh.uvs is not None
        self._vaos: dict[int, object] = {}
        self.ctx = ctx

    def vao(self, program):
        """A vertex array of this mesh for `program` (attributes it lacks are skipped)."""
        key = id(program)
        if key not in self._vaos:
            self._vaos[key] = self.ctx.vertex_array(program, [(self.vertices, VERTEX_FORMAT, *ATTRIBUTES)],
                                                    index_buffer=self.indices, index_element_size=4,
                                                    skip_errors=True)
        return self._vaos[key]

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        self.vertices.release()
        self.indices.release()


class MeshCache:
    def __init__(self, ctx):
        self.ctx = ctx
        self._meshes: dict[int, tuple] = {}

    def get(self, mesh) -> GpuMesh:
        key = id(mesh)
        if key not in self._meshes:
            self._meshes[key] = (mesh, GpuMesh(self.ctx, mesh))   # keep the MeshData alive: ids stay unique
        return self._meshes[key][1]

    def release(self) -> None:
        for _, gpu in self._meshes.values():
            gpu.release()
        self._meshes.clear()
