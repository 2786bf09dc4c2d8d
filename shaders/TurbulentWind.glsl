// TurbulentWind (NeL's turbulent wind): Wind itself, with its properties and shader; the
// catalog's preset turns its turbulence and gusts on where the node does not set them
// (Wind.TurbulenceStrength 1.5 m/s, TurbulenceFrequency 0.5 1/m, GustAmplitude 0.4,
// GustFrequency 0.3 Hz). NeL's noise force with no mean wind is CurlNoise.
#include "Wind.glsl"
