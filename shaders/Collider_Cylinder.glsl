// Collider_Cylinder: a solid cylinder along local +Y, Radius, Height centred on the node,
// flat caps.
#include "Particles/collider_solid.glsl"

uniform float Collider_Radius = 1.0;
uniform float Collider_Height = 1.0;

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    return cylinderSpan(o, d, Collider_Radius, 0.5 * Collider_Height, t0, n0, t1, n1)
        && dot(n0, n0) > 0.0 && dot(n1, n1) > 0.0;
}
