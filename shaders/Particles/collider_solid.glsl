// Convex solid colliders (box, sphere, cylinder, capsule). The material defines
//     bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1);
// the interval [t0, t1] of the whole line o + t d inside the shape, with the outward unit
// normals at both ends; this file turns it into the slot's colliderCross. A particle that
// starts on the solid side (spawned inside a solid, outside a KeepInside shape) is let out
// rather than trapped: only a crossing from the free side counts.

bool shapeSpan(vec3 o, vec3 d, out float t0, out vec3 n0, out float t1, out vec3 n1);

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    vec3 d = b - a;
    float t0, t1;
    vec3 n0, n1;
    if (dot(d, d) == 0.0 || !shapeSpan(a, d, t0, n0, t1, n1) || t0 > t1) {
        return false;
    }
    if (Collider_KeepInside) {      // inside at a, leaving before b
        if (t0 > 0.0 || t1 < 0.0 || t1 > 1.0) {
            return false;
        }
        t = t1;
        n = -n1;
    } else {                        // outside at a, entering before b
        if (t0 < 0.0 || t0 > 1.0) {
            return false;
        }
        t = t0;
        n = n0;
    }
    return true;
}

// The span of the line inside the slab |x_axis| <= e on one axis (infinite when parallel).
bool slabSpan(float o, float d, float e, inout float t0, inout float t1, inout vec3 n0, inout vec3 n1, vec3 axis) {
    if (d == 0.0) {
        return abs(o) <= e;
    }
    float ta = (-e - o) / d;
    float tb = (e - o) / d;
    vec3 na = -axis;                // the face the line meets first when going along d
    if (ta > tb) {
        float s = ta; ta = tb; tb = s;
        na = axis;
    }
    if (ta > t0) { t0 = ta; n0 = na; }
    if (tb < t1) { t1 = tb; n1 = -na; }
    return true;
}

// The span of the line inside a sphere of radius r around c. Measured from the point of the
// line closest to c, so a long segment against a tiny sphere keeps its precision (the
// textbook b^2 - ac cancels to nothing in float32 there).
bool sphereSpan(vec3 o, vec3 d, vec3 c, float r, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    float len = length(d);
    vec3 u = d / len;
    vec3 oc = o - c;
    float tc = -dot(oc, u);
    vec3 perp = oc + tc * u;
    float chord2 = r * r - dot(perp, perp);
    if (chord2 < 0.0 || r <= 0.0) {
        return false;
    }
    float hc = sqrt(chord2);
    t0 = (tc - hc) / len;
    t1 = (tc + hc) / len;
    n0 = (perp - hc * u) / r;
    n1 = (perp + hc * u) / r;
    return true;
}

// The span of the line inside a Y-axis cylinder of radius r, |y| <= halfHeight.
bool cylinderSpan(vec3 o, vec3 d, float r, float halfHeight, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    t0 = -3.0e38;
    t1 = 3.0e38;
    n0 = vec3(0.0);
    n1 = vec3(0.0);
    if (dot(d.xz, d.xz) == 0.0) {
        if (dot(o.xz, o.xz) > r * r) {
            return false;
        }
    } else if (!sphereSpan(vec3(o.x, 0.0, o.z), vec3(d.x, 0.0, d.z), vec3(0.0), r, t0, n0, t1, n1)) {
        return false;               // the XZ projection is the circle's span; normals stay in XZ
    }
    return slabSpan(o.y, d.y, halfHeight, t0, t1, n0, n1, vec3(0.0, 1.0, 0.0)) && t0 <= t1;
}
