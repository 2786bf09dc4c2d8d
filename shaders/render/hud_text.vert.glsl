#version 430
// The debug view's text (render/hud.py): one quad per glyph or background box, in pixels
// from the top-left corner of the image, snapped to whole pixels.
in vec4 a_rect;       // x, y, width, height in pixels
in vec2 a_glyph;      // the glyph's cell in the font atlas (-1: a solid box), the colour's index

uniform vec2 kz_viewport;     // the image's size in pixels
uniform vec2 kz_cell;         // a glyph's cell in atlas texels

out vec2 v_texel;             // atlas texels from the cell's top-left corner
flat out float v_glyph;
flat out int v_color;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 p = a_rect.xy + corner * a_rect.zw;
    v_texel = corner * kz_cell;
    v_glyph = a_glyph.x;
    v_color = int(a_glyph.y);
    gl_Position = vec4(p.x / kz_viewport.x * 2.0 - 1.0, 1.0 - p.y / kz_viewport.y * 2.0, 0.0, 1.0);
}
