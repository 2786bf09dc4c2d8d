// A subemitter's view of its source (Emission.SourceEventBuffer and
// Emission.SourceParticleDataBuffer, bound by the simulation from the buffer handles):
// read-only. The source's events of this same step are already in slot order and its
// death test has not freed anything yet, so every record's `particle` slot still holds the
// particle that fired it.

// Records the source wrote this step (0 without a bound source).
uint sourceEventCount() {
    if (!kz_hasSourceEvents) {
        return 0u;
    }
    uint s = kz_table(kz_e, E_SOURCE);
    return min(kz_word(kz_headerWord(s, H_COUNT)), kz_word(kz_headerWord(s, H_CAPACITY)));
}

// The k-th record of this step's source events (k < sourceEventCount()).
ParticleEvent sourceEvent(uint k) {
    return kz_loadEvent(kz_table(kz_table(kz_e, E_SOURCE), E_EVENT_BASE) + k);
}

// The source's particle in `slot` (a record's `particle`): its Particle Data Buffer.
uint kz_sourceSlot(uint slot) { return kz_table(kz_table(kz_e, E_PARTICLE_SOURCE), E_FIRST) + slot; }
vec3 getSourceParticleVelocity(uint slot) {
    vec3 v = getParticleVelocity(kz_sourceSlot(slot));
#if KZ_EMITTER_SPACES
    uint space = kz_table(kz_table(kz_e, E_PARTICLE_SOURCE), E_SPACE);     // stored in its own space
    if (space != 0xFFFFFFFFu) {
        v = mat3(kz_paramMat4(space)) * v;
    }
#endif
    return v;
}
float getSourceParticleLifetime(uint slot)       { return getParticleLifetime(kz_sourceSlot(slot)); }
vec3 getSourceParticleScale(uint slot)           { return getParticleScale(kz_sourceSlot(slot)); }
vec3 getSourceParticleRotation(uint slot)        { return getParticleRotation(kz_sourceSlot(slot)); }
vec3 getSourceParticleAngularVelocity(uint slot) { return getParticleAngularVelocity(kz_sourceSlot(slot)); }
