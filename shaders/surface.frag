#version 330 core
// Lambert shading from a light that follows the camera, with an ambient floor so that the far
// side of relief stays readable; `lighting` 0 shows the colours exactly as the colour map says.
// With `flat_normals` every face is lit by its own plane's normal, taken from how the position
// changes across the screen inside the face, so that shared vertices need no normal per face.
in vec3 v_position;
in vec3 v_normal;
in vec4 v_colour;

uniform vec3 light_direction;
uniform float lighting;
uniform float flat_normals;

out vec4 fragment;

void main() {
    vec3 n = v_normal;
    if (flat_normals > 0.5) {
        n = cross(dFdx(v_position), dFdy(v_position));
        // Outward, whichever way the window's rows run; a face seen edge-on has no slope.
        if (dot(n, v_position) < 0.0) n = -n;
        if (dot(n, n) == 0.0) n = v_position;
    }
    float diffuse = max(dot(normalize(n), light_direction), 0.0);
    float shade = mix(1.0, 0.3 + 0.7 * diffuse, lighting);
    fragment = vec4(v_colour.rgb * shade, 1.0);
}
