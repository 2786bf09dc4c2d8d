// End of step, second pass: each emitter's runs' bases. Deaths go on the free stack from its
// top (free_count), last run first; survivors fill the live list from 0, first run first.
// Moves free_count and total_died once, writes the live header (count, indirect dispatch and
// draw arguments) and whether the live list must be rewritten.
//   KZ_WIDE 0: one invocation per emitter walks its runs (no barrier: llvmpipe runs barrier()
//              as coroutine switches); the simulation uses it while no emitter has more than
//              64 runs (262,144 slots).
//   KZ_WIDE 1: one workgroup per emitter: each invocation sums a contiguous chunk of runs, the
//              64 chunk sums are scanned in shared memory (a GPU's way with long pools).
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

// The emitter's totals: its stack top moves by its deaths; its live header.
void kz_closeEmitter(uint e, uint deaths, uint survivors, out uint top) {
    uint s = e * KZ_STATE_WORDS;
    top = kz_word(s + 6u);                                              // free_count
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
    bool rebuild = deaths > 0u || kz_word(s + 3u) > 0u;
    kz_setScheduleWord(kz_rebuildWords + e, uint(rebuild));
    if (rebuild) {      // the last pass runs (over every group) only if some emitter changed
        kz_scheduleMax(kz_endArgs, (kz_groupCount + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));
    }
}

// Runs q0 .. q1 - 1 of the emitter (kill: counted from its last run), from `kill` and `live`.
void kz_runBases(uint r0, uint runs, uint q0, uint q1, uint kill, uint live) {
    for (uint q = q0; q < q1; ++q) {
        uint r = r0 + runs - 1u - q;
        kz_setWord(kz_runWord(r, RUN_KILL_BASE), kill);
        kill += kz_word(kz_runWord(r, RUN_KILL_TOTAL));
    }
    for (uint q = q0; q < q1; ++q) {
        kz_setWord(kz_runWord(r0 + q, RUN_LIVE_BASE), live);
        live += kz_word(kz_runWord(r0 + q, RUN_LIVE_TOTAL));
    }
}

#if KZ_WIDE
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
        uint top;
        kz_closeEmitter(e, deaths, survivors, top);
        kz_stackTop = top;
    }
    memoryBarrierShared();
    barrier();
    kz_runBases(r0, runs, q0, q1, kz_stackTop + kz_scan[t], kz_liveScan[t]);
}
#else
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= kz_emitterCount || !kz_takesPart(e)) {
        return;
    }
    uint r0 = kz_table(e, E_FIRST_RUN);
    uint runs = kz_table(e, E_RUNS);
    uint deaths = 0u, survivors = 0u;
    for (uint q = 0u; q < runs; ++q) {
        deaths += kz_word(kz_runWord(r0 + q, RUN_KILL_TOTAL));
        survivors += kz_word(kz_runWord(r0 + q, RUN_LIVE_TOTAL));
    }
    uint top;
    kz_closeEmitter(e, deaths, survivors, top);
    kz_runBases(r0, runs, 0u, runs, top, 0u);
}
#endif
