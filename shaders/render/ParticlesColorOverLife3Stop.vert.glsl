#version 430
// ParticlesColorOverLife3Stop (Kanzi Particles 3.0's 3-stop ParticlesOverLife), vertex
// stage: colour, scale and opacity each pass through their Mid value at their MidPoint.
#define OVER_LIFE_THREE_STOP 1
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
