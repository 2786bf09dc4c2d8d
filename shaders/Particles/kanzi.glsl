// Kanzi Particles 3.0's names for what kzplayer already has ("Writing custom compute
// materials"): the hash function its includes provide and the fields its wrappers finalise
// (prevPosition, currentLifetime, deltaTime, prevDeltaTime), as aliases of kzplayer's
// accessors. Included by the protocol files (Particles/emitter.glsl, affector.glsl,
// collider.glsl, emission_count.glsl, events.glsl); definitions only, so it is inlined once.

// The hash: kzplayer's PCG hash (Particles/random.glsl), and a float in [0, 1) from it.
uint  hash(uint x)             { return pcgHash(x); }
uint  hash(uint a, uint b)     { return hash2(a, b); }
float hashFloat(uint x)        { return unitFloat(pcgHash(x)); }

// The finalised fields under Kanzi's names. kzplayer steps at a fixed rate, so a particle's
// step is the system's step times its time scale (TimeDilation), and the previous step was
// the system's step.
vec3  getParticlePrevPosition(uint i)     { return getParticlePreviousPosition(i); }
float getParticleCurrentLifetime(uint i)  { return getParticleAge(i); }
float getParticleDeltaTime(uint i)        { return getDeltaTime() * getParticleTimeScale(i); }
float getParticlePrevDeltaTime(uint i)    { return getDeltaTime(); }
void  setParticlePrevPosition(uint i, vec3 v)     { setParticlePreviousPosition(i, v); }
void  setParticleCurrentLifetime(uint i, float v) { setParticleAge(i, v); }
