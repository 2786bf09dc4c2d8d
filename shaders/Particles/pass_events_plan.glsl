// Events ordering, third pass, one invocation: the move's plan, the kept records of each
// emitter of the level that ordered its records, and the indirect arguments.
#include "Particles/common.glsl"

uniform uint kz_level;

void main() {
    if (gl_GlobalInvocationID.x != 0u) {
        return;
    }
    uint records = 0u;
    for (uint e = 0u; e < kz_emitterCount; ++e) {
        kz_setScheduleWord(kz_planMove + e, records);
        uint flags = kz_table(e, E_FLAGS);
        if ((flags & (EF_RUNS | EF_EVENTS)) == (EF_RUNS | EF_EVENTS) && kz_table(e, E_LEVEL) == kz_level) {
            records += kz_word(kz_headerWord(e, H_COUNT));
        }
    }
    kz_setScheduleWord(kz_planMove + kz_emitterCount, records);
    kz_setScheduleWord(kz_planMove + kz_emitterCount + 1u, (records + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));
    kz_setScheduleWord(kz_planMove + kz_emitterCount + 2u, 1u);
    kz_setScheduleWord(kz_planMove + kz_emitterCount + 3u, 1u);
}
