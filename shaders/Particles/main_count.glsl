// EmissionCount slot: one invocation per emitter and step. The material defines
//     uint emissionCount();
// (it may keep state in `state.carry`, `state.cycleTimer`, `state.cycle`, `state.user`).
// This main clamps the wish to the free slots (a full pool stalls, never overwrites) and
// writes the indirect dispatch arguments of the emit pass.
#include "Particles/common.glsl"

uint emissionCount();

void main() {
    if (gl_GlobalInvocationID.x != 0u) {
        return;
    }
    uint wanted = emissionCount();
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
