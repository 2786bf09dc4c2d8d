// Collider_Capsule: a capped cylinder, the points within Radius of the segment of Height
// along local +Y centred on the node (the NeL design's capped cylinder). Convex, so the
// line's span inside it is the union of its spans in the cylinder and the two end spheres.
#include "Particles/collider_solid.glsl"

uniform float Collider_Radius = 1.0;
uniform float Collider_Height = 1.0;

void widen(bool ok, float a0, vec3 m0, float a1, vec3 m1, inout bool any, inout float t0,
           inout vec3 n0, inout float t1, inout vec3 n1) {
    if (!ok || a0 > a1) {
        return;
    }
    if (!any || a0 < t0) { t0 = a0; n0 = m0; }
    if (!any || a1 > t1) { t1 = a1; n1 = m1; }
    any = true;
}

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    float r = Collider_Radius;
    float hh = 0.5 * Collider_Height;
    bool any = false;
    t0 = 0.0; t1 = 0.0; n0 = vec3(0.0); n1 = vec3(0.0);
    float a0, a1;
    vec3 m0, m1;
    bool ok = cylinderSpan(o, d, r, hh, a0, m0, a1, m1);
    widen(ok, a0, m0, a1, m1, any, t0, n0, t1, n1);
    ok = sphereSpan(o, d, vec3(0.0, hh, 0.0), r, a0, m0, a1, m1);
    widen(ok, a0, m0, a1, m1, any, t0, n0, t1, n1);
    ok = sphereSpan(o, d, vec3(0.0, -hh, 0.0), r, a0, m0, a1, m1);
    widen(ok, a0, m0, a1, m1, any, t0, n0, t1, n1);
    return any && dot(n0, n0) > 0.0 && dot(n1, n1) > 0.0;
}
