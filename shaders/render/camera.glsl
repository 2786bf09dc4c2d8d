// What every rendering shader knows about the frame (docs/rendering.md, "Materials").
uniform mat4 kz_model;          // simulation space -> world (identity unless LocalSpace)
uniform mat4 kz_view;           // world -> view (the camera looks down -Z)
uniform mat4 kz_projection;     // view -> clip
uniform vec3 kz_cameraPosition; // world
uniform float kz_time;          // seconds of simulated time
uniform vec2 kz_viewport;       // pixels
uniform float kz_opacity;       // Node.Opacity, multiplied down the tree
