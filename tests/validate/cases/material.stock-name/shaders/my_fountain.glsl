// A fountain of its own: straight up at 5 m/s.
void emitParticle(uint index) {
    setParticleVelocity(index, vec3(0.0, 5.0, 0.0));
}
