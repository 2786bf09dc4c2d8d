// A custom affector that pushes particles up by Swirl.Strength (the uniform Swirl_Strength).
uniform float Swirl_Strength;

void affectParticle(uint index) {
    addParticleAcceleration(index, vec3(0.0, Swirl_Strength, 0.0));
}
