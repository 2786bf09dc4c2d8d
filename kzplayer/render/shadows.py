"""Shadow maps of the DirectionalLight and SpotLight nodes with CastShadows (at most
lights.MAX_SHADOWS a frame), drawn before the frame's first pass.

    plan    each shadowed light's view and projection, fitted to what the camera sees of the
            scene's models (its view out to SHADOW_DISTANCE, clamped to their box): a
            directional light looks at that region's bounding sphere with an orthographic
            box just holding it, a spot light from its position through its cone (a little
            wider) out to the sphere's far side
    render  the casters' depth from the light: opaque Model3D meshes (their depth-only
            variant: no shading) and opaque mesh particles (their own programs with the
            light's view), with a slope-scaled polygon offset against acne
    lookup  render/lighting.glsl (KZ_SHADOWS): a texel-sized normal offset and a 3 x 3 grid of
            bilinear compares a texel apart (PCF: a soft edge a few texels wide)

The maps are SIZE x SIZE 24-bit depth textures with comparison on. Shadows darken only the
light that casts them: ambient, the other lights and emitted light stay.
"""
from __future__ import annotations

import math

import numpy as np

from kzplayer.render.camera import perspective

SIZE = 1024
SHADOW_DISTANCE = 25.0   # metres from the camera the maps cover (clamped to the models' box)
SOFTNESS = 1.0           # texels the PCF grid reaches either side
DEPTH_BIAS = 0.0004      # in the map's depth (0..1), on top of the polygon offset
POLYGON_OFFSET = (2.0, 4.0)


def look_at(eye, target) -> np.ndarray:
    eye, target = np.asarray(eye, float), np.asarray(target, float)
    f = target - eye
    f /= max(np.linalg.norm(f), 1e-12)
    up = np.array([0.0, 1.0, 0.0]) if abs(f[1]) < 0.99 else np.array([1.0, 0.0, 0.0])
    r = np.cross(f, up)
    r /= np.linalg.norm(r)
    u = np.cross(r, f)
    view = np.eye(4)
    view[0, :3], view[1, :3], view[2, :3] = r, u, -f
    view[:3, 3] = -view[:3, :3] @ eye
    return view


def orthographic(half: float, near: float, far: float) -> np.ndarray:
    m = np.eye(4)
    m[0, 0] = m[1, 1] = 1.0 / half
    m[2, 2] = -2.0 / (far - near)
    m[2, 3] = -(far + near) / (far - near)
    return m


def view_sphere(models, camera, aspect: float) -> tuple[np.ndarray, float]:
    """(centre, radius) round what the camera sees of the models: the corners of its view
    out to SHADOW_DISTANCE, clamped into the models' box (scene_sphere), so a 100 m floor
    does not spread the map's texels over ground nobody looks at."""
    centre, radius = scene_sphere(models)
    lo, hi = centre - radius, centre + radius
    if camera is None:
        return centre, radius
    boxes = _boxes(models)
    if boxes is not None:
        lo, hi = boxes.min(axis=0), boxes.max(axis=0)
    t = math.tan(math.radians(camera.fov_y) / 2)
    corners = []
    for d in (max(camera.near, 1e-3), min(camera.far, SHADOW_DISTANCE)):
        for sx in (-1, 1):
            for sy in (-1, 1):
                corners.append((sx * d * t * aspect, sy * d * t, -d, 1.0))
    world = np.linalg.inv(camera.view) @ np.array(corners).T
    pts = np.clip(world[:3].T, lo, hi)
    a, b = pts.min(axis=0), pts.max(axis=0)
    mid = (a + b) / 2
    return mid, max(float(np.linalg.norm(b - mid)), 0.05)


def _boxes(models):
    corners = [_corners(m) for m in models]
    corners = [c for c in corners if c is not None]
    return np.concatenate(corners) if corners else None


def _corners(m):
    colour = m.values("Model3D.Color")
    if colour is not None and not any(float(c) > 0 for c in tuple(colour)[:3]):
        return None
    p = np.asarray(m.mesh.positions, float)
    if not len(p):
        return None
    lo, hi = p.min(axis=0), p.max(axis=0)
    box = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    return (np.asarray(m.model, float) @ box.T).T[:, :3]


