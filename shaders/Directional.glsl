// Directional: a uniform, mass-independent push of DirectionalStrength m/s^2 along the
// affector's local +Z (turned by the node's world rotation), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere).

uniform float Directional_DirectionalStrength = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

KZ_PER_STEP vec3 directionalAxis;   // the node's local +Z in simulation space, unit (once per step)

void prepareStep() {
    vec3 axis = mat3(getAffectorTransform()) * vec3(0.0, 0.0, 1.0);
    directionalAxis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 0.0, 1.0);
}

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float strength = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, directionalAxis * Directional_DirectionalStrength * strength);
}
