// TimeDilation: scales the particle's step, dt *= mix(1, DilationFactor, sphereFalloff(...)):
// DilationFactor at the centre, unchanged at the sphere surface (Radius 0: everywhere).
// 0 freezes (no motion, no ageing), above 1 speeds up. Several zones multiply. Affectors
// that depend on the step (Drag, Wind, VelocityClamp) see the scale of the zones above them.

uniform float TimeDilation_DilationFactor = 0.5;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    float distance = length(getParticlePosition(index) - getAffectorPosition());
    float s = sphereFalloff(distance, Affector_Radius, Affector_FalloffExponent);
    setParticleTimeScale(index, getParticleTimeScale(index) * mix(1.0, max(TimeDilation_DilationFactor, 0.0), s));
}
