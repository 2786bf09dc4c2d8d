// The fragment stage of the materials drawn as lines a few pixels wide (Particles_Line,
// Particles_GradientLine): coverage from the pixel's distance to the line's axis, so lines
// of any width are antialiased and a 1-pixel line is one pixel bright, not a jagged stair.
#include "render/particle_fragment.glsl"

uniform float Line_Width = 1.5;

noperspective in float v_across;    // pixels from the line's axis
in vec4 v_color;

void main() {
    float coverage = clamp(0.5 * Line_Width + 0.5 - abs(v_across), 0.0, 1.0);
    float a = clamp(v_color.a, 0.0, 1.0) * coverage;
    kzWriteParticle(vec4(v_color.rgb * a, a));
}
