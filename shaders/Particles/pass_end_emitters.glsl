// End of step, second pass, one workgroup per emitter: its runs' bases. Deaths go on the
// free stack from its top (free_count), last run first; survivors fill the live list from 0,
// first run first. Moves free_count and total_died once, writes the live header (count,
// indirect dispatch and draw arguments) and whether the live list must be rewritten. Each invocation sums a contiguous chunk of runs;
// the 64 chunk sums are scanned in shared memory.
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

shared uint kz_liveScan[WORKGROUP_SIZE];
shared uint kz_stackTop;

void main() {
    uint e = gl_WorkGroupID.x;
    if (e >= kz_emitterCount || !kz_takesPart(e)) {
        return;             // the whole workgroup: no barrier is left waiting
    }
    uint t = gl_LocalInvocationIndex;
    uint r0 = kz_table(e, E_FIRST_RUN);
    uint runs = kz_table(e, E_RUNS);
    uint chunk = (runs + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint q0 = min(t * chunk, runs);
    uint q1 = min(q0 + chunk, runs);
    uint dead = 0u, live = 0u;
    for (uint q = q0; q < q1; ++q) {
        dead += kz_word(kz_runWord(r0 + runs - 1u - q, RUN_KILL_TOTAL));    // last run first
        live += kz_word(kz_runWord(r0 + q, RUN_LIVE_TOTAL));
    }
    kz_scan[t] = dead;
    kz_liveScan[t] = live;
    memoryBarrierShared();
    barrier();
    if (t == 0u) {
        uint deaths = kz_scanShared();
        uint survivors = 0u;
        for (uint k = 0u; k < uint(WORKGROUP_SIZE); ++k) {
            uint n = kz_liveScan[k];
            kz_liveScan[k] = survivors;
            survivors += n;
        }
        uint s = e * KZ_STATE_WORDS;
        uint top = kz_word(s + 6u);                                         // free_count
        kz_stackTop = top;
        kz_setWord(s + 6u, top + deaths);
        kz_setWord(s + 9u, kz_word(s + 9u) + deaths);                       // total_died
        kz_setWord(kz_liveWord(e, 0u), survivors);
        kz_setWord(kz_liveWord(e, 1u), (survivors + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));
        kz_setWord(kz_liveWord(e, 2u), 1u);
        kz_setWord(kz_liveWord(e, 3u), 1u);
        kz_setWord(kz_liveWord(e, 4u), 4u);
        kz_setWord(kz_liveWord(e, 5u), survivors);
        kz_setWord(kz_liveWord(e, 6u), 0u);
        kz_setWord(kz_liveWord(e, 7u), 0u);
        // the live list changes only with a death or a birth (emission appended its new
        // particles unsorted); else the last pass leaves the emitter's groups alone
        kz_setScheduleWord(kz_rebuildWords + e, uint(deaths > 0u || kz_word(s + 3u) > 0u));
    }
    memoryBarrierShared();
    barrier();
    uint at = kz_stackTop + kz_scan[t];
    for (uint q = q0; q < q1; ++q) {
        uint r = r0 + runs - 1u - q;
        kz_setWord(kz_runWord(r, RUN_KILL_BASE), at);
        at += kz_word(kz_runWord(r, RUN_KILL_TOTAL));
    }
    at = kz_liveScan[t];
    for (uint q = q0; q < q1; ++q) {
        kz_setWord(kz_runWord(r0 + q, RUN_LIVE_BASE), at);
        at += kz_word(kz_runWord(r0 + q, RUN_LIVE_TOTAL));
    }
}
