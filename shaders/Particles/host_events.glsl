// Host event notifications (NeL: "the system should be able to handle event notifications
// (collisions, emissions etc.)"; docs/player.md, Host events): births, deaths and hits of the
// emitters the host listens to (Simulation.listen), written in the Event Buffer's 64-byte
// record layout into the system's host records (after the emitters' Event Buffers in the
// events buffer). The count runs over the frame: records past the capacity are dropped
// and counted. At the end of the frame the records are copied on the GPU into the stats
// ring and read a couple of frames later, so nothing waits for the GPU.
//
// A host record: kind (HOST_*), particle = its slot in the emitter, hash, age = when in the
// step it happened (fraction of the step, 0 = its start), position, lifetime, normal (a
// hit's, else 0), stagedSlot = the system's step, velocity (at the hit: just before it),
// stagedRank = the emitter's index in the system.

#define HOST_BIRTH 1u
#define HOST_DEATH 2u
#define HOST_HIT   3u

#ifndef KZ_HOST_EVENTS
#define KZ_HOST_EVENTS 0
#endif

void kz_notify(uint kind, float when, vec3 position, vec3 velocity, vec3 normal) {
#if KZ_HOST_EVENTS
    uint k = kz_atomicAddWord(kz_hostWord, 1u);
    if (k >= kz_hostCapacity) {
        return;             // dropped: the count says how many were asked for
    }
    ParticleEvent e;
    e.kind = kind;
    e.particle = kz_self - kz_first;
    e.hash = kz_c.hash;
    e.age = when;
    e.position = position;
    e.lifetime = kz_p.lifetime;
    e.normal = normal;
    e.stagedSlot = kz_step;
    e.velocity = velocity;
    e.stagedRank = kz_e;
    kz_storeEvent(kz_hostBase + k, e);
#endif
}
