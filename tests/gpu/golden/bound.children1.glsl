#version 430
#define KZ_IMAGE_IO 1
#define KZ_VERLET 1
#define KZ_TIME_SCALE 0
#define KZ_LEVEL 1
#define KZ_FULL_WALK 0
#define KZ_HOST_EVENTS 0
#define KZ_EMITTER_SPACES 0
#define KZ_TABLE_VEC4S 1024
#define KZ_SCHEDULE_VEC4S 1024
#define KZ_PARAMS_VEC4S 21
// -- shaders/Particles/common.glsl (text left out)
// -- shaders/Particles/particle_data.glsl (text left out)
// -- shaders/Particles/storage.glsl (text left out)
// -- shaders/Particles/random.glsl (text left out)
// -- shaders/Particles/accessors.glsl (text left out)
// -- shaders/Particles/host_events.glsl (text left out)
// -- shaders/Particles/source_events.glsl (text left out)
// -- shaders/Particles/stage_step.glsl (text left out)
// -- shaders/Particles/damping.glsl (text left out)
// -- shaders/Particles/affector_falloff.glsl (text left out)
// -- <parameters of shaders/Event_Lifetime.glsl> from line 1
float kz_e0_Events_Probability;
float kz_e0_Events_LifetimeMin;
float kz_e0_Events_LifetimeMax;
// -- shaders/Particles/events_params.glsl (text left out)
// -- shaders/Event_Lifetime.glsl (text left out)
// -- <generated: parameters of shaders/Event_Lifetime.glsl> from line 1
void kz_e0_load(uint b) {
    kz_e0_Events_Probability = kz_paramFloat(b + 0u);
    kz_e0_Events_LifetimeMin = kz_paramFloat(b + 1u);
    kz_e0_Events_LifetimeMax = kz_paramFloat(b + 2u);
}
// -- shaders/Particles/stage_children_main.glsl from line 1
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
// -- <generated: 'Shells' children program EVENTS> from line 1
    switch (kz_table(kz_e, E_EVENTS)) {
    case 1u: {
        kz_eventsBegin();
        kz_e0_load(kz_table(kz_e, E_EVENTS_PARAMS) + 0u);
        kz_e0_generateEvents(kz_self);
        kz_eventsEnd();
        break;
    }
    }
// -- shaders/Particles/stage_children_main.glsl from line 22
    kz_deathTest();
    kz_leaveSystemSpace();
    kz_end();
}
