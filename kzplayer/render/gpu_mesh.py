"""Meshes on the GPU: a MeshData (kzplayer.meshes) as one interleaved vertex buffer
(position, normal, uv: 32 bytes a vertex) and one index buffer, uploaded once per mesh and
shared by every Model3D and mesh-particle emitter that draws it."""
from __future__ import annotations

import numpy as np

ATTRIBUTES = (("kzPosition", 3), ("kzNormal", 3), ("kzTexCoord", 2))       # floats each


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
        """A vertex array of this mesh for `program`: the attributes the program uses (a
        driver drops the ones it does not read), the others skipped over in the buffer."""
        key = id(program)
        if key not in self._vaos:
            fmt, names = [], []
            for name, floats in ATTRIBUTES:
                if name in program:
                    fmt.append(f"{floats}f")
                    names.append(name)
                else:
                    fmt.append(f"{floats}x4")
            self._vaos[key] = self.ctx.vertex_array(program, [(self.vertices, " ".join(fmt), *names)],
                                                    index_buffer=self.indices, index_element_size=4)
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
