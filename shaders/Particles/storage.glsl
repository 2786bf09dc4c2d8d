// Reading and writing the system's storage, through the texel-buffer images (KZ_IMAGE_IO 1,
// the default) or the storage blocks (0: a driver without texel buffers, or a program in
// which a custom material indexes the blocks itself, so that every access of the program
// goes through the same path). Same bits either way.

// -- words of the control and slot buffers ------------------------------------------------

#if KZ_IMAGE_IO
uint kz_word(uint w)                    { return imageLoad(kz_controlWords, int(w)).x; }
void kz_setWord(uint w, uint v)         { imageStore(kz_controlWords, int(w), uvec4(v)); }
uint kz_atomicAddWord(uint w, uint v)   { return imageAtomicAdd(kz_controlWords, int(w), v); }
uint kz_atomicOrWord(uint w, uint v)    { return imageAtomicOr(kz_controlWords, int(w), v); }
uint kz_slot(uint k)                    { return imageLoad(kz_slotWords, int(k)).x; }
void kz_setSlot(uint k, uint v)         { imageStore(kz_slotWords, int(k), uvec4(v)); }
#else
uint kz_word(uint w)                    { return control[w]; }
void kz_setWord(uint w, uint v)         { control[w] = v; }
uint kz_atomicAddWord(uint w, uint v)   { return atomicAdd(control[w], v); }
uint kz_atomicOrWord(uint w, uint v)    { return atomicOr(control[w], v); }
uint kz_slot(uint k)                    { return slots[k]; }
void kz_setSlot(uint k, uint v)         { slots[k] = v; }
#endif
float kz_wordFloat(uint w)              { return uintBitsToFloat(kz_word(w)); }

// The schedule: read as a uniform block (what an earlier dispatch wrote), written as storage.
uint kz_scheduleWord(uint w)            { return kz_scheduleWords[w >> 2u][w & 3u]; }
#if KZ_IMAGE_IO
void kz_setScheduleWord(uint w, uint v) { imageStore(kz_scheduleImage, int(w), uvec4(v)); }
void kz_scheduleMax(uint w, uint v)     { imageAtomicMax(kz_scheduleImage, int(w), v); }
#else
void kz_setScheduleWord(uint w, uint v) { schedule[w] = v; }
void kz_scheduleMax(uint w, uint v)     { atomicMax(schedule[w], v); }
#endif

// -- emitter states -------------------------------------------------------------------------

#define KZ_STATE_WORDS 24u
#define KZ_HEADER_WORDS 8u
#define KZ_LIVE_WORDS 8u

EmitterState kz_loadState(uint e) {
    uint w = e * KZ_STATE_WORDS;
    EmitterState s;
    s.groupsX = kz_word(w);
    s.groupsY = kz_word(w + 1u);
    s.groupsZ = kz_word(w + 2u);
    s.count = kz_word(w + 3u);
    s.requested = kz_word(w + 4u);
    s.emitBase = kz_word(w + 5u);
    s.freeCount = kz_word(w + 6u);
    s.capacity = kz_word(w + 7u);
    s.totalEmitted = kz_word(w + 8u);
    s.totalDied = kz_word(w + 9u);
    s.totalStalled = kz_word(w + 10u);
    s.step = kz_word(w + 11u);
    s.cycle = kz_word(w + 12u);
    s.started = kz_word(w + 13u);
    s.totalHits = kz_word(w + 14u);     // written by the step kernel's atomics, not by kz_storeState
    s._pad0 = kz_word(w + 15u);
    s.carry = packDouble2x32(uvec2(kz_word(w + 16u), kz_word(w + 17u)));
    s.cycleTimer = packDouble2x32(uvec2(kz_word(w + 18u), kz_word(w + 19u)));
    s.user = uintBitsToFloat(uvec4(kz_word(w + 20u), kz_word(w + 21u), kz_word(w + 22u), kz_word(w + 23u)));
    return s;
}

void kz_storeState(uint e, EmitterState s) {
    uint w = e * KZ_STATE_WORDS;
    kz_setWord(w, s.groupsX);
    kz_setWord(w + 1u, s.groupsY);
    kz_setWord(w + 2u, s.groupsZ);
    kz_setWord(w + 3u, s.count);
    kz_setWord(w + 4u, s.requested);
    kz_setWord(w + 5u, s.emitBase);
    kz_setWord(w + 6u, s.freeCount);
    kz_setWord(w + 7u, s.capacity);
    kz_setWord(w + 8u, s.totalEmitted);
    kz_setWord(w + 9u, s.totalDied);
    kz_setWord(w + 10u, s.totalStalled);
    kz_setWord(w + 11u, s.step);
    kz_setWord(w + 12u, s.cycle);
    kz_setWord(w + 13u, s.started);
    uvec2 carry = unpackDouble2x32(s.carry);
    uvec2 timer = unpackDouble2x32(s.cycleTimer);
    kz_setWord(w + 16u, carry.x);
    kz_setWord(w + 17u, carry.y);
    kz_setWord(w + 18u, timer.x);
    kz_setWord(w + 19u, timer.y);
    uvec4 user = floatBitsToUint(s.user);
    kz_setWord(w + 20u, user.x);
    kz_setWord(w + 21u, user.y);
    kz_setWord(w + 22u, user.z);
    kz_setWord(w + 23u, user.w);
}

