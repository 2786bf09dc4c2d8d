// Kanzi Particles 3.0's emission-count include: a custom EmissionCountMaterial written for
// Kanzi (an include of this file, its uniforms, and `uint EmissionCount()` returning the
// number of particles to spawn this step) runs in kzplayer's count slot unchanged. Once per
// emitter per step; the count is clamped to the free slots of the pool (a full pool stalls).
// State that must carry between steps may live in `state.carry`, `state.cycleTimer`,
// `state.cycle` and `state.user` (Particles/stage_count.glsl). This file maps the entry
// point onto kzplayer's (emissionCount()).
#include "Particles/kanzi.glsl"

uint EmissionCount();

uint emissionCount() {
    return EmissionCount();
}
