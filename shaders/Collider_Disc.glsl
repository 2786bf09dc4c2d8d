// Collider_Disc: a two-sided disc of Radius in the local XZ plane, normal +Y.
#include "Particles/collider_surface.glsl"

uniform float Collider_Radius = 1.0;

bool onSurface(vec2 xz) {
    return dot(xz, xz) <= Collider_Radius * Collider_Radius;
}