// Words of an emitter's EventHeader and LiveHeader (struct order, particle_data.glsl).
uint kz_headerWord(uint e, uint field)  { return kz_headerWords + e * KZ_HEADER_WORDS + field; }
uint kz_liveWord(uint e, uint field)    { return kz_liveWords + e * KZ_LIVE_WORDS + field; }
#define H_COUNT 0u
#define H_CAPACITY 1u
#define H_DROPPED 2u
#define H_TOTAL_WRITTEN 4u
#define H_TOTAL_DROPPED 5u

// -- particle records -----------------------------------------------------------------------

#if KZ_IMAGE_IO
uvec4 kz_hotTexel(uint i, uint t)            { return imageLoad(kz_hotTexels, int(i * 4u + t)); }
void  kz_setHotTexel(uint i, uint t, uvec4 v) { imageStore(kz_hotTexels, int(i * 4u + t), v); }
uvec4 kz_coldTexel(uint i, uint t)           { return imageLoad(kz_coldTexels, int(i * 5u + t)); }
void  kz_setColdTexel(uint i, uint t, uvec4 v) { imageStore(kz_coldTexels, int(i * 5u + t), v); }
uvec4 kz_trackTexel(uint i, uint t)          { return imageLoad(kz_trackTexels, int(i * 3u + t)); }
void  kz_setTrackTexel(uint i, uint t, uvec4 v) { imageStore(kz_trackTexels, int(i * 3u + t), v); }
uvec4 kz_eventTexel(uint r, uint t)          { return imageLoad(kz_eventTexels, int(r * 4u + t)); }
void  kz_setEventTexel(uint r, uint t, uvec4 v) { imageStore(kz_eventTexels, int(r * 4u + t), v); }
#endif

Particle kz_loadHot(uint i) {
#if KZ_IMAGE_IO
    uvec4 t0 = kz_hotTexel(i, 0u), t1 = kz_hotTexel(i, 1u), t2 = kz_hotTexel(i, 2u), t3 = kz_hotTexel(i, 3u);
    Particle p;
    p.position = uintBitsToFloat(t0.xyz);
    p.age = uintBitsToFloat(t0.w);
    p.previousPosition = uintBitsToFloat(t1.xyz);
    p.lifetime = uintBitsToFloat(t1.w);
    p.velocity = uintBitsToFloat(t2.xyz);
    p.mass = uintBitsToFloat(t2.w);
    p.acceleration = uintBitsToFloat(t3.xyz);
    p.flags = t3.w;
    return p;
#else
    return particles[i];
#endif
}

// One texel of the hot record (t = 0: position, age; 1: previous position, lifetime;
// 2: velocity, mass; 3: acceleration, flags).
void kz_storeHot(uint i, uint t, Particle p) {
#if KZ_IMAGE_IO
    uvec4 v = t == 0u ? uvec4(floatBitsToUint(p.position), floatBitsToUint(p.age))
            : t == 1u ? uvec4(floatBitsToUint(p.previousPosition), floatBitsToUint(p.lifetime))
            : t == 2u ? uvec4(floatBitsToUint(p.velocity), floatBitsToUint(p.mass))
            : uvec4(floatBitsToUint(p.acceleration), p.flags);
    kz_setHotTexel(i, t, v);
#else
    if (t == 0u) { particles[i].position = p.position; particles[i].age = p.age; }
    else if (t == 1u) { particles[i].previousPosition = p.previousPosition; particles[i].lifetime = p.lifetime; }
    else if (t == 2u) { particles[i].velocity = p.velocity; particles[i].mass = p.mass; }
    else { particles[i].acceleration = p.acceleration; particles[i].flags = p.flags; }
#endif
}

ParticleCold kz_loadCold(uint i) {
#if KZ_IMAGE_IO
    uvec4 t0 = kz_coldTexel(i, 0u), t1 = kz_coldTexel(i, 1u), t2 = kz_coldTexel(i, 2u);
    ParticleCold c;
    c.scale = uintBitsToFloat(t0.xyz);
    c.hash = t0.w;
    c.rotationOrigin = uintBitsToFloat(t1.xyz);
    c.timeScale = uintBitsToFloat(t1.w);
    c.angularVelocity = uintBitsToFloat(t2.xyz);
    c.serial = t2.w;
    c.color = uintBitsToFloat(kz_coldTexel(i, 3u));
    c.custom = uintBitsToFloat(kz_coldTexel(i, 4u));
    return c;
#else
    return coldParticles[i];
#endif
}

