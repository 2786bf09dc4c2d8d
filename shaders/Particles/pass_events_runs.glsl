// Events ordering, first pass, one invocation per run of 64 groups (the emitters of one
// subemitter level, kz_level, that have a GenerateEventsMaterial): walks the slots that
// wrote records this step (the writer mask), in slot order, giving each its first place
// among the run's records (its track's eventBase) and the run its total; clears the mask.
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

uniform uint kz_level;

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= kz_runCount) {
        return;
    }
    uint e = kz_emitterOf(E_FIRST_RUN, r);
    uint flags = kz_table(e, E_FLAGS);
    if ((flags & (EF_RUNS | EF_EVENTS)) != (EF_RUNS | EF_EVENTS) || kz_table(e, E_LEVEL) != kz_level) {
        return;
    }
    uint g0, g1;
    kz_runGroups(e, r, g0, g1);
    uint total = 0u;
    for (uint w = 2u * g0; w < 2u * g1; ++w) {
        uint bits = kz_word(kz_writerWords + w);
        if (bits == 0u) {
            continue;
        }
        kz_setWord(kz_writerWords + w, 0u);
        while (bits != 0u) {
            uint b = uint(findLSB(bits));
            bits &= bits - 1u;
            uint slot = w * 32u + b;
            ParticleTrack k;
            k = kz_loadTrackPart(slot, 1u, k);
            k = kz_loadTrackPart(slot, 2u, k);
            k.eventBase = total;
            total += k.events;
            kz_storeTrack(slot, 1u, k);
        }
    }
    kz_setWord(kz_runWord(r, RUN_EVENTS_TOTAL), total);
}
