// Event_Periodic: fires every Interval seconds of a particle's age (at Interval, 2 Interval,
// ...): the phase is anchored at its birth, so staggered particles give a steady stream.
// Wrap detection as in EmissionCount_Schedule, per particle: the interval index floor(age /
// Interval) is compared with the last one that fired (kept in the slot's track), so float
// round-off of the age can neither skip nor repeat a boundary. A step spanning several
// intervals fires once. Interval = 0 never fires.

uniform float Events_Interval = 1.0;

void generateEvents(uint index) {
    if (Events_Interval <= 0.0) {
        return;
    }
    uint last = firstSweep(index) ? 0u : getParticleEventCycle(index);
    uint k = uint(min(floor(getParticleAge(index) / Events_Interval), 4294967295.0));
    setParticleEventCycle(index, k);
    if (k > last && eventChance(index)) {
        writeParticleEvent(EVENT_INTERVAL, index);
    }
}
