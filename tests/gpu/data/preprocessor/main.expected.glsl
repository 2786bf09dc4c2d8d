#version 430
#define N 3
#define SCALE 0.5
#define FAST 1
#line 2 0
// main
#line 100001 1

float a() { return 1.0; }
#line 200001 2
float b() { return 2.0; }
#line 100004 1
#line 4 0
// "lib/b.glsl" is already included
void main() {}
