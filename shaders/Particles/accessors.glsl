// The accessor API of player.md: materials read and write particles only through these.
// Vectors are in simulation space (world space unless ParticleSystem.LocalSpace).

// The pool slot this invocation works on, or false when it holds no live particle.
bool liveSlot(out uint i) {
    i = gl_GlobalInvocationID.x;
    return i < kz_capacity && (particles[i].flags & FLAG_ALIVE) != 0u;
}

vec3  getParticlePosition(uint i)         { return particles[i].position; }
vec3  getParticlePreviousPosition(uint i) { return particles[i].previousPosition; }
vec3  getParticleVelocity(uint i)         { return particles[i].velocity; }
vec3  getParticleAcceleration(uint i)     { return particles[i].acceleration; }
float getParticleAge(uint i)              { return particles[i].age; }
float getParticleLifetime(uint i)         { return particles[i].lifetime; }
float getParticleMass(uint i)             { return particles[i].mass; }
vec3  getParticleScale(uint i)            { return particles[i].scale; }
vec3  getParticleRotation(uint i)         { return particles[i].rotation; }
vec3  getParticleAngularVelocity(uint i)  { return particles[i].angularVelocity; }
vec4  getParticleColor(uint i)            { return particles[i].color; }
vec4  getParticleCustom(uint i)           { return particles[i].custom; }
float getParticleTimeScale(uint i)        { return particles[i].timeScale; }
uint  getParticleFlags(uint i)            { return particles[i].flags; }
// Fixed per particle for its whole life: population-level choices (Events.Probability).
uint  getParticleHash(uint i)             { return particles[i].hash; }
float getParticleRandom(uint i, uint k)   { return unitFloat(hash2(particles[i].hash, k)); }

void setParticlePosition(uint i, vec3 v)        { particles[i].position = v; }
void setParticleVelocity(uint i, vec3 v)        { particles[i].velocity = v; }
void setParticleAge(uint i, float v)            { particles[i].age = v; }
void setParticleLifetime(uint i, float v)       { particles[i].lifetime = v; }
void setParticleMass(uint i, float v)           { particles[i].mass = v; }
void setParticleScale(uint i, vec3 v)           { particles[i].scale = v; }
void setParticleRotation(uint i, vec3 v)        { particles[i].rotation = v; }
void setParticleAngularVelocity(uint i, vec3 v) { particles[i].angularVelocity = v; }
void setParticleColor(uint i, vec4 v)           { particles[i].color = v; }
void setParticleCustom(uint i, vec4 v)          { particles[i].custom = v; }
void setParticleTimeScale(uint i, float v)      { particles[i].timeScale = v; }
void killParticle(uint i)                       { particles[i].flags |= FLAG_KILL; }
// Does the particle die in this step's kill pass (end of life, or marked)? The events
// stage and the kill passes ask the same question of the same data.
bool diesThisStep(uint i) {
    return particles[i].age >= particles[i].lifetime || (particles[i].flags & FLAG_KILL) != 0u;
}

// Mass-independent: body forces (gravity, buoyancy).
void addParticleAcceleration(uint i, vec3 a)    { particles[i].acceleration += a; }
// Mass-aware: a = F / m (wind, drag).
void addParticleForce(uint i, vec3 f)           { particles[i].acceleration += f / max(particles[i].mass, 1e-6); }
// Linear damping, resolved exactly by the integrator: declares that this step's acceleration
// also falls by `rate` (1/s) per m/s of velocity, a = A - rate (v - v_ref). An affector that
// adds a drag k (w - v) to the accumulator declares rate k / m with it; the helpers of
// Particles/velocity.glsl (addDragForce, addDragAcceleration) do both, at the velocity v_ref
// the integrator steps from. Rates add up; the terminal velocity is then exact at any step.
void  addParticleDamping(uint i, float rate)    { particleDamping[i] += rate; }
float getParticleDamping(uint i)                { return particleDamping[i]; }

mat4 getAffectorTransform() { return kz_affectorTransform; }
mat4 getEmitterTransform()  { return kz_emitterTransform; }
vec3 getAffectorPosition()  { return kz_affectorTransform[3].xyz; }
// A world-space direction (gravity's -Y) in simulation space.
vec3 worldToSimulationDirection(vec3 d) { return kz_worldToSimulation * d; }
float getDeltaTime() { return kz_dt; }
float getTime() { return kz_time; }
