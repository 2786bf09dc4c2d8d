// Stage 6 of the fused step: the system's colliders resolved together (docs/player.md,
// Colliders). The NeL design: "if this happens, we must find the closest collision volume
// if there are several". The step's path, previous -> new position, is resolved as a
// sequence of earliest hits over ALL colliders: every collider's `sweep` is asked for its
// first crossing of the remaining path, the earliest one responds (bounce, friction, sink),
// and the rest of the step continues from its hit point with the new velocity, asking all
// colliders again. So a path that meets a floor and then a ceiling in one step bounces off
// both, in the order it meets them, whatever the tree order of the colliders.
//
// At most KZ_COLLIDER_HITS sub-hits are resolved per particle and step. A path that still
// crosses a collider after them (a particle rattling between two surfaces closer than its
// step) stops at that crossing, on the free side: it loses the rest of the step's travel,
// never ends inside a solid.
//
// Every point the resolver moves a particle to is checked to lie on the free side of all
// colliders: 0.1 mm off the surface along its normal, unless that point is inside another
// solid (a corner closer than that), then 0.1 mm back along the path it came by, which was
// free. A particle that starts a step on a solid side (spawned inside a solid) is let out:
// only a crossing from the free side is a hit.

#define KZ_COLLIDER_HITS 8      // sub-hits resolved per particle and step, over all colliders
#define KZ_COLLIDER_SKIN 1e-4   // metres a resolved point keeps off the surface

struct KzResponse {
    float bounce;       // restitution on the normal component, [0, 1]
    float friction;     // tangential damping, [0, 1]
    bool  kill;         // a sink: the particle dies at the hit
};

// Generated per system (kzplayer/gpu/generate.py): the earliest crossing of a -> b over all
// enabled colliders (t in [0, 1], ties to the first in tree order), its normal towards the
// free side and the collider's response; false when the path crosses none.
bool kz_sweepAll(vec3 a, vec3 b, out float t, out vec3 n, out KzResponse r);

// A particle-step with a hit, counted per emitter (the stats' and host events' hits).
void kz_countHit() {
    kz_atomicAddWord(kz_e * KZ_STATE_WORDS + 14u, 1u);
}

// The colliders live in the system's simulation space; an emitter whose particles live in
// another space (ParticleEmitter.Space) has its path taken there and back.
void kz_toSystemSpace(inout vec3 a, inout vec3 b, inout vec3 v, inout vec3 acc) {
}

void kz_fromSystemSpace(inout vec3 b, inout vec3 v, inout vec3 hitPosition, inout vec3 hitNormal,
                        inout vec3 hitVelocity) {
}

// The velocity leaving a hit with normal n: restitution on the normal part (only a part
// moving into the surface bounces), friction on the tangential one.
vec3 kz_bounced(vec3 v, vec3 n, KzResponse r) {
    float vn = dot(v, n);
    vec3 tangential = v - vn * n;
    return (1.0 - r.friction) * tangential - r.bounce * min(vn, 0.0) * n + max(vn, 0.0) * n;
}

void kz_collide() {
    if ((kz_flags & EF_NO_COLLIDE) != 0u) {     // the emitter's "don't collide" flag
        return;
    }
    float h = kz_dt * kz_c.timeScale;
    vec3 acc = kz_p.acceleration;
    vec3 a = kz_p.previousPosition;
    vec3 b = kz_p.position;
    vec3 v = kz_p.velocity;
    kz_toSystemSpace(a, b, v, acc);
    bool sink = (kz_flags & EF_DIE_ON_HIT) != 0u;   // "destroyed on collision"
    float remaining = 1.0;      // fraction of the step still to travel after a
    bool hit = false;
    bool killed = false;
    vec3 hitPosition, hitNormal, hitVelocity;
    float hitSpeed;
    float when;                 // the fraction of the step at the last hit
    // One sweep over all colliders a turn, so the stage holds ONE copy of kz_sweepAll (every
    // collider's test inlined): a turn either sweeps the rest of the path a -> b, or, after a
    // hit, checks that the point just off the surface is free (a -> off). A path that meets
    // nothing ends the loop in its first turn, having paid one sweep.
    bool checking = false;      // this turn checks the free side of the hit found in the last one
    bool last = false;          // the sub-hits are spent: a crossing now only stops the particle
    int hits = 0;
    float tHit;
    vec3 nHit, off;
    KzResponse rHit;
    for (int turn = 0; turn < 2 * KZ_COLLIDER_HITS + 2; ++turn) {
        float t;
        vec3 n;
        KzResponse r;
        bool crossed = kz_sweepAll(a, checking ? off : b, t, n, r);
        if (!checking) {
            if (!crossed) {
                break;
            }
            tHit = t;
            nHit = n;
            rHit = r;
            off = mix(a, b, t) + n * KZ_COLLIDER_SKIN;
            checking = true;
            continue;
        }
        checking = false;
        // Where the particle is put: just off the surface on the free side if the segment from
        // the free start a to it crosses nothing; else just before the hit on the path.
        float len = length(b - a);
        vec3 next = crossed ? mix(a, b, len > 0.0 ? max(tHit - KZ_COLLIDER_SKIN / len, 0.0) : 0.0) : off;
        if (last) {             // past the bound and still crossing: stop on the free side
            b = next;
            break;
        }
        float rest = remaining * (1.0 - tHit) * h;  // seconds left in the step after the hit
        // Verlet: exact under constant acceleration; Euler moves on a straight line at v.
        vec3 vHit = kz_verlet ? v - acc * rest : v;
        hit = true;
        hitPosition = mix(a, b, tHit);
        hitNormal = nHit;
        hitSpeed = length(vHit);
        hitVelocity = vHit;
        when = 1.0 - remaining * (1.0 - tHit);
        if (rHit.kill || sink) {
            a = next;
            b = next;
            killed = true;
            break;
        }
        vec3 out_ = kz_bounced(vHit, nHit, rHit);
        a = next;
        v = kz_verlet ? out_ + acc * rest : out_;
        b = a + out_ * rest + (kz_verlet ? 0.5 * acc * rest * rest : vec3(0.0));
        remaining *= 1.0 - tHit;
        last = ++hits == KZ_COLLIDER_HITS;
    }
    if (!hit) {
        return;
    }
    kz_fromSystemSpace(b, v, hitPosition, hitNormal, hitVelocity);
    kz_setParticleHit(kz_self, hitPosition, hitSpeed, hitNormal);
    kz_p.position = b;
    kz_p.velocity = v;
    if (kz_verlet) {
        // Position-form Verlet keeps its velocity in the previous position: x' = 2x - x_prev + a h^2.
        kz_p.previousPosition = b - v * h + 0.5 * kz_p.acceleration * h * h;
    }
    kz_p.flags |= FLAG_HIT | (killed ? FLAG_KILL : 0u);
    kz_hotDirty = bool[4](true, true, true, true);
    kz_countHit();
    if ((kz_flags & EF_HOST_HIT) != 0u) {
        kz_notify(HOST_HIT, when, hitPosition, hitVelocity, hitNormal);
    }
}
