#version 430
// Particles_Line, vertex stage: NeL's line, from the particle's previous position (where the
// integrator had it one step ago: no history needed) to its current one, stretched backwards
// by Line.Stretch; a quad Line.Width pixels wide (plus a pixel each side for the antialiased
// edge), four vertices of a triangle strip: bit 0 the side, bit 1 the end (tail, head).
#include "render/representation.glsl"

uniform float Line_Width = 1.5;
uniform float Line_Stretch = 1.0;

noperspective out float v_across;
out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    vec3 head = getParticlePosition(i);
    vec3 tail = head + (getParticlePreviousPosition(i) - head) * Line_Stretch;
    vec4 a = kzClipOf(tail);
    vec4 b = kzClipOf(head);
    float side = float(gl_VertexID & 1) * 2.0 - 1.0;
    float half_width = 0.5 * Line_Width + 1.0;
    v_across = side * half_width;
    v_color = kzRepresentationColor(i);
    if (!kzInFront(a) || !kzInFront(b)) {
        gl_Position = KZ_NOWHERE;       // a line through the camera plane: not drawn
        return;
    }
    vec2 dir = kzScreenDirection(a, b, vec2(1.0, 0.0));
    gl_Position = kzAcross((gl_VertexID >> 1) != 0 ? b : a, dir, side, half_width);
}
