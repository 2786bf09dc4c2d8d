#version 430
#define KZ_IMAGE_IO 1
#define KZ_VERLET 0
#define KZ_TIME_SCALE 0
#define KZ_LEVEL 0
#define KZ_FULL_WALK 0
#define KZ_HOST_EVENTS 0
#define KZ_EMITTER_SPACES 0
#define KZ_TABLE_VEC4S 1024
#define KZ_SCHEDULE_VEC4S 1024
#define KZ_COLLIDERS 1
#define KZ_PARAMS_VEC4S 27
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
// -- shaders/Particles/noise.glsl (text left out)
// -- shaders/Particles/velocity.glsl (text left out)
// -- shaders/Gravity.glsl (text left out)
// -- <generated: parameters of shaders/Gravity.glsl> from line 1
void kz_a0_load(uint b) {
}
// -- <parameters of shaders/Wind.glsl> from line 1
float kz_a1_Wind_WindSpeed;
float kz_a1_Wind_DragFactor;
float kz_a1_Wind_GroundLevel;
float kz_a1_Wind_FullWindHeight;
float kz_a1_Wind_TurbulenceStrength;
float kz_a1_Wind_TurbulenceFrequency;
float kz_a1_Wind_GustAmplitude;
float kz_a1_Wind_GustFrequency;
vec3 kz_a1_windUp;
vec3 kz_a1_windVelocity;
vec3 kz_a1_windDrift;
// -- shaders/Wind.glsl (text left out)
// -- <generated: parameters of shaders/Wind.glsl> from line 1
void kz_a1_load(uint b) {
    kz_a1_Wind_WindSpeed = kz_paramFloat(b + 0u);
    kz_a1_Wind_DragFactor = kz_paramFloat(b + 1u);
    kz_a1_Wind_GroundLevel = kz_paramFloat(b + 2u);
    kz_a1_Wind_FullWindHeight = kz_paramFloat(b + 3u);
    kz_a1_Wind_TurbulenceStrength = kz_paramFloat(b + 4u);
    kz_a1_Wind_TurbulenceFrequency = kz_paramFloat(b + 5u);
    kz_a1_Wind_GustAmplitude = kz_paramFloat(b + 6u);
    kz_a1_Wind_GustFrequency = kz_paramFloat(b + 7u);
}
void kz_a1_loadStep(uint d) {
    kz_a1_windUp = vec3(uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 0u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 1u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 2u)));
    kz_a1_windVelocity = vec3(uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 3u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 4u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 5u)));
    kz_a1_windDrift = vec3(uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 6u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 7u)), uintBitsToFloat(kz_scheduleWord(kz_derivedWords + d + 8u)));
}
void kz_a1_storeStep(uint d) {
    kz_setScheduleWord(kz_derivedWords + d + 0u, floatBitsToUint(kz_a1_windUp[0]));
    kz_setScheduleWord(kz_derivedWords + d + 1u, floatBitsToUint(kz_a1_windUp[1]));
    kz_setScheduleWord(kz_derivedWords + d + 2u, floatBitsToUint(kz_a1_windUp[2]));
    kz_setScheduleWord(kz_derivedWords + d + 3u, floatBitsToUint(kz_a1_windVelocity[0]));
    kz_setScheduleWord(kz_derivedWords + d + 4u, floatBitsToUint(kz_a1_windVelocity[1]));
    kz_setScheduleWord(kz_derivedWords + d + 5u, floatBitsToUint(kz_a1_windVelocity[2]));
    kz_setScheduleWord(kz_derivedWords + d + 6u, floatBitsToUint(kz_a1_windDrift[0]));
    kz_setScheduleWord(kz_derivedWords + d + 7u, floatBitsToUint(kz_a1_windDrift[1]));
    kz_setScheduleWord(kz_derivedWords + d + 8u, floatBitsToUint(kz_a1_windDrift[2]));
}
// -- <parameters of shaders/Collider_Plane.glsl> from line 1
mat4 kz_c0_kz_colliderInverse;
mat3 kz_c0_kz_colliderNormal;
float kz_c0_Collider_Bounce;
float kz_c0_Collider_Friction;
bool kz_c0_Collider_KeepInside;
bool kz_c0_Collider_KillOnHit;
// -- shaders/Particles/collider_stage.glsl (text left out)
// -- shaders/Collider_Plane.glsl (text left out)
// -- <generated: parameters of shaders/Collider_Plane.glsl> from line 1
void kz_c0_load(uint b) {
    kz_c0_kz_colliderInverse = kz_paramMat4(b + 0u);
    kz_c0_kz_colliderNormal = kz_paramMat3(b + 16u);
    kz_c0_Collider_Bounce = kz_paramFloat(b + 25u);
    kz_c0_Collider_Friction = kz_paramFloat(b + 26u);
    kz_c0_Collider_KeepInside = kz_paramBool(b + 27u);
    kz_c0_Collider_KillOnHit = kz_paramBool(b + 28u);
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
// -- <generated: 'Fountain' step program AFFECTORS> from line 1
    if (kz_param(0u) != 0u) {    // Fountain/Gravity
        kz_affectorTransform = kz_paramMat4(1u);
        kz_a0_load(0u + 17u);
        kz_a0_affectParticle(kz_self);
    }
    if (kz_param(17u) != 0u) {    // Fountain/Wind
        kz_affectorTransform = kz_paramMat4(18u);
        kz_a1_load(17u + 17u);
        kz_a1_loadStep(0u);
        kz_a1_affectParticle(kz_self);
    }
// -- shaders/Particles/stage_step_main.glsl from line 14
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
// -- <generated: 'Fountain' step program COLLIDERS> from line 1
    if (kz_param(42u) != 0u) {    // Fountain/Floor
        kz_c0_load(43u);
        if (kz_c0_sweep(a, b, s, m) && s < t) {
            t = s;
            n = m;
            r = kz_c0_response();
            found = true;
        }
    }
// -- shaders/Particles/stage_step_main.glsl from line 25
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

}
// 7. the emitter's GenerateEventsMaterial
void kz_events() {

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
