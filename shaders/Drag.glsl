// Drag: resistance proportional to velocity, F = -DragCoefficient v, handed to
// addParticleForce (mass-aware: a heavy particle slows less), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere). The force is averaged exactly over the step
// (Particles/velocity.glsl), so a particle slows as v0 exp(-k t / m) for any k, h and m.
#include "Particles/velocity.glsl"

uniform float Drag_DragCoefficient = 0.1;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float k = max(Drag_DragCoefficient, 0.0) * sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addDragForce(index, k, vec3(0.0));
}
