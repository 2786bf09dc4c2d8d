#version 430
// ParticlesColorOverLife, fragment stage: the sprite times the particle's colour (render/stock_fragment.glsl).
#include "render/stock_fragment.glsl"
