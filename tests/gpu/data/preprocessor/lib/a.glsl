#version 430
float a() { return 1.0; }
#include "b.glsl"
