// CentralGravity (NeL's central gravity): a mass-independent pull toward the affector's
// origin that falls with the inverse square of the distance, softened by a length so that
// it stays finite at the centre (Plummer):
//     a = Strength (o - x) / (r^2 + Softening^2)^(3/2),   r = |x - o|
// Strength is G M in m^3/s^2: the pull in m/s^2 at 1 m (far from the softening). The field
// is conservative, potential -Strength / sqrt(r^2 + Softening^2): orbits keep their energy
// to the integrator's error. Within Affector.Radius it fades with sphereFalloff (still a
// central, conservative field). Negative Strength repels.

uniform float CentralGravity_Strength = 1.0;
uniform float CentralGravity_Softening = 0.1;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

void affectParticle(uint index) {
    vec3 toward = getAffectorPosition() - getParticlePosition(index);
    float softening = max(CentralGravity_Softening, 0.0);
    float d2 = dot(toward, toward) + softening * softening;
    if (d2 <= 0.0) {
        return;                         // at the centre of an unsoftened field: no direction
    }
    float strength = CentralGravity_Strength * sphereFalloff(length(toward), Affector_Radius, Affector_FalloffExponent);
    addParticleAcceleration(index, toward * (strength / (d2 * sqrt(d2))));
}
