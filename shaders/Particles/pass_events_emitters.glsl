// Events ordering, second pass, per emitter of the level: its runs' first records (a scan of
// their totals from 0, first run first), and the Event Buffer's header closed for the step:
// the writers counted every attempt in `count`; keep only the records that fit, and add the
// step to the running totals (the stats' per-frame figures). KZ_WIDE as in
// pass_end_emitters.glsl: an invocation per emitter, or a workgroup per emitter.
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

uniform uint kz_level;

bool kz_orders(uint e) {
    uint flags = kz_table(e, E_FLAGS);
    return (flags & (EF_RUNS | EF_EVENTS)) == (EF_RUNS | EF_EVENTS) && kz_table(e, E_LEVEL) == kz_level;
}

void kz_closeHeader(uint e) {
    uint written = min(kz_word(kz_headerWord(e, H_COUNT)), kz_table(e, E_CAPACITY));
    kz_setWord(kz_headerWord(e, H_COUNT), written);
    kz_setWord(kz_headerWord(e, H_TOTAL_WRITTEN), kz_word(kz_headerWord(e, H_TOTAL_WRITTEN)) + written);
    kz_setWord(kz_headerWord(e, H_TOTAL_DROPPED),
               kz_word(kz_headerWord(e, H_TOTAL_DROPPED)) + kz_word(kz_headerWord(e, H_DROPPED)));
}

void kz_runBases(uint r0, uint q0, uint q1, uint at) {
    for (uint q = q0; q < q1; ++q) {
        kz_setWord(kz_runWord(r0 + q, RUN_EVENTS_BASE), at);
        at += kz_word(kz_runWord(r0 + q, RUN_EVENTS_TOTAL));
    }
}

#if KZ_WIDE
void main() {
    uint e = gl_WorkGroupID.x;
    if (e >= kz_emitterCount || !kz_orders(e)) {
        return;             // the whole workgroup: no barrier is left waiting
    }
    uint t = gl_LocalInvocationIndex;
    uint r0 = kz_table(e, E_FIRST_RUN);
    uint runs = kz_table(e, E_RUNS);
    uint chunk = (runs + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint q0 = min(t * chunk, runs);
    uint q1 = min(q0 + chunk, runs);
    uint sum = 0u;
    for (uint q = q0; q < q1; ++q) {
        sum += kz_word(kz_runWord(r0 + q, RUN_EVENTS_TOTAL));
    }
    kz_scan[t] = sum;
    memoryBarrierShared();
    barrier();
    if (t == 0u) {
        kz_scanShared();
        kz_closeHeader(e);
    }
    memoryBarrierShared();
    barrier();
    kz_runBases(r0, q0, q1, kz_scan[t]);
}
#else
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= kz_emitterCount || !kz_orders(e)) {
        return;
    }
    kz_closeHeader(e);
    kz_runBases(kz_table(e, E_FIRST_RUN), 0u, kz_table(e, E_RUNS), 0u);
}
#endif
