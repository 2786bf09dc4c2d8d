// Read-only particle access for rendering shaders (vertex stages and the renderer's compute
// passes): the emitter's hot and cold storage blocks and the accessor API of player.md,
// getters only. Rendering code reads particles ONLY through these, so the simulation may
// change the record layout (docs/rendering.md): the frame pipeline's one read-only include,
// shaders/Particles/particle_read.glsl, is it.
#include "Particles/particle_read.glsl"
