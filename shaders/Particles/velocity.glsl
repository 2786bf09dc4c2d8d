// Velocity-aware affectors (Drag, Wind, VelocityClamp, the NeL forces) act on the velocity
// the integrator (kz_integrate, Particles/stage_step.glsl) carries forward, with h = kz_dt * timeScale:
//   Euler, and Verlet's first step: the stored velocity v;   v_next = v + phi a h
//   Verlet after that: the chord u = (x - x_prev) / h;        u_next = u + phi a h
// and Verlet reports v_next = u + (1 + kappa) phi a h. phi and kappa come from the step's
// damping (Particles/damping.glsl); undamped phi = 1, kappa = 1/2 (u + 3/2 a h).
#include "Particles/damping.glsl"

float particleStep(uint i) {
    return kz_dt * getParticleTimeScale(i);
}

bool integratesChord(uint i) {
    return kz_verlet && (getParticleFlags(i) & FLAG_BORN) == 0u;
}

// The velocity that the acceleration accumulator changes by (phi) a h this step, and that
// velocity-dependent forces are evaluated at.
vec3 integratorVelocity(uint i) {
    float h = particleStep(i);
    if (integratesChord(i) && h > 0.0) {
        return (getParticlePosition(i) - getParticlePreviousPosition(i)) / h;
    }
    return getParticleVelocity(i);
}

// How much the reported velocity changes per m/s^2 added to the accumulator now: h phi
// (Euler, Verlet's first step) or h phi (1 + kappa) (Verlet's chord).
float accumulatorGain(uint i) {
    float h = particleStep(i);
    float phi, r, kappa;
    dampingFactors(getParticleDamping(i) * h, phi, r, kappa);
    return h * phi * (integratesChord(i) ? 1.0 + kappa : 1.0);
}

// The velocity the particle will have after this step's integration, given what the
// accumulator holds now (and the damping declared so far).
vec3 integratedVelocity(uint i) {
    return integratorVelocity(i) + getParticleAcceleration(i) * accumulatorGain(i);
}

// Changes the accumulator so that integration produces velocity `target`. A particle that
// does not advance this step (TimeDilation 0) gets the velocity set directly.
void aimParticleVelocity(uint i, vec3 target) {
    float gain = accumulatorGain(i);
    if (gain <= 0.0) {
        setParticleVelocity(i, target);
        return;
    }
    addParticleAcceleration(i, (target - integratedVelocity(i)) / gain);
}

// Linear drag toward the velocity of a medium, a = rate (medium - v), resolved exactly by
// the integrator: the raw acceleration at the integrator's velocity goes into the
// accumulator and `rate` is declared as damping (addParticleDamping), so the particle relaxes
// as v = v_t + (v0 - v_t) exp(-rate t) toward the terminal velocity v_t = medium + (the
// step's other accelerations) / (rate), whatever rate h is and in whatever tree order the
// other forces come. Mass-independent; addDragForce is the mass-aware one.
void addDragAcceleration(uint i, float rate, vec3 medium) {
    if (rate <= 0.0) {
        return;
    }
    addParticleAcceleration(i, rate * (medium - integratorVelocity(i)));
    addParticleDamping(i, rate);
}

// A drag force F = k (medium - v), divided by the mass like addParticleForce: rate k / m.
void addDragForce(uint i, float k, vec3 medium) {
    addDragAcceleration(i, k / max(getParticleMass(i), 1e-6), medium);
}
