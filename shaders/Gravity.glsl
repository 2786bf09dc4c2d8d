// Gravity: -9.8 m/s^2 along world -Y, mass-independent. No uniforms (use Accelerate for a
// configurable one). In a local-space system the world direction is turned into it.

void affectParticle(uint index) {
    addParticleAcceleration(index, worldToSimulationDirection(vec3(0.0, -9.8, 0.0)));
}
