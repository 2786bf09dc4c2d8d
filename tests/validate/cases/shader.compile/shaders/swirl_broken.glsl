// A custom affector with two mistakes: an undeclared name and a missing semicolon.
void affectParticle(uint index) {
    addParticleAcceleration(index, vec3(0.0, strength, 0.0));
}
