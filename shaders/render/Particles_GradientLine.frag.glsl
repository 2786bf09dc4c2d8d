#version 430
// Particles_GradientLine, fragment stage (render/line_fragment.glsl).
#include "render/line_fragment.glsl"
