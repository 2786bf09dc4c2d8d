// Collider_Plane: the infinite plane through the node origin with normal local +Y; the
// solid side is below (above with KeepInside). A path from the free side that ends on the
// solid side hits at the crossing.

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    float s = Collider_KeepInside ? -1.0 : 1.0;     // signed height on the free side > 0
    float fa = s * a.y;
    float fb = s * b.y;
    if (fa < 0.0 || fb >= 0.0) {
        return false;
    }
    t = fa / (fa - fb);
    n = vec3(0.0, s, 0.0);
    return true;
}
