#version 430
// ParticlesColorOverLife, vertex stage: colour, scale and opacity over the particle's life
// (render/over_life.glsl); Kanzi Particles calls this material ParticlesOverLife.
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
