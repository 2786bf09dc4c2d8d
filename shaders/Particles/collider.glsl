// Kanzi Particles 3.0's collider include: a custom collider written for Kanzi (an include of
// this file, its uniforms, and
//     bool Collide(vec3 prevPosition, vec3 position, out vec3 hitPosition, out vec3 hitNormal)
// ) runs in kzplayer's ColliderMaterial slot unchanged. The function is the shape test only,
// in the collider node's local frame: does the step's path prevPosition -> position enter the
// solid side, and where (hitPosition) with which unit normal (hitNormal, pointing back to the
// free side)? The response (Bounce, Friction, KeepInside's flip is the shader's own) is
// applied afterwards by kzplayer's resolver, as Kanzi's response template does, so it works
// alike for every stock and custom collider. This file maps the entry point onto kzplayer's
// (colliderCross: the hit as a fraction t of the path).
#include "Particles/kanzi.glsl"

bool Collide(vec3 prevPosition, vec3 position, out vec3 hitPosition, out vec3 hitNormal);

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    vec3 hit;
    t = 0.0;
    n = vec3(0.0, 1.0, 0.0);
    if (!Collide(a, b, hit, n)) {
        return false;
    }
    vec3 d = b - a;
    float dd = dot(d, d);
    t = dd > 0.0 ? clamp(dot(hit - a, d) / dd, 0.0, 1.0) : 0.0;
    return true;
}
