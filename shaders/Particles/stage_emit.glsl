// Emission (docs/player.md, The frame, stage 1): one invocation per new particle, every
// emitter of the system (or of one subemitter level) in one dispatch. The EmissionMaterial
// defines
//     void emitParticle(uint index);
// and calls the spawn helpers; the slot arrives with the defaults of the common property
// contract already in place. spawnRandom(k) is the k-th random number of this spawn.

uint kz_spawnIndex;         // n-th particle spawned by this emitter in this step
uint kz_spawnHash;
EmitterState state;         // the emitter's state as the count pass left it (count, emitBase...)

float spawnRandom(uint k) {
    return unitFloat(hash2(kz_spawnHash, k));
}

// A new particle in slot i (its n-th of the step), all of it in registers.
void kz_beginSpawn(uint i, uint n) {
    kz_self = i;
    kz_spawnIndex = n;
    kz_spawnHash = hash4(kz_seed, kz_emitter, kz_step, n);
    kz_p.position = vec3(0.0);
    kz_p.age = 0.0;
    kz_p.previousPosition = vec3(0.0);
    kz_p.lifetime = 1.0;
    kz_p.velocity = vec3(0.0);
    kz_p.mass = 1.0;
    kz_p.acceleration = vec3(0.0);
    kz_p.flags = FLAG_ALIVE | FLAG_BORN;
    kz_c.scale = vec3(1.0);
    kz_c.hash = kz_spawnHash;
    kz_c.rotationOrigin = vec3(0.0);
    kz_c.timeScale = 1.0;
    kz_c.angularVelocity = vec3(0.0);
    kz_c.serial = state.totalEmitted - state.count + n;
    kz_c.color = vec4(1.0);
    kz_c.custom = vec4(0.0);
    kz_hotDirty = bool[4](true, true, true, true);
    kz_coldDirty = bool[5](true, true, true, true, true);
}

// A subemitter's spawn frame (EF_SPAWN_FRAME: bound to particles, or an Emission.EmissionBasis
// other than Emitter): the emitter's transform, as the material sees it, is moved onto the
// event of this spawn (spawn n belongs to event n / ParticlesPerEvent, as spawnEvent maps
// it) with the axes of the basis: the table row's (the node's, the world's or the system's,
// worked out on the CPU), or, for ParentVelocity, +Z along the parent's velocity and +Y the
// world's up made orthogonal to it (Gram-Schmidt), the row's axes for a parent at rest. So
// a shape emitter (Emitter_Sphere...) emits around each event, Emitter_FromEvents reads its
// direction in that basis. The spawn's random numbers are keyed by its parent, as
// spawnEvent keys them.
void kz_spawnFrame(uint n) {
    uint count = sourceEventCount();
    if ((kz_flags & EF_SPAWN_FRAME) == 0u || count == 0u) {
        return;
    }
    uint per = max(kz_table(kz_e, E_PER_EVENT), 1u);
    uint e_ = n / per;
    uint child = n % per;
    if (e_ >= count) {
        e_ = n % count;
        child = n / count;
    }
    ParticleEvent e = sourceEvent(e_);
    kz_spawnHash = hash4(kz_seed, kz_emitter, kz_step, hash2(e.hash ^ (e.kind * 0x9E3779B9u), child));
    kz_c.hash = kz_spawnHash;
    mat3 axes = mat3(kz_emitterTransform);
    float speed = length(e.velocity);
    if (((kz_flags >> EF_BASIS_SHIFT) & 3u) == 3u && speed > 0.0) {
        vec3 z = e.velocity / speed;
        vec3 up = kz_worldToSimulation * vec3(0.0, 1.0, 0.0);
        if (length(cross(up, z)) < 1e-3 * length(up)) {
            up = kz_worldToSimulation * vec3(1.0, 0.0, 0.0);
        }
        vec3 y = normalize(up - dot(up, z) * z);
        axes = mat3(cross(y, z), y, z);
    }
    vec3 at = e.position + (e.kind == EVENT_COLLISION ? e.normal * 1e-4 : vec3(0.0));
    kz_emitterTransform = mat4(vec4(axes[0], 0.0), vec4(axes[1], 0.0), vec4(axes[2], 0.0), vec4(at, 1.0));
}

// After the material: the previous position is the spawn position; the slot is live.
void kz_endSpawn() {
    kz_p.previousPosition = kz_p.position;
    if ((kz_flags & EF_HOST_BIRTH) != 0u) {     // at the start of its step (a child: at its end)
        kz_notify(HOST_BIRTH, KZ_LEVEL == 0 ? 0.0 : 1.0, kz_p.position, kz_p.velocity, vec3(0.0));
    }
    kz_leaveSystemSpace();      // emitted in the system's space, stored in the emitter's
    kz_end();
    kz_atomicOrWord(kz_aliveWords + (kz_self >> 5u), 1u << (kz_self & 31u));
}
