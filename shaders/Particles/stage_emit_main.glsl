// The emit program's main (docs/player.md, The frame, stage 1; Particles/stage_emit.glsl):
// one invocation per new particle of the system's emitters of level KZ_LEVEL. The generator
// (kzplayer.gpu.generate) fills EMISSION with the switch over the level's
// EmissionMaterials, and HISTORY when an emitter of the system keeps a position history
// (its program then includes Particles/history.glsl).

void main() {
    uint j = gl_GlobalInvocationID.x;      // the j-th new particle of the system
    if (j >= kz_scheduleWord(kz_planEmit + kz_emitterCount)) {
        return;
    }
    uint e = kz_planEmitter(kz_planEmit, j);
    uint n = j - kz_scheduleWord(kz_planEmit + e);
    kz_bindEmitter(e);
    state = kz_loadState(e);
    uint local = kz_slot(kz_freeSlots + kz_first + state.emitBase - 1u - n);   // popped in the count pass
    uint i = kz_first + local;
    kz_beginSpawn(i, n);
#if KZ_LEVEL > 0
    kz_spawnFrame(n);            // a subemitter at its event, in its emission basis
#endif
    #splice EMISSION
    kz_endSpawn();
    #splice HISTORY
#if KZ_LEVEL == 0
    kz_setSlot(kz_first + kz_word(kz_liveWord(e, 0u)) + n, local);   // walked by this step's kernel
#else
    kz_enterSystemSpace();  // (the record is stored; a host death is told in the system's space)
    kz_deathTest();         // born at the end of the step: a child with lifetime 0 dies in it
#endif
}
