#version 430
// ParticlesDefault, fragment stage: the sprite times the particle's colour (render/stock_fragment.glsl).
#include "render/stock_fragment.glsl"
