// A gravity of its own: Heavy.Pull metres per second squared, down.
uniform float Heavy_Pull;

void affectParticle(uint index) {
    addParticleAcceleration(index, vec3(0.0, -Heavy_Pull, 0.0));
}
