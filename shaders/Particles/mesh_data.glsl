// The system's mesh data (kzplayer/gpu/mesh_data.py): the collision meshes' trees and
// triangles and the mesh emitters' sampling tables, RGBA float32 texels of one buffer per
// ParticleSystem, read through a buffer texture (read-only, a texture unit of its own: the
// storage binding points and image units are all the particle buffers'). Each node's
// texels start at its kz_meshBase parameter.

#define KZ_MESH_UNIT 8
layout(binding = KZ_MESH_UNIT) uniform samplerBuffer kz_meshTexels;

vec4 kz_meshTexel(uint k) {
    return texelFetch(kz_meshTexels, int(k));
}
