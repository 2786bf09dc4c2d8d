// PointAttractor: a mass-independent pull of Strength m/s^2 toward the affector's origin
// (negative pushes away), within Affector.Radius with sphereFalloff (Radius 0: the same
// pull at any distance). A particle exactly at the origin feels nothing.

uniform float PointAttractor_Strength = 1.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    vec3 toward = getAffectorPosition() - getParticlePosition(index);
    float distance = length(toward);
    if (distance <= 0.0) {
        return;
    }
    float strength = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, toward / distance * PointAttractor_Strength * strength);
}
