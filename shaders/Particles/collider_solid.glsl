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

// The span of the line inside a sphere of radius r around c.
bool sphereSpan(vec3 o, vec3 d, vec3 c, float r, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    vec3 oc = o - c;
    float a = dot(d, d);
    float bh = dot(oc, d);
    float disc = bh * bh - a * (dot(oc, oc) - r * r);
    if (disc < 0.0 || r <= 0.0) {
        return false;
    }
    float s = sqrt(disc);
    t0 = (-bh - s) / a;
    t1 = (-bh + s) / a;
    n0 = normalize(oc + t0 * d);
    n1 = normalize(oc + t1 * d);
    return true;
}

// The span of the line inside a Y-axis cylinder of radius r, |y| <= halfHeight.
bool cylinderSpan(vec3 o, vec3 d, float r, float halfHeight, out float t0, out vec3 n0, out float t1, out vec3 n1) {
    t0 = -3.0e38;
    t1 = 3.0e38;
    n0 = vec3(0.0);
    n1 = vec3(0.0);
    float a = dot(d.xz, d.xz);
    float bh = dot(o.xz, d.xz);
    float c = dot(o.xz, o.xz) - r * r;
    if (a == 0.0) {
        if (c > 0.0) {
            return false;
        }
    } else {
        float disc = bh * bh - a * c;
        if (disc < 0.0) {
            return false;
        }
        float s = sqrt(disc);
        t0 = (-bh - s) / a;
        t1 = (-bh + s) / a;
        vec2 p0 = o.xz + t0 * d.xz;
        vec2 p1 = o.xz + t1 * d.xz;
        n0 = vec3(p0.x, 0.0, p0.y) / max(r, 1e-30);
        n1 = vec3(p1.x, 0.0, p1.y) / max(r, 1e-30);
    }
    return slabSpan(o.y, d.y, halfHeight, t0, t1, n0, n1, vec3(0.0, 1.0, 0.0)) && t0 <= t1;
}
