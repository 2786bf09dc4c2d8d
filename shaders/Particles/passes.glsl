// Shared by the ordering passes (Particles/pass_*.glsl): which emitter holds a run or a
// group of the system, and the words the scans keep per group and per run.
//
// The orders that must not depend on the GPU's scheduling (freed slots on the free stack,
// event records, the live list) are made by counting, not by atomics: a pass per run of 64
// groups of 64 slots walks its groups in order (each group's count and its base within the
// run), one workgroup per emitter scans the runs' totals (shared memory), and a last pass
// writes each item at its run's base + its group's base + its rank within the group. No
// pass but the emitter scans uses barrier(): llvmpipe runs it as coroutine switches.

// The largest e whose table word `field` is at most x (the emitters' ranges are ascending).
uint kz_emitterOf(uint field, uint x) {
    uint lo = 0u;
    uint hi = kz_emitterCount;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) >> 1u;
        if (kz_table(mid, field) <= x) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

#define RUN_KILL_TOTAL   0u
#define RUN_LIVE_TOTAL   1u
#define RUN_EVENTS_TOTAL 2u
#define RUN_KILL_BASE    3u
#define RUN_LIVE_BASE    4u
#define RUN_EVENTS_BASE  5u
uint kz_runWord(uint r, uint field) { return kz_runWords + 6u * r + field; }
uint kz_groupKillWord(uint g) { return kz_groupWords + 2u * g; }
uint kz_groupLiveWord(uint g) { return kz_groupWords + 2u * g + 1u; }

bool kz_takesPart(uint e) {
    return (kz_table(e, E_FLAGS) & EF_RUNS) != 0u;
}

// Groups [g0, g1) of run r of emitter e.
void kz_runGroups(uint e, uint r, out uint g0, out uint g1) {
    uint first = kz_table(e, E_FIRST_GROUP);
    g0 = first + (r - kz_table(e, E_FIRST_RUN)) * uint(GROUPS_PER_RUN);
    g1 = min(g0 + uint(GROUPS_PER_RUN), first + kz_table(e, E_GROUPS));
}

// Exclusive scan of the 64 values in kz_scan, by invocation 0 (the caller puts barriers
// around it); returns the total.
shared uint kz_scan[WORKGROUP_SIZE];
uint kz_scanShared() {
    uint total = 0u;
    for (uint k = 0u; k < uint(WORKGROUP_SIZE); ++k) {
        uint n = kz_scan[k];
        kz_scan[k] = total;
        total += n;
    }
    return total;
}
