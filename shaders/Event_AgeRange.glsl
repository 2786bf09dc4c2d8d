// Event_AgeRange: as Event_Lifetime but on the age in seconds: fires when the step's age
// sweep overlaps [AgeMin, AgeMax]; Min = Max fires once at that age.

uniform float Events_AgeMin = 1.0;
uniform float Events_AgeMax = 1.0;

void generateEvents(uint index) {
    if (sweepOverlaps(previousAge(index), getParticleAge(index), firstSweep(index), Events_AgeMin, Events_AgeMax)
            && eventChance(index)) {
        writeParticleEvent(EVENT_AGE, index);
    }
}
