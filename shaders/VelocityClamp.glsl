// VelocityClamp: caps speed at MaxSpeed. It caps the velocity the integrator is about to
// produce from everything the affectors above it have added (Particles/velocity.glsl): it
// adds the acceleration that brings the step's outcome back onto the sphere of radius
// MaxSpeed, keeping its direction. Affectors below it are not capped: put it last.
// Affector.Radius is an in/out gate (no falloff): inside (d < Radius) or Radius 0, capped.
#include "Particles/velocity.glsl"

uniform float VelocityClamp_MaxSpeed = 10.0;
uniform float Affector_Radius = 0.0;

void affectParticle(uint index) {
    if (Affector_Radius > 0.0 && length(getParticlePosition(index) - getAffectorPosition()) >= Affector_Radius) {
        return;
    }
    float limit = max(VelocityClamp_MaxSpeed, 0.0);
    vec3 v = integratedVelocity(index);
    float speed = length(v);
    if (speed > limit) {
        aimParticleVelocity(index, v * (limit / speed));
    }
}
