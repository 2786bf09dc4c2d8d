// The main of a subemitter level's *children* program (docs/player.md, The frame, stage 7):
// the events of the children this level's subemitters made in this step (born at the end
// of the step: not integrated), then their death test. With Particles/stage_step.glsl; the
// generator (kzplayer.gpu.generate) fills EVENTS with the switch over the level's
// GenerateEventsMaterials.

void main() {
    uint j = gl_GlobalInvocationID.x;
    if (j >= kz_scheduleWord(kz_planEmit + kz_emitterCount)) {
        return;
    }
    uint e = kz_planEmitter(kz_planEmit, j);
    uint n = j - kz_scheduleWord(kz_planEmit + e);
    kz_bindEmitter(e);
    uint s = e * KZ_STATE_WORDS;
    if ((kz_flags & EF_EVENTS) == 0u) {
        return;
    }
    kz_begin(kz_first + kz_slot(kz_freeSlots + kz_first + kz_word(s + 5u) - 1u - n));
    kz_enterSystemSpace();
    #splice EVENTS
    kz_deathTest();
    kz_leaveSystemSpace();
    kz_end();
}
