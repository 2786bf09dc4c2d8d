// KillZone: kills a particle in a step with probability sphereFalloff(d, Radius, exponent):
// certain at the centre, fading to none at the sphere surface (Radius 0: everything dies).
// The draw is counter-based, hash(particle, step, zone), so a seed replays the same deaths,
// each step draws afresh, and two zones draw independently (a zone is told apart by its
// position and radius: two identical zones at one spot act as one).

uniform float Affector_Radius = 0.0;
uniform float Affector_FalloffExponent = 0.0;

#define KILL_SEED 0x4B494C4Cu           // 'KILL'

void affectParticle(uint index) {
    vec3 centre = getAffectorPosition();
    float p = sphereFalloff(length(getParticlePosition(index) - centre), Affector_Radius, Affector_FalloffExponent);
    if (p <= 0.0) {
        return;
    }
    uint zone = hash4(KILL_SEED ^ floatBitsToUint(Affector_Radius), floatBitsToUint(centre.x),
                      floatBitsToUint(centre.y), floatBitsToUint(centre.z));
    if (unitFloat(hash4(zone, getParticleHash(index), kz_step, 0u)) < p) {
        killParticle(index);
    }
}
