// What every GenerateEvents material has, inlined with each one (a parameter per node):
// Events.Probability, population-level: the roll uses the particle's fixed hash, so the same
// fraction of the population fires every step rather than each particle re-rolling.

uniform float Events_Probability = 1.0;

#define EVENT_RANDOM_STREAM 0x45564E54u    // "EVNT": the probability roll's hash stream

bool eventChance(uint index) {
    return unitFloat(hash2(getParticleHash(index), EVENT_RANDOM_STREAM)) < Events_Probability;
}
