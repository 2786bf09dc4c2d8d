#version 450 core
#include "Particles/affector.glsl"

// Kanzi's affector with the particle alone: not the protocol kzplayer runs.
uniform vec3 Push = vec3(0.0, 1.0, 0.0);

vec3 Affector(inout Particle particle)
{
    return Push;
}
