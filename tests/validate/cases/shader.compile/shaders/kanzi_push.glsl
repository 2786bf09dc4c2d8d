#version 450 core
#include "Particles/affector.glsl"

// A custom affector in Kanzi Particles 3.0's protocol: a constant push.
uniform vec3 Push = vec3(0.0, 1.0, 0.0);

vec3 Affector(uint index, inout Particle particle)
{
    return Push;
}
