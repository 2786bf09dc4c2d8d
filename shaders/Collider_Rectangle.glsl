// Collider_Rectangle: a two-sided rectangle of half-extents RectangleExtents (x, z) in the
// local XZ plane, normal +Y.
#include "Particles/collider_surface.glsl"

uniform vec2 Collider_RectangleExtents = vec2(0.5);

bool onSurface(vec2 xz) {
    return all(lessThanEqual(abs(xz), Collider_RectangleExtents));
}
