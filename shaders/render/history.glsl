// The particle's position history, as a drawing reads it (docs/player.md, "Position history"):
// N positions per pool slot, a ring the simulation writes every step (the step numbered s
// writes entry s mod N) and collapses onto the spawn point at birth; stored entry-major. The renderer binds the
// emitter's rings here and says which entry is the newest.
#define KZ_BINDING_HISTORY 15

layout(std430, binding = KZ_BINDING_HISTORY) readonly buffer KzHistory { vec4 kzHistory[]; };
uniform uint kz_historyLength;      // N (0: the emitter keeps none)
uniform uint kz_historyNewest;      // the ring entry the last step wrote
uniform uint kz_historyStride;      // entry-major: entry k of slot i at k x stride + i

// How many positions a trail of particle i has: N, or 2 without a history (its current and
// previous positions).
uint getParticleHistoryLength() {
    return kz_historyLength == 0u ? 2u : kz_historyLength;
}

// Where particle i was k steps ago (k = 0: now), simulation space; k beyond the history is
// its oldest position.
vec3 getParticleHistory(uint i, uint k) {
    uint n = kz_historyLength;
    if (n == 0u) {
        return k == 0u ? getParticlePosition(i) : getParticlePreviousPosition(i);
    }
    k = min(k, n - 1u);
    return kzHistory[((kz_historyNewest + n - k) % n) * kz_historyStride + i].xyz;
}
