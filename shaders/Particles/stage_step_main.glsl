// The fused step's main (docs/player.md, The frame, stages 2-8): one invocation per live
// particle of every emitter of the system (Particles/stage_step.glsl holds the stages that
// are not materials). The generator (kzplayer.gpu.generate) fills each `#splice` point with
// the system's own part: the switches over its variants, its affectors and colliders in
// tree order, its bound subemitters (kzplayer.gpu.program_builder: splice points).

// 3. the emitter's SelfAffectMaterial: a switch on the emitter table's variant
void kz_selfAffect() {
    #splice SELF_AFFECT
}
// 4. the system's affectors, in tree order: each enabled one with its own parameter words
void kz_affectors() {
    #splice AFFECTORS
}
// 6. the system's colliders, resolved together: a sequence of earliest hits over all of
// them (Particles/collider_resolve.glsl asks this function for each sub-path)
bool kz_sweepAll(vec3 a, vec3 b, out float t, out vec3 n, out KzResponse r) {
    bool found = false;
    float s;
    vec3 m;
    t = 2.0;
    n = vec3(0.0);
    r = KzResponse(0.0, 0.0, false);
    #splice COLLIDERS
    return found;
}
void kz_colliders() {
#if KZ_COLLIDERS
    kz_collide();
#endif
}
// emitters bound to particles: the children due from this particle in this step
// (Particles/bound_emission.glsl, included when the system has any)
void kz_bound() {
    #splice BOUND
}
// 7. the emitter's GenerateEventsMaterial
void kz_events() {
    #splice EVENTS
}

void main() {
    uint g = gl_WorkGroupID.x;
    uint e = kz_planEmitter(kz_planStep, g);
    uint k = (g - kz_scheduleWord(kz_planStep + e)) * uint(WORKGROUP_SIZE) + gl_LocalInvocationIndex;
    kz_bindEmitter(e);
    if (k >= kz_scheduleWord(kz_stepCounts + e)) {
        return;
    }
#if KZ_FULL_WALK
    kz_begin(kz_first + k);                          // every slot of the pool
    if ((kz_p.flags & FLAG_ALIVE) == 0u) {
        return;
    }
#else
    kz_begin(kz_first + kz_slot(kz_first + k));     // the k-th entry of its live list
#endif
    kz_enterSystemSpace();           // an emitter in a space of its own steps in the system's
    kz_reset();
    kz_selfAffect();
    kz_affectors();
    kz_integrate();
    kz_colliders();
    kz_bound();
    kz_events();
    kz_deathTest();
    kz_leaveSystemSpace();
    // after leaving: the ring holds positions in the emitter's own space, as its records.
    // Filled when an emitter of the system keeps a position history (its program then
    // includes Particles/history.glsl): one write of the ring (trails).
    #splice HISTORY
    kz_end();
}
