#version 430
// ParticlesDefault, vertex stage: the camera-facing billboard (NeL FaceLookAt) of width
// Particle.Size x the particle's scale, warm over its life (render/default_look.glsl), or the
// emitter's ParticleMesh per particle.
#include "render/particle_access.glsl"
#include "render/color.glsl"
#include "render/default_look.glsl"
#define KZ_STOCK_COLOR(i) kzDefaultColor(i)
#define KZ_STOCK_SCALE(i) vec3(1.0)
#include "render/stock_vertex.glsl"
