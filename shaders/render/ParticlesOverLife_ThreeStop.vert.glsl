#version 430
// ParticlesOverLife_ThreeStop, vertex stage: ParticlesOverLife with a third colour,
// ColorStart -> ColorMid at ColorMidPoint -> ColorEnd.
#define OVER_LIFE_THREE_STOP 1
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
