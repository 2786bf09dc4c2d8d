#version 430
// ColorOverLife_ImageUV, vertex stage: colour, scale and opacity over the particle's life
// (render/over_life.glsl); Kanzi Particles calls its base ParticlesOverLife.
// Particle.Texture is mapped over the billboard.
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
