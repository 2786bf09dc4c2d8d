// One ParticleCollider in the fused step, inlined with its ColliderMaterial (a parameter
// set per collider node). The material defines
//     bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n);
// in the collider's local frame: does the segment a -> b enter the solid side (KeepInside
// flips it)? t in [0, 1] is where, n the unit surface normal pointing back to the free side.
// `collide` sweeps the step's path (previous -> new position, so nothing tunnels at any dt),
// applies Bounce (restitution on the normal component) and Friction (tangential damping),
// continues the rest of the step from the hit point, and records the hit for Event_OnHit.
// The geometry (`sweep`) and the response (`bounce`, KillOnHit) are separate functions, so a
// resolver over all colliders of a system (the earliest hit first) can call them in turn.

uniform mat4  kz_colliderInverse = mat4(1.0);     // simulation -> collider space
uniform mat3  kz_colliderNormal = mat3(1.0);      // collider normals -> simulation space (inverse transpose)
uniform float Collider_Bounce = 0.5;
uniform float Collider_Friction = 0.1;
uniform bool  Collider_KeepInside = false;
uniform bool  Collider_KillOnHit = false;

#define COLLIDER_BOUNCES 4          // hits resolved per collider and step (corners, thin shells)
#define COLLIDER_SKIN 1e-4          // metres the resolved point keeps off the surface

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

// The velocity leaving a hit with normal n: restitution on the normal part (only a part
// moving into the surface bounces), friction on the tangential one.
vec3 bounce(vec3 v, vec3 n) {
    float vn = dot(v, n);
    vec3 tangential = v - vn * n;
    return (1.0 - clamp(Collider_Friction, 0.0, 1.0)) * tangential
         - clamp(Collider_Bounce, 0.0, 1.0) * min(vn, 0.0) * n + max(vn, 0.0) * n;
}

// `afterAnother`: an earlier collider of the system ran in this step (for the first one the
// generator passes false, and the check of an earlier hit compiles away).
void collide(uint i, bool afterAnother) {
    uint flags = getParticleFlags(i);
    float h = kz_dt * getParticleTimeScale(i);
    vec3 acc = getParticleAcceleration(i);
    // A particle an earlier collider already bounced this step continues from its last hit.
    vec3 a = getParticlePreviousPosition(i);
    if (afterAnother && (flags & FLAG_HIT) != 0u) {
        a = getParticleHitPosition(i) + getParticleHitNormal(i) * COLLIDER_SKIN;
    }
    vec3 b = getParticlePosition(i);
    vec3 v = getParticleVelocity(i);
    float remaining = 1.0;          // fraction of the step still to travel after a
    bool hit = false;
    float t;
    vec3 n;
    vec3 hitPosition, hitNormal;
    float hitSpeed;
    for (int k = 0; k < COLLIDER_BOUNCES && sweep(a, b, t, n); ++k) {
        vec3 p = mix(a, b, t);
        float rest = remaining * (1.0 - t) * h;     // seconds left in the step after the hit
        // Verlet: exact under constant acceleration; Euler moves on a straight line at v.
        vec3 vHit = kz_verlet ? v - acc * rest : v;
        vec3 out_ = bounce(vHit, n);
        if (!hit) {
            hitSpeed = length(vHit);
        }
        hit = true;
        hitPosition = p;
        hitNormal = n;
        a = p + n * COLLIDER_SKIN;
        v = kz_verlet ? out_ + acc * rest : out_;
        b = a + out_ * rest + (kz_verlet ? 0.5 * acc * rest * rest : vec3(0.0));
        remaining *= 1.0 - t;
        if (Collider_KillOnHit) {
            b = a;
            break;
        }
    }
    if (!hit) {
        return;
    }
    if (sweep(a, b, t, n)) {        // still crossing after the bounces: stop at the surface
        b = mix(a, b, t) + n * COLLIDER_SKIN;
    }
    kz_setParticleHit(i, hitPosition, hitSpeed, hitNormal);
    setParticlePosition(i, b);
    setParticleVelocity(i, v);
    if (kz_verlet) {
        // Position-form Verlet keeps its velocity in the previous position: x' = 2x - x_prev + a h^2.
        setParticlePreviousPosition(i, b - v * h + 0.5 * acc * h * h);
    }
    kz_setParticleFlags(i, flags | FLAG_HIT | (Collider_KillOnHit ? FLAG_KILL : 0u));
}
