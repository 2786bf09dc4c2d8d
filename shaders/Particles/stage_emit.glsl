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

// After the material: the previous position is the spawn position; the slot is live.
void kz_endSpawn() {
    kz_p.previousPosition = kz_p.position;
    kz_end();
    kz_atomicOrWord(kz_aliveWords + (kz_self >> 5u), 1u << (kz_self & 31u));
}
