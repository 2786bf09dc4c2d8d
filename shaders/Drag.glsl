// Drag: resistance proportional to velocity, F = -DragCoefficient v, handed to
// addParticleForce (mass-aware: a heavy particle slows less), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere). A linear drag, resolved exactly by the integrator
// with the step's other forces (Particles/velocity.glsl, damping.glsl): a particle slows as
// v_t + (v0 - v_t) exp(-k t / m) for any k, h and m, to the terminal velocity
// v_t = (m / k) a_other (g m / k under Gravity), whatever the tree order.
#include "Particles/velocity.glsl"

uniform float Drag_DragCoefficient = 0.1;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float k = max(Drag_DragCoefficient, 0.0) * sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addDragForce(index, k, vec3(0.0));
}
