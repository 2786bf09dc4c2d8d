// Accelerate: a constant, mass-independent acceleration of signed Magnitude along Direction,
// given in the affector's local frame (zero -> local +Y), within Affector.Radius with
// sphereFalloff (Radius 0: everywhere).

uniform vec3  Accelerate_Direction = vec3(0.0, 1.0, 0.0);
uniform float Accelerate_Magnitude = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

KZ_PER_STEP vec3 accelerateAxis;    // Direction in simulation space, unit (once per step)

void prepareStep() {
    mat4 m = getAffectorTransform();
    vec3 d = dot(Accelerate_Direction, Accelerate_Direction) > 0.0 ? Accelerate_Direction : vec3(0.0, 1.0, 0.0);
    vec3 axis = mat3(m) * d;
    accelerateAxis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 1.0, 0.0);
}

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float strength = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, accelerateAxis * Accelerate_Magnitude * strength);
}
