// End of step, last pass, one invocation per group of 64 slots: its dying slots go on the
// emitter's free stack at the place the scans gave the group, highest slot first (so the
// stack's top is the lowest freed slot, reused first as on a new pool), their flags and
// alive bits cleared; its surviving slots go into the emitter's live list, ascending.
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    if (g >= kz_groupCount) {
        return;
    }
    uint e = kz_emitterOf(E_FIRST_GROUP, g);
    if (!kz_takesPart(e) || g >= kz_table(e, E_FIRST_GROUP) + kz_table(e, E_GROUPS)
            || kz_scheduleWord(kz_rebuildWords + e) == 0u) {
        return;             // no death, no birth: the stack and the live list stand
    }
    uint first = kz_table(e, E_FIRST);
    uint r = kz_table(e, E_FIRST_RUN) + (g - kz_table(e, E_FIRST_GROUP)) / uint(GROUPS_PER_RUN);
    uint a[2] = uint[2](kz_word(kz_aliveWords + 2u * g), kz_word(kz_aliveWords + 2u * g + 1u));
    uint d[2] = uint[2](kz_word(kz_deathWords + 2u * g), kz_word(kz_deathWords + 2u * g + 1u));
    if ((d[0] | d[1]) != 0u) {
        uint at = kz_freeSlots + first + kz_word(kz_runWord(r, RUN_KILL_BASE)) + kz_word(kz_groupKillWord(g));
        for (int w = 1; w >= 0; --w) {
            uint bits = d[w];
            while (bits != 0u) {
                uint b = uint(findMSB(bits));
                bits &= ~(1u << b);
                uint slot = g * 64u + uint(w) * 32u + b;
                kz_setSlot(at++, slot - first);
                Particle p = kz_loadHot(slot);
                p.flags = 0u;
                kz_storeHot(slot, 3u, p);
            }
            kz_setWord(kz_aliveWords + 2u * g + uint(w), a[w] & ~d[w]);
            kz_setWord(kz_deathWords + 2u * g + uint(w), 0u);
            a[w] &= ~d[w];
        }
    }
    uint at = first + kz_word(kz_runWord(r, RUN_LIVE_BASE)) + kz_word(kz_groupLiveWord(g));
    for (uint w = 0u; w < 2u; ++w) {
        uint bits = a[w];
        while (bits != 0u) {
            uint b = uint(findLSB(bits));
            bits &= bits - 1u;
            kz_setSlot(at++, g * 64u + w * 32u + b - first);
        }
    }
}
