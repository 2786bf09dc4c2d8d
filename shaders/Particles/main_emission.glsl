// Emission slot: one invocation per new particle (indirect dispatch from the count pass).
// The material defines
//     void emitParticle(uint index);
// and calls the spawn helpers; the slot arrives with the defaults of the common property
// contract already in place. spawnRandom(k) is the k-th random number of this spawn.
#include "Particles/common.glsl"

uint kz_spawnIndex;    // n-th particle spawned by this emitter in this step
uint kz_spawnHash;

float spawnRandom(uint k) {
    return unitFloat(hash2(kz_spawnHash, k));
}

void emitParticle(uint index);

void main() {
    uint n = gl_GlobalInvocationID.x;
    if (n >= state.count) {
        return;
    }
    uint slot = freeSlots[state.emitBase - 1u - n];
    kz_spawnIndex = n;
    kz_spawnHash = hash4(kz_seed, kz_emitter, kz_step, n);
    Particle p;
    p.position = vec3(0.0);
    p.age = 0.0;
    p.previousPosition = vec3(0.0);
    p.lifetime = 1.0;
    p.velocity = vec3(0.0);
    p.mass = 1.0;
    p.acceleration = vec3(0.0);
    p.hash = kz_spawnHash;
    p.scale = vec3(1.0);
    p.flags = FLAG_ALIVE | FLAG_BORN;
    p.rotation = vec3(0.0);
    p.timeScale = 1.0;
    p.angularVelocity = vec3(0.0);
    p.serial = state.totalEmitted - state.count + n;
    p.color = vec4(1.0);
    p.custom = vec4(0.0);
    particles[slot] = p;
    emitParticle(slot);
    particles[slot].previousPosition = particles[slot].position;
}
