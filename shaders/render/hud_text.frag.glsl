#version 430
// The debug view's text: a glyph's texel of the built-in bitmap font is on or off (no
// smoothing: the font is drawn at whole multiples of its size), a box is its colour.
in vec2 v_texel;
flat in float v_glyph;
flat in int v_color;

uniform usampler2D kz_font;   // one row of glyph cells, 0 or 255 a texel
uniform vec2 kz_cell;         // a glyph's cell in atlas texels
uniform vec4 kz_colors[4];    // linear, straight alpha: text, warning, error, box

layout(location = 0) out vec4 kzFragColor;

void main() {
    if (v_glyph >= 0.0) {
        ivec2 cell = min(ivec2(floor(v_texel)), ivec2(kz_cell) - 1);
        if (texelFetch(kz_font, ivec2(int(v_glyph) * int(kz_cell.x) + cell.x, cell.y), 0).r < 128u) {
            discard;
        }
    }
    kzFragColor = kz_colors[clamp(v_color, 0, 3)];
}
