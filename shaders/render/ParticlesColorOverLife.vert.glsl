#version 430
// ParticlesColorOverLife, vertex stage: drawn as ParticlesOverLife (the seed pages' name; the earlier
// ColorOverLife.StartColor / EndColor reach it as ColorStart / ColorEnd, aliases).
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/over_life.glsl"
#define KZ_STOCK_COLOR(i) kzOverLifeParticleColor(i)
#define KZ_STOCK_SCALE(i) kzOverLifeScale(getParticleNormalizedAge(i))
#include "render/stock_vertex.glsl"
