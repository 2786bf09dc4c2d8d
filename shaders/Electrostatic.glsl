// Electrostatic (NeL's electrostatic force): Coulomb's law from a charge at the affector's
// origin, a force (mass-aware), softened like CentralGravity so that it stays finite there:
//     F = Strength q (x - o) / (r^2 + Softening^2)^(3/2),   r = |x - o|
// Strength is k Q in N m^2/C (the force in newtons on a unit charge at 1 m), q the particle's
// charge, Charge +- ChargeVariance drawn once per particle from its hash (the draw that
// MagneticField uses). Like charges repel (Strength q > 0 pushes away), unlike ones attract;
// a ChargeVariance larger than Charge mixes both. Within Affector.Radius it fades with
// sphereFalloff.

uniform float Electrostatic_Strength = 1.0;
uniform float Electrostatic_Softening = 0.1;
uniform float Electrostatic_Charge = 1.0;
uniform float Electrostatic_ChargeVariance = 0.0;
uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

#define CHARGE_DRAW 0x43485247u     // 'CHRG', as in MagneticField

void affectParticle(uint index) {
    vec3 away = getParticlePosition(index) - getAffectorPosition();
    float softening = max(Electrostatic_Softening, 0.0);
    float d2 = dot(away, away) + softening * softening;
    if (d2 <= 0.0) {
        return;
    }
    float charge = varied(Electrostatic_Charge, Electrostatic_ChargeVariance, getParticleRandom(index, CHARGE_DRAW));
    float strength = Electrostatic_Strength * charge * sphereFalloff(length(away), Affector_Radius, Affector_FalloffExponent);
    addParticleForce(index, away * (strength / (d2 * sqrt(d2))));
}
