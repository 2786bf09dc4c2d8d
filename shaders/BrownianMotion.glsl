// BrownianMotion (NeL's Brownian force): the random walk of a particle jostled by the
// molecules of the air, the Langevin equation dv = -v dt / tau + sqrt(2 D) / tau dW. Each
// step every particle gets an independent Gaussian kick (a white-noise acceleration of
// variance 2 D / (tau^2 h) per axis), and the friction that balances it, rate 1 / tau toward
// rest, resolved exactly by the integrator. Its displacement then spreads with
//     <|x(t) - x(0)|^2> = 6 D t   (2 D t per axis) for t >> tau,
// D = Diffusion (m^2/s) exactly at any step; tau = Relaxation (s) is how long a particle
// keeps its direction (small: jittery, large: meandering). Mass-independent: D is the
// artist's number (for a real particle D = kT / (m / tau)). The kicks are counter-based,
// hash(particle, step, affector): a seed replays the same walks, particles walk
// independently, and two BrownianMotion affectors kick independently unless they coincide.
// The friction is part of the motion: under Gravity a particle sinks at g tau.
#include "Particles/velocity.glsl"

uniform float BrownianMotion_Diffusion = 0.05;
uniform float BrownianMotion_Relaxation = 0.1;

#define BROWNIAN_SEED 0x42524F57u       // 'BROW'

// Two independent standard normal deviates from two hashes (Box-Muller; 1 - u keeps log finite).
vec2 gaussianPair(uint a, uint b) {
    float radius = sqrt(-2.0 * log(1.0 - unitFloat(a)));
    float angle = 6.28318530718 * unitFloat(b);
    return radius * vec2(cos(angle), sin(angle));
}

void affectParticle(uint index) {
    float h = particleStep(index);
    float diffusion = max(BrownianMotion_Diffusion, 0.0);
    if (h <= 0.0 || diffusion <= 0.0) {
        return;
    }
    float rate = 1.0 / max(BrownianMotion_Relaxation, 1e-4);
    vec3 origin = getAffectorPosition();
    uint zone = hash4(BROWNIAN_SEED ^ floatBitsToUint(diffusion), floatBitsToUint(origin.x),
                      floatBitsToUint(origin.y), floatBitsToUint(origin.z));
    uint key = hash4(zone, getParticleHash(index), kz_step, 0u);
    vec2 g1 = gaussianPair(hash2(key, 1u), hash2(key, 2u));
    vec2 g2 = gaussianPair(hash2(key, 3u), hash2(key, 4u));
    vec3 kick = vec3(g1, g2.x) * (rate * sqrt(2.0 * diffusion / h));
    addParticleAcceleration(index, kick);
    addDragAcceleration(index, rate, vec3(0.0));
}
