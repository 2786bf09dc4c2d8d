// Vortex (NeL's cylindrical vortex, the "cylindrical attractor"): air that swirls around the
// affector's local +Y axis, drawn in toward it and lifted along it, dragging particles along
// like Wind does (a force, mass-aware: time constant m / DragFactor; heavy particles lag and
// are flung outward, light ones follow the swirl). The air's velocity at distance d from the
// axis, with t the tangent (counter-clockwise seen from the axis tip), r the outward radial
// direction and a the axis:
//     w = core(d) (TangentialSpeed t - InflowSpeed r) + Updraft a,
//     core(d) = min(d / CoreRadius, 1)   (1 when CoreRadius = 0)
// so inside the core the air turns as a solid body and nothing is singular on the axis. The
// drag, DragFactor (w - v), fades with sphereFalloff of the distance from the axis across
// Affector.Radius (a cylinder; 0: everywhere); it is a linear drag, resolved exactly by the
// integrator, so a particle settles at w plus its terminal drift under the other forces.
// NeL damps the radial and tangential speeds with two viscosities and leaves the axial one
// free; one drag toward a moving air composes exactly with every other force instead.
#include "Particles/velocity.glsl"

uniform float Vortex_TangentialSpeed = 3.0;
uniform float Vortex_InflowSpeed = 0.0;
uniform float Vortex_Updraft = 0.0;
uniform float Vortex_CoreRadius = 0.2;
uniform float Vortex_DragFactor = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    mat4 m = getAffectorTransform();
    vec3 axis = mat3(m) * vec3(0.0, 1.0, 0.0);
    axis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 1.0, 0.0);
    vec3 offset = getParticlePosition(index) - m[3].xyz;
    vec3 radial = offset - axis * dot(offset, axis);
    float d = length(radial);
    float k = max(Vortex_DragFactor, 0.0) * sphereFalloff(d, Affector_Radius, Affector_FalloffExponent);
    if (k <= 0.0) {
        return;
    }
    vec3 air = axis * Vortex_Updraft;
    if (d > 0.0) {
        vec3 outward = radial / d;
        float core = Vortex_CoreRadius > 0.0 ? min(d / Vortex_CoreRadius, 1.0) : 1.0;
        air += core * (Vortex_TangentialSpeed * cross(axis, outward) - Vortex_InflowSpeed * outward);
    }
    addDragForce(index, k, air);
}
