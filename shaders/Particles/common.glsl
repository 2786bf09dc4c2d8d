// Everything a particle compute shader sees: the storage blocks, the frame uniforms, the
// random hash and the accessors. Included first by every slot's main (Particles/main_*.glsl).
#include "Particles/particle_data.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = BINDING_PARTICLES) buffer ParticleBlock { Particle particles[]; };
layout(std430, binding = BINDING_FREE_LIST) buffer FreeListBlock { uint freeSlots[]; };
layout(std430, binding = BINDING_EMITTER_STATE) buffer EmitterStateBlock { EmitterState state; };
// Per slot, this step's linear damping rate (1/s): zeroed by the reset pass, added to by
// affectors (addParticleDamping), resolved exactly by the integrator (Particles/damping.glsl).
// It lives in the kill passes' scratch buffer (Particles/kill_groups.glsl), which is dead
// from the reset pass to the integration (stages 2-5) and is sized for one word per slot:
// GL 4.3 promises 8 storage binding points, all taken.
layout(std430, binding = BINDING_KILL_GROUPS) buffer DampingBlock { float particleDamping[]; };

uniform float kz_dt;                 // seconds in this fixed step
uniform float kz_time;               // system time at the start of this step
uniform uint  kz_step;               // steps the system has run before this one
uniform uint  kz_seed;               // Emission.Seed of the emitter (or --seed)
uniform uint  kz_emitter;            // emitter number in tree order
uniform uint  kz_capacity;           // pool slots of this emitter
uniform mat4  kz_emitterTransform = mat4(1.0);   // emitter -> simulation space
uniform mat4  kz_affectorTransform = mat4(1.0);  // affector -> simulation space
uniform mat3  kz_worldToSimulation = mat3(1.0);  // world directions -> simulation space
uniform bool  kz_verlet = false;                 // the system integrates with Verlet (else Euler)

#include "Particles/random.glsl"
#include "Particles/accessors.glsl"
