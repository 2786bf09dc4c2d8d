// The position history (docs/player.md, "Position history"): for an emitter whose rendering
// material draws trails (Particles_GradientLine, Particles_Ribbon, Particles_FlatRibbon, a
// custom material with history=), N positions per pool slot, a ring: the step numbered s
// (counting the steps run, not those a frame over budget dropped: kz_historyStep)
// writes entry s mod N of every live particle's ring with its position after the colliders,
// so the newest entry is always the particle's position and the others are the N - 1 steps
// before. A new particle's ring is collapsed onto its spawn point (every entry), so its trail
// grows from there instead of streaking from wherever the slot's last particle died.
// Included by the generated emit and step programs when some emitter of the system keeps a
// history (KZ_HISTORY); an emitter without one (E_HISTORY 0) skips both.

#if KZ_HISTORY_IMAGE
// an image, not a ninth storage block (GL 4.3 promises compute programs eight)
layout(rgba32ui, binding = IMAGE_HISTORY) uniform uimageBuffer kz_historyTexels;
void kz_storeHistory(uint k, vec4 v) { imageStore(kz_historyTexels, int(k), floatBitsToUint(v)); }
#else
layout(std430, binding = BINDING_HISTORY_SSBO) buffer HistoryBlock { vec4 kz_historyEntries[]; };
void kz_storeHistory(uint k, vec4 v) { kz_historyEntries[k] = v; }
#endif

// Entry k of every slot's ring lies together (entry-major: the emitter's range holds N rows
// of its slots, a row `stride` = its slots in whole groups long), so the step's one write per
// particle goes to consecutive texels of one row, as its records do.
// The ring's entry 0 of the particle in registers, and the stride; n = 0: its emitter keeps none.
uint kz_historyRing(out uint n, out uint stride) {
    n = kz_table(kz_e, E_HISTORY);
    stride = kz_table(kz_e, E_GROUPS) * uint(WORKGROUP_SIZE);
    return kz_table(kz_e, E_HISTORY_BASE) + (kz_self - kz_first);
}

// The step's one extra write per particle: its position now, at entry (step mod N).
void kz_history() {
    uint n, stride;
    uint ring = kz_historyRing(n, stride);
    if (n != 0u) {
        kz_storeHistory(ring + (kz_historyStep % n) * stride, vec4(kz_p.position, kz_p.age));
    }
}

// At spawn: every entry of the new particle's ring is its spawn point.
void kz_historyCollapse() {
    uint n, stride;
    uint ring = kz_historyRing(n, stride);
    for (uint k = 0u; k < n; ++k) {
        kz_storeHistory(ring + k * stride, vec4(kz_p.position, kz_p.age));
    }
}
