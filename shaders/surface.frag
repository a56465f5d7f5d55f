#version 330 core
// Lambert shading from a light that follows the camera, with an ambient floor so that the far
// side of relief stays readable; `lighting` 0 shows the colours exactly as the colour map says.
in vec3 v_normal;
in vec4 v_colour;

uniform vec3 light_direction;
uniform float lighting;

out vec4 fragment;

void main() {
    float diffuse = max(dot(normalize(v_normal), light_direction), 0.0);
    float shade = mix(1.0, 0.3 + 0.7 * diffuse, lighting);
    fragment = vec4(v_colour.rgb * shade, 1.0);
}
