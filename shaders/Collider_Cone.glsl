// Collider_Cone: a solid cone along local +Y, centred on the node like Collider_Cylinder: its
// base, a disc of Radius, at y = -Height/2 and its apex at y = +Height/2. Convex, so the
// line's span inside it is one interval: the span inside the cone's nappe below the apex,
// cut by the slab |y| <= Height/2 (the base).
#include "Particles/collider_solid.glsl"

uniform float Collider_Radius = 1.0;
uniform float Collider_Height = 1.0;

// The outward normal of the cone x^2 + z^2 = k^2 (apexY - y)^2 at p: its gradient.
vec3 coneNormal(vec3 p, float k, float apexY) {
    vec3 g = vec3(p.x, k * k * (apexY - p.y), p.z);
    float len = length(g);
    return len > 0.0 ? g / len : vec3(0.0, 1.0, 0.0);
}

// The span of the line o + t d inside the nappe x^2 + z^2 <= k^2 (apexY - y)^2, y <= apexY:
// f(t) = a t^2 + b t + c <= 0. An end at infinity has a zero normal (the base cuts it).
bool coneSpan(vec3 o, vec3 d, float k, float apexY, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    float k2 = k * k;
    float w0 = apexY - o.y;                     // height below the apex at t = 0
    float a = dot(d.xz, d.xz) - k2 * d.y * d.y;
    float b = 2.0 * (dot(o.xz, d.xz) + k2 * w0 * d.y);
    float c = dot(o.xz, o.xz) - k2 * w0 * w0;
    const float FAR = 3.0e38;
    t0 = -FAR; t1 = FAR;
    n0 = vec3(0.0); n1 = vec3(0.0);
    float scale = max(abs(a), k2 * d.y * d.y + dot(d.xz, d.xz));
    if (abs(a) <= 1e-7 * scale) {               // parallel to a generator: f is linear
        if (b == 0.0) {
            return c <= 0.0;
        }
        float r = -c / b;
        if (b > 0.0) { t1 = r; n1 = coneNormal(o + r * d, k, apexY); }
        else         { t0 = r; n0 = coneNormal(o + r * d, k, apexY); }
        return true;
    }
    float disc = b * b - 4.0 * a * c;
    if (disc < 0.0) {
        return a < 0.0;                         // a line through the apex, inside both nappes
    }
    float q = -0.5 * (b + (b >= 0.0 ? sqrt(disc) : -sqrt(disc)));   // no cancellation
    float r0 = q / a, r1 = q != 0.0 ? c / q : r0;
    if (r0 > r1) { float s = r0; r0 = r1; r1 = s; }
    if (a > 0.0) {                              // shallower than the cone: f <= 0 between the roots
        t0 = r0; t1 = r1;
        n0 = coneNormal(o + r0 * d, k, apexY);
        n1 = coneNormal(o + r1 * d, k, apexY);
        return true;
    }
    // Steeper than the cone: f <= 0 outside the roots, one half-line in each nappe; ours is
    // the one reaching below the apex (y -> -inf).
    if (d.y > 0.0) { t1 = r0; n1 = coneNormal(o + r0 * d, k, apexY); }
    else           { t0 = r1; n0 = coneNormal(o + r1 * d, k, apexY); }
    return true;
}

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    float hh = 0.5 * Collider_Height;
    if (Collider_Radius <= 0.0 || hh <= 0.0) {
        return false;
    }
    return coneSpan(o, d, Collider_Radius / Collider_Height, hh, t0, n0, t1, n1)
        && slabSpan(o.y, d.y, hh, t0, t1, n0, n1, vec3(0.0, 1.0, 0.0)) && t0 <= t1
        && dot(n0, n0) > 0.0 && dot(n1, n1) > 0.0;
}
