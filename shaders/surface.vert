#version 330 core
// Every part of the scene: triangles, Voronoi fans, lines and points. Positions are scaled
// radially by `scale` so that overlays sit just above the surface instead of fighting it.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 colour;

uniform mat4 view_projection;
uniform float scale;

out vec3 v_position;
out vec3 v_normal;
out vec4 v_colour;

void main() {
    v_position = position * scale;
    gl_Position = view_projection * vec4(v_position, 1.0);
    v_normal = normal;
    v_colour = colour;
}
