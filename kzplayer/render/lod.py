"""Level of detail (NeL "LOD balancing"; docs/rendering.md, "LOD"): what the camera's distance
leaves of an emitter's continuous emission, and how many sides its fan lights and ribbons
get for their size on screen. Decided per emitter and frame on the CPU from the camera and
the emitter's node (no GL, no readback): the emission factor goes into the simulation's
emitter table (Simulation.set_emission_lod), the sides into the frame's draws; both are in
`play --stats` (lod_rate, lod_sides), and `play --no-lod` turns both off.

* Emission: 1 up to Emission.LodNear from the camera, falling linearly to
  Emission.LodMinimumRate at Emission.LodFar and staying there beyond; LodFar <= LodNear
  (the default 0, 0) is no LOD. Count materials apply it to their continuous rate only
  (EmissionCount_Schedule: Rate, not ImpulseAtCycleStart; EmissionCount_PerParticle: each
  parent's RatePerParticle, by keeping an even share of its children; event-driven counts
  not at all).
* Geometry: a fan light gets a sector per FAN_PIXELS pixels of its rim's length on screen
  (at least 6), a ribbon a side per TUBE_PIXELS pixels of its girth (at least 3), never more
  than the material asks for (FanLight.Sectors, Ribbon.Sides). The size on screen is the
  material's radius x the emitter's largest spawn scale and over-life scale, at the
  distance of the emitter's node.
"""
from __future__ import annotations

import math

import numpy as np

from kzplayer.render.materials import DEFAULT, RenderMaterial
from kzplayer.render.representations import MIN_SIDES, max_sides, representation
from kzplayer.values import as_float

FAN_PIXELS = 8.0
TUBE_PIXELS = 6.0
PIXELS_PER_SIDE = {"fan": FAN_PIXELS, "tube": TUBE_PIXELS}
RADIUS_PROPERTY = {"fan": "FanLight.Radius", "tube": "Ribbon.Radius"}


def emission_factor(distance: float, near: float, far: float, minimum: float) -> float:
    """What is left of a continuous rate at `distance` from the camera."""
    if not far > near:
        return 1.0
    minimum = min(max(minimum, 0.0), 1.0)
    t = min(max((distance - near) / (far - near), 0.0), 1.0)
    return 1.0 + (minimum - 1.0) * t


def sides_for(geometry: str, pixels: float, most: int) -> int:
    """Sides of a fan or tube whose radius is `pixels` on screen."""
    low = MIN_SIDES[geometry]
    if most <= low:
        return most
    wanted = math.ceil(2.0 * math.pi * max(pixels, 0.0) / PIXELS_PER_SIDE[geometry])
    return int(min(max(wanted, low), most))


def pixels_per_metre(camera, distance: float, height: int) -> float:
    """Pixels a metre spans at `distance` in front of the camera (vertical field of view)."""
    focal = 0.5 * height / math.tan(math.radians(camera.fov_y) / 2.0)
    return focal / max(distance, 1e-6)


def _largest_scale(values) -> float:
    scale = values("Emission.Scale")
    spawn = max((abs(as_float(c, 1.0)) for c in scale), default=1.0) if scale is not None else 1.0
    over = [values("ParticlesOverLife.ScaleStart"), values("ParticlesOverLife.ScaleEnd")]
    life = max((abs(as_float(c, 1.0)) for v in over if v is not None for c in tuple(v)[:2]), default=1.0)
    return spawn * life


class LevelOfDetail:
    """The LOD of one frame: `plan(sim, values, camera, size)` -> ({path: emission factor},
    {path: sides}) for the emitters it applies to. `enabled` False (--no-lod): factor 1 and
    the material's own sides everywhere."""

    def __init__(self, catalog, enabled: bool = True):
        self.catalog = catalog
        self.enabled = enabled

    def applies(self, sim, value) -> bool:
        """Has any emitter an emission LOD or a geometry with sides (what --stats reports)?"""
        for em in sim.emitters:
            if as_float(value(em.item, "Emission.LodFar")) > as_float(value(em.item, "Emission.LodNear")):
                return True
            if self._geometry(em, value) is not None:
                return True
        return False

    def _geometry(self, em, value):
        ref = value(em.item, "ParticleEmitter.ParticleMaterial")
        spec = self.catalog.material(str(ref) if ref not in (None, "") else DEFAULT)
        if spec is None or spec.slot != "Particle":
            return None
        geometry = representation(RenderMaterial(spec.name, None, None, geometry=tuple(spec.geometry)))
        return geometry if geometry is not None and geometry.lod is not None else None

    def plan(self, sim, value, camera, size) -> tuple[dict, dict]:
        rates, sides = {}, {}
        position = np.asarray(camera.position, float) if camera is not None else None
        for em in sim.emitters:
            item = em.item
            # em.transform is emitter -> the system's simulation space, not its particles' space
            # (em.simulation_to_world differs for a ParticleEmitter.Space of its own)
            where = (em.system.simulation_to_world @ em.transform)[:3, 3]
            distance = float(np.linalg.norm(where - position)) if position is not None else 0.0
            near, far = as_float(value(item, "Emission.LodNear")), as_float(value(item, "Emission.LodFar"))
            if far > near:
                rates[em.path] = emission_factor(distance, near, far, as_float(value(item, "Emission.LodMinimumRate"), 0.2)) \
                    if self.enabled and position is not None else 1.0
            geometry = self._geometry(em, value)
            if geometry is not None:
                values = (lambda name, item=item: value(item, name))
                most = max_sides(geometry, values)
                if self.enabled and position is not None:
                    radius = as_float(value(item, RADIUS_PROPERTY[geometry.name])) * _largest_scale(values)
                    pixels = radius * pixels_per_metre(camera, distance, int(size[1]))
                    sides[em.path] = sides_for(geometry.name, pixels, most)
                else:
                    sides[em.path] = most
        return rates, sides
