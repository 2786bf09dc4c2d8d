// One ParticleCollider in the fused step, inlined with its ColliderMaterial (a parameter
// set per collider node). The material defines
//     bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n);
// in the collider's local frame: does the segment a -> b enter the solid side (KeepInside
// flips it)? t in [0, 1] is where, n the unit surface normal pointing back to the free side.
// This file gives the resolver (Particles/collider_resolve.glsl) the node's geometry,
// `sweep`, and its response, `response`: the resolver asks every collider of the system for
// its crossing of the remaining path, responds to the earliest, and repeats from there.

uniform mat4  kz_colliderInverse = mat4(1.0);     // simulation -> collider space
uniform mat3  kz_colliderNormal = mat3(1.0);      // collider normals -> simulation space (inverse transpose)
uniform float Collider_Bounce = 0.5;
uniform float Collider_Friction = 0.1;
uniform bool  Collider_KeepInside = false;
uniform bool  Collider_KillOnHit = false;

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n);

// The first crossing of the simulation-space segment a -> b: fraction t and the unit normal.
bool sweep(vec3 a, vec3 b, out float t, out vec3 normal) {
    vec3 n;
    vec3 la = (kz_colliderInverse * vec4(a, 1.0)).xyz;
    vec3 lb = (kz_colliderInverse * vec4(b, 1.0)).xyz;
    if (!colliderCross(la, lb, t, n)) {
        return false;
    }
    // Normals transform by the inverse transpose (a non-uniformly scaled collider).
    vec3 wn = kz_colliderNormal * n;
    float len = length(wn);
    normal = len > 0.0 ? wn / len : vec3(0.0, 1.0, 0.0);
    return true;
}

// What a hit on this collider does: restitution, tangential damping, sink.
KzResponse response() {
    return KzResponse(clamp(Collider_Bounce, 0.0, 1.0), clamp(Collider_Friction, 0.0, 1.0), Collider_KillOnHit);
}
