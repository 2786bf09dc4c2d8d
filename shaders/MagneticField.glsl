// MagneticField (NeL's magnetic force): the Lorentz force F = q v x B on a charged particle,
// B of FieldStrength tesla along the affector's local +Y (rotate the node to turn it), q the
// particle's charge: Charge +- ChargeVariance, drawn once per particle from its hash (the same
// draw as Electrostatic's, so a particle is equally charged for both when they agree on
// Charge and ChargeVariance). Divided by the mass like addParticleForce: a particle turns at
// the cyclotron rate w = q B / m, on a circle of radius m v / (q B) (the velocity across B),
// once every 2 pi m / (q B) seconds; the velocity along B is untouched.
// The force does no work, so the step applies it as the exact rotation of the velocity the
// integrator steps from by the angle w h about B: the speed is kept to round-off and the
// period is exact at any step (a plain v x B step would spiral outward by (w h)^2 a step).
#include "Particles/velocity.glsl"

uniform float MagneticField_FieldStrength = 1.0;
uniform float MagneticField_Charge = 1.0;
uniform float MagneticField_ChargeVariance = 0.0;

#define CHARGE_DRAW 0x43485247u     // 'CHRG': getParticleRandom key of the particle's charge

void affectParticle(uint index) {
    float h = particleStep(index);
    vec3 axis = mat3(getAffectorTransform()) * vec3(0.0, 1.0, 0.0);
    if (h <= 0.0 || dot(axis, axis) <= 0.0) {
        return;
    }
    axis = normalize(axis);
    float charge = varied(MagneticField_Charge, MagneticField_ChargeVariance, getParticleRandom(index, CHARGE_DRAW));
    float omega = charge * MagneticField_FieldStrength / max(getParticleMass(index), 1e-6);
    // dv/dt = -omega (axis x v): a rotation by -omega h about the axis (Rodrigues), written
    // as the change of v with cos - 1 = -2 sin^2(angle / 2): rounding cos near 1 would
    // change the speed by up to half an ulp of 1 a step
    vec3 v = integratorVelocity(index);
    float angle = -omega * h;
    float half_ = sin(0.5 * angle);
    vec3 across = v - axis * dot(axis, v);
    vec3 change = across * (-2.0 * half_ * half_) + cross(axis, v) * sin(angle);
    addParticleAcceleration(index, change / h);
}