// One texel of the cold record (0: scale, hash; 1: rotation origin, time scale;
// 2: angular velocity, serial; 3: colour; 4: custom).
void kz_storeCold(uint i, uint t, ParticleCold c) {
#if KZ_IMAGE_IO
    uvec4 v = t == 0u ? uvec4(floatBitsToUint(c.scale), c.hash)
            : t == 1u ? uvec4(floatBitsToUint(c.rotationOrigin), floatBitsToUint(c.timeScale))
            : t == 2u ? uvec4(floatBitsToUint(c.angularVelocity), c.serial)
            : t == 3u ? floatBitsToUint(c.color) : floatBitsToUint(c.custom);
    kz_setColdTexel(i, t, v);
#else
    if (t == 0u) { coldParticles[i].scale = c.scale; coldParticles[i].hash = c.hash; }
    else if (t == 1u) { coldParticles[i].rotationOrigin = c.rotationOrigin; coldParticles[i].timeScale = c.timeScale; }
    else if (t == 2u) { coldParticles[i].angularVelocity = c.angularVelocity; coldParticles[i].serial = c.serial; }
    else if (t == 3u) { coldParticles[i].color = c.color; }
    else { coldParticles[i].custom = c.custom; }
#endif
}

// One texel of the track into k (0: hit position, hit speed; 1: hit normal, event base;
// 2: serial, cycle, events, last age).
ParticleTrack kz_loadTrackPart(uint i, uint t, ParticleTrack k) {
#if KZ_IMAGE_IO
    uvec4 v = kz_trackTexel(i, t);
    if (t == 0u) {
        k.hitPosition = uintBitsToFloat(v.xyz);
        k.hitSpeed = uintBitsToFloat(v.w);
    } else if (t == 1u) {
        k.hitNormal = uintBitsToFloat(v.xyz);
        k.eventBase = v.w;
    } else {
        k.serial = v.x;
        k.cycle = v.y;
        k.events = v.z;
        k.lastAge = uintBitsToFloat(v.w);
    }
#else
    if (t == 0u) { k.hitPosition = tracks[i].hitPosition; k.hitSpeed = tracks[i].hitSpeed; }
    else if (t == 1u) { k.hitNormal = tracks[i].hitNormal; k.eventBase = tracks[i].eventBase; }
    else { k.serial = tracks[i].serial; k.cycle = tracks[i].cycle; k.events = tracks[i].events;
           k.lastAge = tracks[i].lastAge; }
#endif
    return k;
}

ParticleTrack kz_loadTrack(uint i) {
    ParticleTrack k;
    k = kz_loadTrackPart(i, 0u, k);
    k = kz_loadTrackPart(i, 1u, k);
    return kz_loadTrackPart(i, 2u, k);
}

void kz_storeTrack(uint i, uint t, ParticleTrack k) {
#if KZ_IMAGE_IO
    uvec4 v = t == 0u ? uvec4(floatBitsToUint(k.hitPosition), floatBitsToUint(k.hitSpeed))
            : t == 1u ? uvec4(floatBitsToUint(k.hitNormal), k.eventBase)
            : uvec4(k.serial, k.cycle, k.events, floatBitsToUint(k.lastAge));
    kz_setTrackTexel(i, t, v);
#else
    if (t == 0u) { tracks[i].hitPosition = k.hitPosition; tracks[i].hitSpeed = k.hitSpeed; }
    else if (t == 1u) { tracks[i].hitNormal = k.hitNormal; tracks[i].eventBase = k.eventBase; }
    else { tracks[i].serial = k.serial; tracks[i].cycle = k.cycle; tracks[i].events = k.events;
           tracks[i].lastAge = k.lastAge; }
#endif
}

ParticleEvent kz_loadEvent(uint r) {
#if KZ_IMAGE_IO
    uvec4 t0 = kz_eventTexel(r, 0u), t1 = kz_eventTexel(r, 1u), t2 = kz_eventTexel(r, 2u), t3 = kz_eventTexel(r, 3u);
    ParticleEvent e;
    e.kind = t0.x;
    e.particle = t0.y;
    e.hash = t0.z;
    e.age = uintBitsToFloat(t0.w);
    e.position = uintBitsToFloat(t1.xyz);
    e.lifetime = uintBitsToFloat(t1.w);
    e.normal = uintBitsToFloat(t2.xyz);
    e.stagedSlot = t2.w;
    e.velocity = uintBitsToFloat(t3.xyz);
    e.stagedRank = t3.w;
    return e;
#else
    return events[r];
#endif
}

void kz_storeEvent(uint r, ParticleEvent e) {
#if KZ_IMAGE_IO
    kz_setEventTexel(r, 0u, uvec4(e.kind, e.particle, e.hash, floatBitsToUint(e.age)));
    kz_setEventTexel(r, 1u, uvec4(floatBitsToUint(e.position), floatBitsToUint(e.lifetime)));
    kz_setEventTexel(r, 2u, uvec4(floatBitsToUint(e.normal), e.stagedSlot));
    kz_setEventTexel(r, 3u, uvec4(floatBitsToUint(e.velocity), e.stagedRank));
#else
    events[r] = e;
#endif
}
