#version 430
// Particles_Line, fragment stage (render/line_fragment.glsl).
#include "render/line_fragment.glsl"
