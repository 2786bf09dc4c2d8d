// Last ordering pass, one invocation per staged record: move it from the staging half of
// the Event Buffer to its place (the writer slot's first index plus its rank), staging
// fields cleared. The kept records fill 0 .. min(count, capacity) - 1 exactly.
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= min(eventHeader.count, eventHeader.capacity)) {
        return;
    }
    ParticleEvent e = events[eventHeader.capacity + k];
    uint at = tracks[e.stagedSlot].eventBase + e.stagedRank;
    e.stagedSlot = 0u;
    e.stagedRank = 0u;
    events[at] = e;
}
