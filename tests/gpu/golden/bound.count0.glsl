#version 430
#define KZ_IMAGE_IO 1
#define KZ_VERLET 1
#define KZ_TIME_SCALE 0
#define KZ_LEVEL 0
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
// -- shaders/Particles/stage_count.glsl (text left out)
// -- shaders/Particles/affector_falloff.glsl (text left out)
// -- <parameters of shaders/EmissionCount_Schedule.glsl> from line 1
float kz_c0_Emission_Rate;
float kz_c0_Emission_RateVariance;
float kz_c0_Emission_OnDuration;
float kz_c0_Emission_OffDuration;
float kz_c0_Emission_ImpulseAtCycleStart;
float kz_c0_Emission_ImpulseVariance;
// -- shaders/EmissionCount_Schedule.glsl (text left out)
// -- <generated: parameters of shaders/EmissionCount_Schedule.glsl> from line 1
void kz_c0_load(uint b) {
    kz_c0_Emission_Rate = kz_paramFloat(b + 0u);
    kz_c0_Emission_RateVariance = kz_paramFloat(b + 1u);
    kz_c0_Emission_OnDuration = kz_paramFloat(b + 2u);
    kz_c0_Emission_OffDuration = kz_paramFloat(b + 3u);
    kz_c0_Emission_ImpulseAtCycleStart = kz_paramFloat(b + 4u);
    kz_c0_Emission_ImpulseVariance = kz_paramFloat(b + 5u);
}
// -- shaders/Particles/stage_count_main.glsl from line 1
// The count program's main (docs/player.md, The frame, stage 1; Particles/stage_count.glsl):
// one invocation loops over the system's emitters and writes the emission plan of level
// KZ_LEVEL; at level 0 also the step plan, the per-step constants of the materials and the
// emptied Event Buffers. The generator (kzplayer.gpu.generate) fills the splice points:
//   PREPARE_EMITTER  the per-step constants of the emitter's SelfAffect and GenerateEvents
//                    materials (a switch on its variants)
//   PREPARE_NODES    those of the system's affectors and colliders, node by node
//   COUNT            the switch over the level's EmissionCountMaterials: `wanted`
// (the per-step materials are part of the level-0 program only: empty at other levels).

// The emitter's per-step constants (KZ_PER_STEP of its SelfAffect and GenerateEvents materials).
void kz_prepareEmitter() {

}

void main() {
    if (gl_GlobalInvocationID.x != 0u) {
        return;
    }

    uint spawns = 0u;
    uint walk = 0u;
    for (uint e = 0u; e < kz_emitterCount; ++e) {
        kz_setScheduleWord(kz_planEmit + e, spawns);
#if KZ_LEVEL == 0
        kz_setScheduleWord(kz_planStep + e, walk);
        kz_setScheduleWord(kz_stepCounts + e, 0u);
#endif
        if ((kz_table(e, E_FLAGS) & EF_RUNS) == 0u) {
            continue;
        }
        kz_bindEmitter(e);
#if KZ_LEVEL == 0
        kz_setWord(kz_headerWord(e, H_COUNT), 0u);      // this step's Event Buffer starts empty
        kz_setWord(kz_headerWord(e, H_DROPPED), 0u);
        kz_prepareEmitter();
#endif
        uint n = 0u;
        if (kz_table(e, E_LEVEL) == uint(KZ_LEVEL) && kz_table(e, E_COUNT) != 0u && kz_table(e, E_EMISSION) != 0u) {
            state = kz_loadState(e);
            uint wanted = 0u;
// -- <generated: 'Shells' count program COUNT> from line 1
            switch (kz_table(kz_e, E_COUNT)) {
            case 1u:
                kz_c0_load(kz_table(kz_e, E_COUNT_PARAMS));
                wanted = kz_c0_emissionCount();
                break;
            }
// -- shaders/Particles/stage_count_main.glsl from line 43
            kz_countEmitter(wanted);
            kz_storeState(e, state);
            n = state.count;
        }
        spawns += n;
#if KZ_LEVEL == 0
#if KZ_FULL_WALK
        uint particles = kz_capacity;
#else
        uint particles = kz_word(kz_liveWord(e, 0u)) + n;     // its live list and its new particles
#endif
        kz_setScheduleWord(kz_stepCounts + e, particles);
        walk += (particles + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
#endif
    }
    kz_finishPlan(kz_planEmit, spawns, (spawns + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));
#if KZ_LEVEL == 0
    kz_finishPlan(kz_planStep, walk, walk);
    kz_setScheduleWord(kz_endArgs, 0u);              // the end passes raise it if a list changes
    kz_setScheduleWord(kz_endArgs + 1u, 1u);
    kz_setScheduleWord(kz_endArgs + 2u, 1u);
#endif
}
