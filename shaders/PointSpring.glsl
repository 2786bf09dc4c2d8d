// PointSpring (NeL's spring): Hooke's law toward the affector's origin, a force (mass-aware:
// a particle of mass m oscillates with period 2 pi sqrt(m / Stiffness)),
//     F = -Stiffness (|d| - RestLength) d / |d| - Damping v,   d = x - o
// RestLength 0 pulls to the point itself (F = -Stiffness d); a positive RestLength holds the
// particles on a sphere of that radius around it. Damping (kg/s) is a linear drag toward
// rest, resolved exactly by the integrator (Particles/velocity.glsl, addDragForce), so a
// stiffly damped spring settles without overshoot at any step. The stiffness itself is
// explicit: stable while sqrt(Stiffness / m) h < 2 (Stiffness / m < 14,400 /s^2 at 60 Hz).
#include "Particles/velocity.glsl"

uniform float PointSpring_Stiffness = 10.0;
uniform float PointSpring_Damping = 0.0;
uniform float PointSpring_RestLength = 0.0;

void affectParticle(uint index) {
    vec3 d = getParticlePosition(index) - getAffectorPosition();
    float rest = max(PointSpring_RestLength, 0.0);
    vec3 pull = -PointSpring_Stiffness * d;
    if (rest > 0.0) {
        float length_ = length(d);
        pull = length_ > 0.0 ? -PointSpring_Stiffness * (length_ - rest) * (d / length_) : vec3(0.0);
    }
    addParticleForce(index, pull);
    addDragForce(index, max(PointSpring_Damping, 0.0), vec3(0.0));
}
