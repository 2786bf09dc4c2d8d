#version 430
#define N 3
#define SCALE 0.5
#define FAST 1
#line 2 0
// main
#line 2000001 1

float a() { return 1.0; }
#line 4000001 2
float b() { return 2.0; }
#line 2000004 1
#line 4 0
// "lib/b.glsl" is already included
void main() {}
