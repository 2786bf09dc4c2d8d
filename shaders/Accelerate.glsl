// Accelerate: a constant, mass-independent acceleration of signed Magnitude along Direction,
// given in the affector's local frame (zero -> local +Y), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere).

uniform vec3  Accelerate_Direction = vec3(0.0, 1.0, 0.0);
uniform float Accelerate_Magnitude = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    mat4 m = getAffectorTransform();
    vec3 d = dot(Accelerate_Direction, Accelerate_Direction) > 0.0 ? Accelerate_Direction : vec3(0.0, 1.0, 0.0);
    vec3 axis = mat3(m) * d;
    axis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 1.0, 0.0);
    float distance = length(getParticlePosition(index) - m[3].xyz);
    float strength = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, axis * Accelerate_Magnitude * strength);
}
