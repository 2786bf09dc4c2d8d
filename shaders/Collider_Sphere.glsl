// Collider_Sphere: a solid sphere of Radius around the node origin (with KeepInside, a
// spherical container).
#include "Particles/collider_solid.glsl"

uniform float Collider_Radius = 1.0;

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    return sphereSpan(o, d, vec3(0.0), Collider_Radius, t0, n0, t1, n1);
}
