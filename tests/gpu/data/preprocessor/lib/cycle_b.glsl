// b
#include "cycle_a.glsl"
