// Kanzi Particles 3.0's emission include ("Writing custom compute materials"): a custom
// emission material written for Kanzi (a `#version 450 core` line, an include of this file,
// its uniforms, and `void EmitParticle(uint index, uint emitIndex)` calling setParticle*)
// runs in kzplayer's emission slot unchanged. (Mesa's GLSL preprocessor refuses the include
// directive even inside a comment, so this comment does not spell it.) This file maps Kanzi's entry point onto
// kzplayer's (emitParticle(uint index), Particles/main_emission.glsl): as Kanzi's wrapper
// does, the slot holds the defaults before EmitParticle runs (position at the emitter origin,
// getEmitterTransform()[3].xyz; velocity 0, mass 1, lifetime 1, scale 1, a random hash), the
// accessor surface (getParticle*, setParticle*, addParticle*, getEmitterTransform) is
// kzplayer's (Particles/accessors.glsl), and the slot's main finalises the previous position
// afterwards. `index` is the particle's pool slot, `emitIndex` its number among the particles
// this emitter spawns in this step (0, 1, ...). A uniform's property is the one of its own name
// (`RiseSpeed`), as Kanzi Studio's Sync with Uniforms names it. Kanzi's hash and the names of
// the fields the wrapper finalises are in Particles/kanzi.glsl.

#include "Particles/kanzi.glsl"

void EmitParticle(uint index, uint emitIndex);

void emitParticle(uint index) {
    setParticlePosition(index, getEmitterTransform()[3].xyz);
    EmitParticle(index, kz_spawnIndex);
}
