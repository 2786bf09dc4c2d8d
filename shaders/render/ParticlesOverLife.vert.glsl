#version 430
// ParticlesOverLife (Kanzi Particles), vertex stage: colour, scale and opacity from their
// Start to their End over the particle's normalised age (render/over_life.glsl).
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
