// The count pass (docs/player.md, The frame, stage 1): one invocation for the whole system
// per step (and per subemitter level), looping over the emitters. The EmissionCountMaterial
// defines
//     uint emissionCount();
// and may keep state in `state.carry`, `state.cycleTimer`, `state.cycle`, `state.user`.
// kz_countEmitter clamps the wish to the free slots (a full pool stalls, never overwrites)
// and reserves them on the free stack.

EmitterState state;         // the emitter being counted (loaded before, stored after)

void kz_countEmitter(uint wanted) {
    uint n = min(wanted, state.freeCount);
    state.started = 1u;
    state.step = kz_step;
    state.requested = wanted;
    state.count = n;
    state.totalStalled += wanted - n;
    state.emitBase = state.freeCount;
    state.freeCount -= n;
    state.totalEmitted += n;
    state.groupsX = (n + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    state.groupsY = 1u;
    state.groupsZ = 1u;
}

// Writes a plan's total and its indirect dispatch arguments after the E emitters' starts.
void kz_finishPlan(uint plan, uint total, uint groups) {
    kz_setScheduleWord(plan + kz_emitterCount, total);
    kz_setScheduleWord(plan + kz_emitterCount + 1u, groups);
    kz_setScheduleWord(plan + kz_emitterCount + 2u, 1u);
    kz_setScheduleWord(plan + kz_emitterCount + 3u, 1u);
}
