// Emitters bound to particles (the NeL design: "emitters can emit other emitters"; docs/
// player.md): a subemitter whose count material is EmissionCount_PerParticle emits
// continuously from every live particle of its source, RatePerParticle children a second
// per parent (varied per parent by its hash). In the fused step each parent writes one
// emission record per child due in this step into its subemitter's *channel* (a hidden
// emitter of the system whose Event Buffer the subemitter reads, after the records are put
// in slot order, as a subemitter reads events).
//
// Which children are due is a function of the parent's own age, so the fractional carry is
// per parent and needs no storage: a parent of rate R has emitted floor(R age) children by
// age `age`, so this step emits floor(R a1) - floor(R a0), a0 and a1 its age before and
// after the step (exactly the stored floats: nothing is skipped or repeated from step to
// step; a dying parent emits up to its lifetime). Child j of the parent is due at age
// t = n / R (n its number over the parent's life) and starts where the parent was then:
// on the step's path from its previous to its new position, so a fast shell leaves an even
// trail instead of a clump per step. At most BOUND_PER_STEP children a parent and step;
// the rest are counted as dropped in the channel's header.
//
// The emission LOD (docs/rendering.md "LOD") thins the children, it does not slow the rate:
// of the children numbered 1, 2, ... child n is kept when floor(f n) > floor(f (n - 1)), f
// the channel's LOD word (its subemitter's factor), so a parent keeps floor(f floor(R age))
// of them, evenly spread, each with the number (and so the random numbers) it has without
// LOD: a degraded trail is a subset of the whole one, and a change of f never repeats a
// number. The records' count is all the subemitter counts (EmissionCount_PerParticle reads
// no LOD itself).

#define BOUND_PER_STEP 64u

// Appends a record to channel c (an emitter index of the system) for the particle in kz_self.
uint kz_writeChannel(uint c, ParticleEvent e, uint kept) {
    uint k = kz_atomicAddWord(kz_headerWord(c, H_COUNT), 1u);
    uint capacity = kz_table(c, E_CAPACITY);
    if (k >= capacity) {
        kz_atomicAddWord(kz_headerWord(c, H_DROPPED), 1u);
        return kept;
    }
    e.stagedSlot = kz_self - kz_first;
    e.stagedRank = kept;
    kz_storeEvent(kz_table(c, E_EVENT_BASE) + capacity + k, e);
    return kept + 1u;
}

void kz_emitBound(uint c) {
    float rate = uintBitsToFloat(kz_table(c, E_CHANNEL_RATE));
    float variance = uintBitsToFloat(kz_table(c, E_CHANNEL_RATE + 1u));
    rate = max(varied(rate, variance, unitFloat(hash2(kz_c.hash, 0x424F554Eu))), 0.0);    // 'BOUN'
    float a1 = min(kz_p.age, kz_p.lifetime);
    float a0 = min(kz_age0, a1);
    float n0 = floor(rate * a0);
    float n1 = floor(rate * a1);
    if (!(n1 > n0) || rate <= 0.0) {
        return;
    }
    float lod = clamp(uintBitsToFloat(kz_table(c, E_LOD)), 0.0, 1.0);
    uint due = uint(min(n1 - n0, 4294967040.0));
    uint emit = min(due, BOUND_PER_STEP);
    if (due > emit) {           // the rest's kept share is dropped
        float last = n0 + float(emit);
        uint lost = uint(max(floor(lod * n1) - floor(lod * last), 0.0));
        if (lost > 0u) {
            kz_atomicAddWord(kz_headerWord(c, H_DROPPED), lost);
        }
    }
    vec3 v = kz_p.velocity;
    float speed = length(v);
    ParticleEvent e;
    e.kind = EVENT_EMISSION;
    e.particle = kz_self - kz_first;
    e.lifetime = kz_p.lifetime;
    e.normal = speed > 0.0 ? v / speed : vec3(0.0);
    e.velocity = v;
    uint kept = 0u;
    for (uint j = 0u; j < emit; ++j) {
        float n = n0 + 1.0 + float(j);
        if (!(floor(lod * n) > floor(lod * (n - 1.0)))) {
            continue;                              // thinned by the LOD
        }
        float t = n / rate;                        // the parent's age at this child
        float f = a1 > kz_age0 ? clamp((t - kz_age0) / (kz_p.age - kz_age0), 0.0, 1.0) : 1.0;
        e.hash = hash2(kz_c.hash, uint(n));         // a child's numbers: its parent and its number
        e.age = t;
        e.position = mix(kz_x0, kz_p.position, f);
        kept = kz_writeChannel(c, e, kept);
    }
    // the channel's track of this slot: how many records it kept (the ordering's per-slot count)
    uint slot = kz_table(c, E_FIRST) + (kz_self - kz_first);
    ParticleTrack k;
    k.serial = 0u;
    k.cycle = 0u;
    k.events = kept;
    k.lastAge = 0.0;
    kz_storeTrack(slot, 2u, k);
    if (kept > 0u) {
        kz_atomicOrWord(kz_writerWords + (slot >> 5u), 1u << (slot & 31u));
    }
}
