#version 430
// Particles_Faces, fragment stage: the sprite times the particle's colour (render/stock_fragment.glsl).
#include "render/stock_fragment.glsl"
