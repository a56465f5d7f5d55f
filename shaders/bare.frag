#version 330 core
// The benchmark's baseline: one constant colour.
out vec4 fragment;

void main() {
    fragment = vec4(0.8, 0.8, 0.8, 1.0);
}
