"""Drawing hand-made particles: records written straight into a buffer (no simulation), an
EmitterDraw with property values from a dict, a camera on +Z looking at the origin."""
from __future__ import annotations

import math

import numpy as np

from kzplayer.gpu.views import RecordBuffers
from kzplayer.gpu.layout import FLAG_ALIVE, PARTICLE_DTYPE
from kzplayer.project.catalog import catalog
from kzplayer.render.camera import Camera
from kzplayer.render.frame import EmitterDraw, Frame, history_of
from kzplayer.render.materials import stock_material
from kzplayer.values import Color4

W, H = 96, 64
DIST = 10.0
FOCAL = 1 / math.tan(math.radians(22.5))   # 45 degree vertical field of view


def camera(distance=DIST, yaw_deg=0.0, pitch_deg=0.0, target=(0.0, 0.0, 0.0)):
    """A camera `distance` from `target`, turned round it by yaw (about +Y) and pitch."""
    yaw, pitch = math.radians(yaw_deg), math.radians(pitch_deg)
    ry = np.array([[math.cos(yaw), 0, math.sin(yaw)], [0, 1, 0], [-math.sin(yaw), 0, math.cos(yaw)]])
    rx = np.array([[1, 0, 0], [0, math.cos(pitch), -math.sin(pitch)], [0, math.sin(pitch), math.cos(pitch)]])
    rot = ry @ rx
    world = np.eye(4)
    world[:3, :3] = rot
    world[:3, 3] = np.asarray(target, float) + rot @ np.array([0.0, 0.0, distance])
    return Camera(world)


def particles(positions, *, age=0.0, lifetime=2.0, scale=0.5, flags=FLAG_ALIVE, color=(1, 1, 1, 1)):
    a = np.zeros(len(positions), PARTICLE_DTYPE)
    a["position"] = positions
    a["age"], a["lifetime"], a["scale"], a["flags"], a["color"] = age, lifetime, scale, flags, color
    return a


def emitter(buf, capacity, *, material="ParticlesDefault", values=None, key="e", **fields):
    """An EmitterDraw of `buf`; `values`: property values of the node (Particle.Size 1 m
    unless given, so test scales read as metres)."""
    cat = catalog()
    # under the catalog's names, as the player reads them (ColorOverLife.StartColor is
    # ParticlesOverLife.ColorStart since issue 20)
    props = {cat.canonical(k): v for k, v in {"Particle.Size": 1.0, **(values or {})}.items()}

    def value(name):
        spec = cat.property(name)
        name = cat.canonical(name)
        if name in props:
            v = props[name]     # typed as the catalog types it (colours are Color4, sRGB)
            return Color4(*v) if spec is not None and spec.type == "color4" and isinstance(v, tuple) else v
        return spec.default if spec is not None else None
    mat = material if not isinstance(material, str) else stock_material(cat, material)
    fields.setdefault("history", history_of(buf))
    return EmitterDraw(key=key, particles=buf, capacity=capacity, material=mat, values=value, **fields)


def draw(renderer, ctx, records, cam=None, linear=False, history=None, **kw):
    """Draw one emitter of `records` (with `history`: positions (n, N, 3), newest first);
    the image as float (sRGB 0..255, or linear 0..1)."""
    buf = RecordBuffers(ctx, records, history=history)
    try:
        renderer.draw(Frame(emitters=[emitter(buf, len(records), **kw)]), cam or camera())
        return renderer.read_linear() if linear else renderer.read().astype(float)
    finally:
        buf.release()


def expected_pixel(x, y, distance=DIST):
    """Where a point at (x, y, 0) lands, in pixel coordinates (column, row from the top)."""
    nx = x * FOCAL / (distance * W / H)
    ny = y * FOCAL / distance
    return (nx + 1) / 2 * W, (1 - ny) / 2 * H


def centroid(img):
    lum = img.sum(axis=2)
    rows, cols = np.indices(lum.shape)
    return (cols * lum).sum() / lum.sum() + 0.5, (rows * lum).sum() / lum.sum() + 0.5


def lit_width(img) -> int:
    lit_cols = np.flatnonzero(img.sum(axis=(0, 2)) > 0)
    return lit_cols[-1] - lit_cols[0] + 1
