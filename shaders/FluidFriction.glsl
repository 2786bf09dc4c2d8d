// FluidFriction (NeL's fluid friction): the resistance of still air or water, linear and
// quadratic in the speed, a force (mass-aware):
//     F = -(Linear + Quadratic |v|) v
// Linear (kg/s) is Stokes' drag of slow, small particles, Quadratic (kg/m) the pressure drag
// of fast ones (1/2 rho C_d A). Both go through the integrator's exact damping (the quadratic
// term with its rate taken at the step's speed, Particles/velocity.glsl), so a falling
// particle settles at exactly the speed where Linear v + Quadratic v^2 = m g, at any step,
// and no step can reverse the motion. Within Affector.Radius it fades with sphereFalloff.
#include "Particles/velocity.glsl"

uniform float FluidFriction_Linear = 0.1;
uniform float FluidFriction_Quadratic = 0.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float s = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    float speed = length(integratorVelocity(index));
    float k = s * (max(FluidFriction_Linear, 0.0) + max(FluidFriction_Quadratic, 0.0) * speed);
    addDragForce(index, k, vec3(0.0));
}
