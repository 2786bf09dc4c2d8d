// Wind: a force toward the wind's velocity, F = DragFactor (wind - v), handed to
// addParticleForce (mass-aware: smoke of mass 1 snaps to the wind, water of mass 10 drifts
// toward it; the time constant is m / DragFactor). A linear drag resolved exactly by the
// integrator like Drag: it settles at the wind plus (m / DragFactor) times the other forces.
// The wind blows along the affector's local +Z at WindSpeed km/h, and is
//   * faded in with height (world up, from the affector's origin) by a smoothstep from
//     GroundLevel to FullWindHeight; no ramp when FullWindHeight <= GroundLevel. Below the
//     ground the air is still, so there Wind drags particles toward rest;
//   * scaled by gusts, 1 + GustAmplitude n(GustFrequency t), n a smooth 1D noise in
//     [-1, 1] (about one gust per 1 / GustFrequency s), the same everywhere at one time (a
//     gust that travelled with the wind would never reach the particles it carries), never
//     below 0: gusts do not reverse the wind;
//   * stirred by a divergence-free turbulent velocity of RMS TurbulenceStrength m/s and
//     eddies of 1 / TurbulenceFrequency m, carried along by the mean wind.
#include "Particles/noise.glsl"
#include "Particles/velocity.glsl"

uniform float Wind_WindSpeed = 10.0;
uniform float Wind_DragFactor = 1.0;
uniform float Wind_GroundLevel = 0.0;
uniform float Wind_FullWindHeight = 0.0;
uniform float Wind_TurbulenceStrength = 0.0;
uniform float Wind_TurbulenceFrequency = 1.0;
uniform float Wind_GustAmplitude = 0.0;
uniform float Wind_GustFrequency = 0.5;

#define KMH_TO_MS (1.0 / 3.6)
#define GUST_SEED 0x47555354u           // 'GUST'
#define TURBULENCE_SEED 0x5455524Bu     // 'TURK'

// Once per step (the count pass runs it, before any particle): what is the same for every
// particle of the step, kept for affectParticle.
KZ_PER_STEP vec3 windUp;            // world up in simulation space, unit
KZ_PER_STEP vec3 windVelocity;      // the mean wind with this step's gust, m/s
KZ_PER_STEP vec3 windDrift;         // how far the mean wind has carried the turbulence, m

void prepareStep() {
    mat4 m = getAffectorTransform();
    vec3 axis = mat3(m) * vec3(0.0, 0.0, 1.0);
    axis = dot(axis, axis) > 0.0 ? normalize(axis) : vec3(0.0, 0.0, 1.0);
    float t = getTime();
    float speed = Wind_WindSpeed * KMH_TO_MS;
    float gust = max(0.0, 1.0 + Wind_GustAmplitude * gradientNoise1(Wind_GustFrequency * t, GUST_SEED));
    windUp = normalize(worldToSimulationDirection(vec3(0.0, 1.0, 0.0)));
    windVelocity = axis * speed * gust;
    windDrift = axis * speed * t;
}

void affectParticle(uint index) {
    vec3 offset = getParticlePosition(index) - getAffectorPosition();
    float ramp = Wind_FullWindHeight > Wind_GroundLevel
               ? smoothstep(Wind_GroundLevel, Wind_FullWindHeight, dot(offset, windUp)) : 1.0;
    vec3 wind = windVelocity;
    if (Wind_TurbulenceStrength > 0.0) {
        vec3 q = (offset - windDrift) * Wind_TurbulenceFrequency;
        // an eddy of size 1/F turning at S m/s turns over in 1 / (S F) seconds
        float evolve = getTime() * Wind_TurbulenceStrength * Wind_TurbulenceFrequency;
        wind += Wind_TurbulenceStrength * curlNoise(q, evolve, TURBULENCE_SEED);
    }
    addDragForce(index, max(Wind_DragFactor, 0.0), wind * ramp);
}
