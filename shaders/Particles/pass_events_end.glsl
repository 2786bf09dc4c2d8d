// After an emitter's events stage: writers counted every attempt in `count`; keep only the
// records that fit, and add the step to the running totals (the stats' per-frame figures).
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"

void main() {
    if (gl_GlobalInvocationID.x == 0u) {
        uint written = min(eventHeader.count, eventHeader.capacity);
        eventHeader.count = written;
        eventHeader.totalWritten += written;
        eventHeader.totalDropped += eventHeader.dropped;
    }
}
