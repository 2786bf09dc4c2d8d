#include "cycle_b.glsl"
