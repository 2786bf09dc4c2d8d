// Directional: a uniform, mass-independent push of DirectionalStrength m/s^2 along the
// affector's local +Z (turned by the node's world rotation), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere).

uniform float Directional_DirectionalStrength = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    mat4 m = getAffectorTransform();
    vec3 axis = mat3(m) * vec3(0.0, 0.0, 1.0);
    axis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 0.0, 1.0);
    float distance = length(getParticlePosition(index) - m[3].xyz);
    float strength = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, axis * Directional_DirectionalStrength * strength);
}
