// Before an emitter's events stage: this step's count and drops start from zero (the
// records of the previous step are overwritten; the totals run on).
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"

void main() {
    if (gl_GlobalInvocationID.x == 0u) {
        eventHeader.count = 0u;
        eventHeader.dropped = 0u;
    }
}
