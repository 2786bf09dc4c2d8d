#version 430
// The scene's simple lit material, vertex stage: a Model3D node's mesh at its Node3D
// transform (kz_model), lit per fragment.
#include "render/camera.glsl"

layout(location = 0) in vec3 kzPosition;
layout(location = 1) in vec3 kzNormal;
layout(location = 2) in vec2 kzTexCoord;

uniform mat3 kz_normalMatrix;     // inverse transpose of kz_model's 3x3

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

void main() {
    vec4 world = kz_model * vec4(kzPosition, 1.0);
    v_world = world.xyz;
    v_normal = kz_normalMatrix * kzNormal;
    v_uv = kzTexCoord;
    gl_Position = kz_projection * (kz_view * world);
}
