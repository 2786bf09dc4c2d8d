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
#define KZ_COLLIDERS 0
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
// -- shaders/Particles/collider_resolve.glsl (text left out)
// -- shaders/Particles/bound_emission.glsl (text left out)
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
// -- shaders/Particles/stage_step_main.glsl from line 1
// The fused step's main (docs/player.md, The frame, stages 2-8): one invocation per live
// particle of every emitter of the system (Particles/stage_step.glsl holds the stages that
// are not materials). The generator (kzplayer.gpu.generate) fills each `#splice` point with
// the system's own part: the switches over its variants, its affectors and colliders in
// tree order, its bound subemitters (kzplayer.gpu.program_builder: splice points).

// 3. the emitter's SelfAffectMaterial: a switch on the emitter table's variant
void kz_selfAffect() {

}
// 4. the system's affectors, in tree order: each enabled one with its own parameter words
void kz_affectors() {

}
// 6. the system's colliders, resolved together: a sequence of earliest hits over all of
// them (Particles/collider_resolve.glsl asks this function for each sub-path)
bool kz_sweepAll(vec3 a, vec3 b, out float t, out vec3 n, out KzResponse r) {
    bool found = false;
    float s;
    vec3 m;
    t = 2.0;
    n = vec3(0.0);
    r = KzResponse(0.0, 0.0, false);

    return found;
}
void kz_colliders() {
#if KZ_COLLIDERS
    kz_collide();
#endif
}
// emitters bound to particles: the children due from this particle in this step
// (Particles/bound_emission.glsl, included when the system has any)
void kz_bound() {
// -- <generated: 'Shells' step program BOUND> from line 1
    if (kz_e == 0u) {
        kz_emitBound(2u);
    }
// -- shaders/Particles/stage_step_main.glsl from line 36
}
// 7. the emitter's GenerateEventsMaterial
void kz_events() {
// -- <generated: 'Shells' step program EVENTS> from line 1
    switch (kz_table(kz_e, E_EVENTS)) {
    case 1u: {
        kz_eventsBegin();
        kz_e0_load(kz_table(kz_e, E_EVENTS_PARAMS) + 0u);
        kz_e0_generateEvents(kz_self);
        kz_eventsEnd();
        break;
    }
    }
// -- shaders/Particles/stage_step_main.glsl from line 40
}

void main() {
    uint g = gl_WorkGroupID.x;
    uint e = kz_planEmitter(kz_planStep, g);
    uint k = (g - kz_scheduleWord(kz_planStep + e)) * uint(WORKGROUP_SIZE) + gl_LocalInvocationIndex;
    kz_bindEmitter(e);
    if (k >= kz_scheduleWord(kz_stepCounts + e)) {
        return;
    }
#if KZ_FULL_WALK
    kz_begin(kz_first + k);                          // every slot of the pool
    if ((kz_p.flags & FLAG_ALIVE) == 0u) {
        return;
    }
#else
    kz_begin(kz_first + kz_slot(kz_first + k));     // the k-th entry of its live list
#endif
    kz_enterSystemSpace();           // an emitter in a space of its own steps in the system's
    kz_reset();
    kz_selfAffect();
    kz_affectors();
    kz_integrate();
    kz_colliders();
    kz_bound();
    kz_events();
    kz_deathTest();
    kz_leaveSystemSpace();
    // after leaving: the ring holds positions in the emitter's own space, as its records.
    // Filled when an emitter of the system keeps a position history (its program then
    // includes Particles/history.glsl): one write of the ring (trails).

    kz_end();
}
