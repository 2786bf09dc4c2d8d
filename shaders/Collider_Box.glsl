// Collider_Box: a solid box (parallelepiped once the node is sheared or scaled) of
// half-extents BoxExtents around the node origin. Slab test: no tunnelling through a thin box.
#include "Particles/collider_solid.glsl"

uniform vec3 Collider_BoxExtents = vec3(0.5);

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    t0 = -3.0e38;
    t1 = 3.0e38;
    n0 = vec3(0.0);
    n1 = vec3(0.0);
    vec3 e = max(Collider_BoxExtents, vec3(0.0));
    return slabSpan(o.x, d.x, e.x, t0, t1, n0, n1, vec3(1.0, 0.0, 0.0))
        && slabSpan(o.y, d.y, e.y, t0, t1, n0, n1, vec3(0.0, 1.0, 0.0))
        && slabSpan(o.z, d.z, e.z, t0, t1, n0, n1, vec3(0.0, 0.0, 1.0))
        && dot(n0, n0) > 0.0 && dot(n1, n1) > 0.0;
}
