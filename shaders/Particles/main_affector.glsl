// Affector slot (AffectorMaterial, SelfAffectMaterial): one invocation per pool slot; the
// material's function runs for live particles only. The material defines
//     void affectParticle(uint index);
#include "Particles/common.glsl"
#include "Particles/affector_falloff.glsl"

void affectParticle(uint index);

void main() {
    uint i;
    if (!liveSlot(i)) {
        return;
    }
    affectParticle(i);
}
