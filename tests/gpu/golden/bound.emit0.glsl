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
// -- shaders/Particles/stage_emit.glsl (text left out)
// -- shaders/Particles/affector_falloff.glsl (text left out)
// -- <parameters of shaders/Emitter_Point.glsl> from line 1
float kz_e0_Emission_Lifetime;
float kz_e0_Emission_LifetimeVariance;
vec3 kz_e0_Emission_Scale;
vec3 kz_e0_Emission_ScaleVariance;
float kz_e0_Emission_InitialVelocityStrength;
float kz_e0_Emission_InitialVelocityStrengthVariance;
vec3 kz_e0_Emission_InitialVelocityDirection;
float kz_e0_Emission_InitialVelocityInnerAngle;
float kz_e0_Emission_InitialVelocityOuterAngle;
bool kz_e0_Emission_InitialVelocityOrientToNormal;
vec3 kz_e0_Emission_InitialRotation;
vec3 kz_e0_Emission_InitialRotationVariance;
vec3 kz_e0_Emission_InitialAngularVelocity;
vec3 kz_e0_Emission_InitialAngularVelocityVariance;
float kz_e0_Emission_Density;
bool kz_e0_Emission_Volume;
// -- shaders/Emitter_Point.glsl (text left out)
// -- shaders/Particles/emitter_common.glsl (text left out)
// -- <generated: parameters of shaders/Emitter_Point.glsl> from line 1
void kz_e0_load(uint b) {
    kz_e0_Emission_Lifetime = kz_paramFloat(b + 0u);
    kz_e0_Emission_LifetimeVariance = kz_paramFloat(b + 1u);
    kz_e0_Emission_Scale = kz_paramVec3(b + 2u);
    kz_e0_Emission_ScaleVariance = kz_paramVec3(b + 5u);
    kz_e0_Emission_InitialVelocityStrength = kz_paramFloat(b + 8u);
    kz_e0_Emission_InitialVelocityStrengthVariance = kz_paramFloat(b + 9u);
    kz_e0_Emission_InitialVelocityDirection = kz_paramVec3(b + 10u);
    kz_e0_Emission_InitialVelocityInnerAngle = kz_paramFloat(b + 13u);
    kz_e0_Emission_InitialVelocityOuterAngle = kz_paramFloat(b + 14u);
    kz_e0_Emission_InitialVelocityOrientToNormal = kz_paramBool(b + 15u);
    kz_e0_Emission_InitialRotation = kz_paramVec3(b + 16u);
    kz_e0_Emission_InitialRotationVariance = kz_paramVec3(b + 19u);
    kz_e0_Emission_InitialAngularVelocity = kz_paramVec3(b + 22u);
    kz_e0_Emission_InitialAngularVelocityVariance = kz_paramVec3(b + 25u);
    kz_e0_Emission_Density = kz_paramFloat(b + 28u);
    kz_e0_Emission_Volume = kz_paramBool(b + 29u);
}
// -- shaders/Particles/stage_emit_main.glsl from line 1
// The emit program's main (docs/player.md, The frame, stage 1; Particles/stage_emit.glsl):
// one invocation per new particle of the system's emitters of level KZ_LEVEL. The generator
// (kzplayer.gpu.generate) fills EMISSION with the switch over the level's
// EmissionMaterials, and HISTORY when an emitter of the system keeps a position history
// (its program then includes Particles/history.glsl).

void main() {
    uint j = gl_GlobalInvocationID.x;      // the j-th new particle of the system
    if (j >= kz_scheduleWord(kz_planEmit + kz_emitterCount)) {
        return;
    }
    uint e = kz_planEmitter(kz_planEmit, j);
    uint n = j - kz_scheduleWord(kz_planEmit + e);
    kz_bindEmitter(e);
    state = kz_loadState(e);
    uint local = kz_slot(kz_freeSlots + kz_first + state.emitBase - 1u - n);   // popped in the count pass
    uint i = kz_first + local;
    kz_beginSpawn(i, n);
#if KZ_LEVEL > 0
    kz_spawnFrame(n);            // a subemitter at its event, in its emission basis
#endif
// -- <generated: 'Shells' emit program EMISSION> from line 1
    switch (kz_table(kz_e, E_EMISSION)) {
    case 1u: {
        kz_e0_load(kz_table(kz_e, E_EMISSION_PARAMS) + 0u);
        kz_e0_emitParticle(kz_self);
        break;
    }
    }
// -- shaders/Particles/stage_emit_main.glsl from line 23
    kz_endSpawn();

#if KZ_LEVEL == 0
    kz_setSlot(kz_first + kz_word(kz_liveWord(e, 0u)) + n, local);   // walked by this step's kernel
#else
    kz_enterSystemSpace();  // (the record is stored; a host death is told in the system's space)
    kz_deathTest();         // born at the end of the step: a child with lifetime 0 dies in it
#endif
}
