// Velocity-aware affectors (Drag, Wind, VelocityClamp) act on the velocity the integrator
// (Particles/pass_integrate.glsl) carries forward, with h = kz_dt * timeScale:
//   Euler, and Verlet's first step: the stored velocity v;   v_next = v + a h
//   Verlet after that: the chord u = (x - x_prev) / h;        u_next = u + a h
// and Verlet reports v_next = u + 3/2 a h (its chord plus a h / 2).

float particleStep(uint i) {
    return kz_dt * getParticleTimeScale(i);
}

bool integratesChord(uint i) {
    return kz_verlet && (getParticleFlags(i) & FLAG_BORN) == 0u;
}

// The velocity that the acceleration accumulator changes by a h this step.
vec3 integratorVelocity(uint i) {
    float h = particleStep(i);
    if (integratesChord(i) && h > 0.0) {
        return (getParticlePosition(i) - getParticlePreviousPosition(i)) / h;
    }
    return getParticleVelocity(i);
}

// The velocity the particle will have after this step's integration, given what the
// accumulator holds now.
vec3 integratedVelocity(uint i) {
    float h = particleStep(i);
    vec3 a = getParticleAcceleration(i);
    return integratorVelocity(i) + a * h * (integratesChord(i) ? 1.5 : 1.0);
}

// Changes the accumulator so that integration produces velocity `target`. A particle that
// does not advance this step (TimeDilation 0) gets the velocity set directly.
void aimParticleVelocity(uint i, vec3 target) {
    float h = particleStep(i);
    if (h <= 0.0) {
        setParticleVelocity(i, target);
        return;
    }
    vec3 change = target - integratedVelocity(i);
    addParticleAcceleration(i, change / (h * (integratesChord(i) ? 1.5 : 1.0)));
}

// Linear drag toward the velocity of a medium, F = k (medium - v), applied as its exact
// average over the step: the particle relaxes as v = medium + (v0 - medium) exp(-k t / m)
// whatever k h / m is. Explicit Euler of the raw force overshoots once k h / m > 1 and
// diverges past 2 (a scale-0.1 particle of Density 1 weighs 0.001: DragFactor 1 at 60 Hz
// is k h / m = 17). F = k (medium - v) (1 - exp(-x)) / x with x = k h / m, which is the raw
// force to first order in h, handed to addParticleForce like the raw one would be.
void addDragForce(uint i, float k, vec3 medium) {
    float h = particleStep(i);
    float m = max(getParticleMass(i), 1e-6);
    float x = k * h / m;
    if (k <= 0.0 || h <= 0.0) {
        return;
    }
    float average = x < 1e-3 ? 1.0 - x * (0.5 - x / 6.0) : (1.0 - exp(-x)) / x;
    addParticleForce(i, k * average * (medium - integratorVelocity(i)));
}
