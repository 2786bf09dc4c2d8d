// Events ordering, last pass, one invocation per kept record of the level (indirect, the
// plan of pass_events_plan): moves it from the staging half of its emitter's Event Buffer to its
// place in slot order (its writer's run's first record + the slot's first place in the run
// + its rank among the slot's records), staging fields cleared. The kept records fill
// 0 .. kept - 1 exactly.
#include "Particles/common.glsl"
#include "Particles/passes.glsl"

void main() {
    uint j = gl_GlobalInvocationID.x;
    if (j >= kz_scheduleWord(kz_planMove + kz_emitterCount)) {
        return;
    }
    uint e = kz_planEmitter(kz_planMove, j);
    uint k = j - kz_scheduleWord(kz_planMove + e);
    uint base = kz_table(e, E_EVENT_BASE);
    ParticleEvent ev = kz_loadEvent(base + kz_table(e, E_CAPACITY) + k);
    uint slot = ev.stagedSlot;
    uint r = kz_table(e, E_FIRST_RUN) + slot / uint(WORKGROUP_SIZE * GROUPS_PER_RUN);
    ParticleTrack track;
    track = kz_loadTrackPart(kz_table(e, E_FIRST) + slot, 1u, track);
    uint at = kz_word(kz_runWord(r, RUN_EVENTS_BASE)) + track.eventBase + ev.stagedRank;
    ev.stagedSlot = 0u;
    ev.stagedRank = 0u;
    kz_storeEvent(base + at, ev);
}