def scene_sphere(models) -> tuple[np.ndarray, float]:
    """(centre, radius) of a sphere round every model's mesh in world space that light shows
    (a model whose Model3D.Color is black, a sky backdrop lit by its emission, is left out:
    the map would stretch to it); a 10 m sphere at the origin when there is none."""
    pts = _boxes(models)
    if pts is None:
        return np.zeros(3), 10.0
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre = (lo + hi) / 2
    return centre, max(float(np.linalg.norm(hi - centre)), 1e-3)


def light_matrices(kind: str, light, centre, radius: float):
    """(view, projection, texel size in metres at the scene) of one shadowed light."""
    if kind == "DirectionalLight":
        direction = np.asarray(light[0], float)
        eye = centre - direction * 2.0 * radius
        return look_at(eye, centre), orthographic(radius, radius, 3.0 * radius), 2.0 * radius / SIZE
    position, direction, cone = np.asarray(light[0], float), np.asarray(light[1], float), light[4]
    cutoff = math.degrees(math.acos(min(max(cone[0], -1.0), 1.0)))
    fov = min(2.0 * cutoff + 4.0, 170.0)
    distance = float(np.linalg.norm(centre - position))
    far = distance + radius
    near = max(0.05, (distance - radius) * 0.5, far / 4000.0)
    texel = 2.0 * math.tan(math.radians(fov) / 2) * max(distance, near) / SIZE
    return look_at(position, position + direction), perspective(fov, 1.0, near, far), texel


class ShadowMaps:
    """The depth textures and their framebuffers, made on first use."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.maps = []
        self._fbos = []

    def _ensure(self, n: int) -> None:
        ctx = self.ctx
        while len(self.maps) < n:
            depth = ctx.depth_texture((SIZE, SIZE))
            depth.compare_func = "<="
            depth.filter = (ctx.LINEAR, ctx.LINEAR)
            depth.repeat_x = depth.repeat_y = False
            self.maps.append(depth)
            self._fbos.append(ctx.framebuffer(depth_attachment=depth))

    def plan(self, frame, camera=None, aspect: float = 16 / 9) -> list:
        """Each shadowed light's (view, projection), its matrix and parameters put into
        frame.lights for the lights' block."""
        lights = frame.lights
        lights.shadow_matrices, lights.shadow_params = [], []
        if not lights.shadows:
            return []
        centre, radius = view_sphere(frame.models, camera, aspect)
        views = []
        for kind, k in lights.shadows:
            light = (lights.directional if kind == "DirectionalLight" else lights.spot)[k]
            view, projection, texel = light_matrices(kind, light, centre, radius)
            views.append((view, projection, view[:3, :3].T @ -view[:3, 3]))
            lights.shadow_matrices.append(projection @ view)
            lights.shadow_params.append((texel, DEPTH_BIAS, SOFTNESS))
        return views

    def render(self, views, inputs, draw_casters) -> None:
        """Each map: cleared, then `draw_casters()` with the light's view and projection in
        the frame's uniforms (restored after)."""
        ctx = self.ctx
        self._ensure(len(views))
        saved = dict(inputs.uniforms)
        inputs.depth_only = True
        try:
            ctx.enable(ctx.DEPTH_TEST)
            ctx.depth_func = "<"
            ctx.disable(ctx.BLEND | ctx.CULL_FACE)
            ctx.polygon_offset = POLYGON_OFFSET
            for fbo, (view, projection, eye) in zip(self._fbos, views):
                fbo.use()
                fbo.depth_mask = True
                fbo.clear(depth=1.0)
                inputs.uniforms.update({"kz_view": view, "kz_projection": projection,
                                        "kz_cameraPosition": tuple(float(c) for c in eye),
                                        "kz_viewport": (float(SIZE), float(SIZE))})
                draw_casters()
        finally:
            inputs.depth_only = False
            ctx.polygon_offset = (0.0, 0.0)
            inputs.uniforms.clear()
            inputs.uniforms.update(saved)

    def release(self) -> None:
        for obj in self._fbos + self.maps:
            obj.release()
        self.maps, self._fbos = [], []
