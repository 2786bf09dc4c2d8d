// Affector slot (AffectorMaterial, SelfAffectMaterial): one invocation per pool slot; the
// material's function runs for live particles only. The material defines
//     void affectParticle(uint index);
#include "Particles/common.glsl"
#include "Particles/affector_falloff.glsl"

void affectParticle(uint index);

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= kz_capacity || (particles[i].flags & FLAG_ALIVE) == 0u) {
        return;
    }
    affectParticle(i);
}
