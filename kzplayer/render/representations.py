"""NeL's representations as draws (docs/rendering.md, "Representations").

A rendering material's catalog `geometry` says what it draws per particle. The billboard
and the mesh are render/particle_draws.py's own; every other geometry here is one instanced,
indirect draw of a fixed vertex count per particle, its vertices made by the material's
vertex shader from gl_VertexID (no vertex buffer), the instance count the live count the
GPU wrote:

    point   1 vertex, GL points                  Particles_Dot
    line    4, a triangle strip                  Particles_Line
    quad    4, a triangle strip                  Particles_Stretched, Particles_Faces
    trail   2N, a triangle strip                 Particles_GradientLine (N: the history)
    strip   2N, a triangle strip                 Particles_FlatRibbon
    fan     sides + 2, a triangle fan            Particles_FanLight (sides: after the LOD)
    ring    2 (segments + 1), a triangle strip   Particles_Shockwave
    tube    6 (N - 1) sides indices, triangles   Particles_Ribbon (an index buffer per N, sides)
    flare   6 per element, triangles             Particles_LensFlare (the frame's step 4)
    bolt    2 (segments + 1), a triangle strip   Particles_Lightning (segments: a power of two;
            + (segments + 4) per branch)

The same geometries serve custom rendering materials (`geometry="tube" history="16"`):
the renderer defines KZ_GEOMETRY_<NAME> in both stages and sets the uniforms the stock ones
read (kz_historyLength, kz_historyNewest, kz_sides). No GL here but the index buffers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kzplayer.gpu.layout import MAX_HISTORY


@dataclass(frozen=True)
class Geometry:
    name: str
    mode: str                      # moderngl primitive name
    history: bool = False          # reads the position history
    indexed: bool = False          # drawn through an index buffer (tube)
    screen: bool = False           # drawn in the frame's step 4, over the picture (flares)
    repeat: bool = False           # its textures repeat (U round a ring)
    lod: str | None = None         # the property holding its most sides; the geometry LOD lowers it


GEOMETRIES = {g.name: g for g in (
    Geometry("point", "POINTS"),
    Geometry("line", "TRIANGLE_STRIP"),
    Geometry("quad", "TRIANGLE_STRIP"),
    Geometry("trail", "TRIANGLE_STRIP", history=True),
    Geometry("strip", "TRIANGLE_STRIP", history=True),
    Geometry("fan", "TRIANGLE_FAN", lod="FanLight.Sectors"),
    Geometry("ring", "TRIANGLE_STRIP", repeat=True),
    Geometry("tube", "TRIANGLES", history=True, indexed=True, lod="Ribbon.Sides"),
    Geometry("flare", "TRIANGLES", screen=True),
    Geometry("bolt", "TRIANGLE_STRIP"),
)}
DEFAULT_SIDES = {"fan": 24, "tube": 6}
MIN_SIDES = {"fan": 6, "tube": 3}
MAX_SIDES = {"fan": 128, "tube": 32}


def representation(material) -> Geometry | None:
    """The representation a rendering material draws, None for billboards and meshes."""
    for name in material.geometry:
        if name in GEOMETRIES:
            return GEOMETRIES[name]
    return None


def _int(value, default: int, lo: int, hi: int) -> int:
    try:
        n = int(round(float(value)))
    except (TypeError, ValueError):
        n = default
    return min(max(n, lo), hi)


def max_sides(geometry: Geometry, values) -> int:
    """Sides (fan sectors, tube sides) the material asks for, before the LOD."""
    if geometry.lod is None:
        return 0
    name = geometry.name
    return _int(values(geometry.lod), DEFAULT_SIDES[name], MIN_SIDES[name], MAX_SIDES[name])


@dataclass(frozen=True)
class DrawCounts:
    vertices: int                  # per instance (non-indexed draws)
    indices: int = 0               # per instance (tube)
    sides: int = 0                 # kz_sides
    history: int = 0               # positions a trail is drawn through


def draw_counts(geometry: Geometry, values, history_length: int, sides: int | None = None) -> DrawCounts:
    """What one particle's draw takes. `history_length`: N of the emitter's history (0 when
    it keeps none: a trail of its current and previous positions); `sides`: the geometry
    LOD's choice (None: the material's most)."""
    n = history_length if history_length >= 2 else 2
    n = min(n, MAX_HISTORY)
    most = max_sides(geometry, values)
    s = most if sides is None else min(max(int(sides), MIN_SIDES.get(geometry.name, 0)), most)
    name = geometry.name
    if name == "point":
        return DrawCounts(1)
    if name in ("line", "quad"):
        return DrawCounts(4)
    if name in ("trail", "strip"):
        return DrawCounts(2 * n, history=n)
    if name == "fan":
        return DrawCounts(s + 2, sides=s)
    if name == "ring":
        return DrawCounts(2 * (_int(values("Shockwave.Segments"), 48, 3, 256) + 1))
    if name == "tube":
        return DrawCounts(n * (s + 1), indices=6 * (n - 1) * s, sides=s, history=n)
    if name == "flare":
        return DrawCounts(6 * _int(values("LensFlare.Elements"), 7, 1, 16))
    if name == "bolt":
        segments = bolt_segments(values("Lightning.Segments"))
        branches = _int(values("Lightning.Branches"), 0, 0, 8)
        per_branch = 2 * (max(segments // 2, 2) + 1) + 2          # its strip and two joining vertices
        return DrawCounts(2 * (segments + 1) + branches * per_branch, sides=segments)
    raise ValueError(name)


def bolt_segments(value) -> int:
    """Lightning.Segments as the power of two nearest it, 2 to 128 (midpoint displacement
    halves every piece at every level)."""
    n = _int(value, 32, 2, 128)
    return min(max(2 ** round(np.log2(n)), 2), 128)


def tube_indices(n: int, sides: int) -> np.ndarray:
    """The triangles of a tube of n rings of sides + 1 vertices (vertex k (sides + 1) + j is
    ring k's j-th; the last of a ring repeats its first for the texture's seam): two per
    side per segment, n - 1 segments, wound outwards."""
    k = np.arange(n - 1)[:, None]
    j = np.arange(sides)[None, :]
    a = k * (sides + 1) + j             # ring k, vertex j
    b = a + 1                           # ring k, vertex j + 1
    c = a + sides + 1                   # ring k + 1, vertex j
    d = c + 1
    quads = np.stack([a, c, b, b, c, d], axis=-1)
    return quads.reshape(-1).astype(np.uint32)


class IndexBuffers:
    """Tube index buffers by (N, sides), made once."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._buffers: dict[tuple[int, int], object] = {}
        self._vaos: dict[tuple, object] = {}

    def vao(self, program, n: int, sides: int):
        key = (n, sides)
        if key not in self._buffers:
            self._buffers[key] = self.ctx.buffer(tube_indices(n, sides).tobytes())
        vkey = (id(program), key)
        if vkey not in self._vaos:
            self._vaos[vkey] = self.ctx.vertex_array(program, [], index_buffer=self._buffers[key],
                                                     index_element_size=4)
        return self._vaos[vkey]

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        for buf in self._buffers.values():
            buf.release()
        self._vaos.clear()
        self._buffers.clear()
