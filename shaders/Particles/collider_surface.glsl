// Flat, two-sided colliders in the local XZ plane (normal +Y): rectangle and disc. The
// material defines `bool onSurface(vec2 xz)`. A crossing of y = 0 inside the shape, either
// way, is a hit; the normal points back to the side the particle came from. KeepInside has
// no meaning for a surface without a volume and is ignored.

bool onSurface(vec2 xz);

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    if ((a.y > 0.0) == (b.y > 0.0) || a.y == b.y) {
        return false;
    }
    t = a.y / (a.y - b.y);
    vec3 p = mix(a, b, t);
    n = vec3(0.0, a.y > 0.0 ? 1.0 : -1.0, 0.0);
    return onSurface(p.xz);
}
