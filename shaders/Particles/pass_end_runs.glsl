// End of step, first pass, one invocation per run of 64 groups: each group's deaths (the
// death mask) and survivors (alive and not dying), and its base within the run: deaths from
// the run's last group down (the free stack's order: the lowest freed slot ends on top),
// survivors from the first group up (the live list: ascending slots).
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= kz_runCount) {
        return;
    }
    uint e = kz_emitterOf(E_FIRST_RUN, r);
    if (!kz_takesPart(e)) {
        return;
    }
    uint g0, g1;
    kz_runGroups(e, r, g0, g1);
    uint live = 0u;
    for (uint g = g0; g < g1; ++g) {
        uint a0 = kz_word(kz_aliveWords + 2u * g), a1 = kz_word(kz_aliveWords + 2u * g + 1u);
        uint d0 = kz_word(kz_deathWords + 2u * g), d1 = kz_word(kz_deathWords + 2u * g + 1u);
        kz_setWord(kz_groupLiveWord(g), live);
        live += uint(bitCount(a0 & ~d0) + bitCount(a1 & ~d1));
    }
    uint dead = 0u;
    for (uint g = g1; g > g0; --g) {
        uint d0 = kz_word(kz_deathWords + 2u * (g - 1u)), d1 = kz_word(kz_deathWords + 2u * (g - 1u) + 1u);
        kz_setWord(kz_groupKillWord(g - 1u), dead);
        dead += uint(bitCount(d0) + bitCount(d1));
    }
    kz_setWord(kz_runWord(r, RUN_KILL_TOTAL), dead);
    kz_setWord(kz_runWord(r, RUN_LIVE_TOTAL), live);
}
