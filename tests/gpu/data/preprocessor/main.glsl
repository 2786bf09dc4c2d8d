#version 430
// main
#include "lib/a.glsl"
#include "lib/b.glsl"
void main() {}
