#version 300 es
// Presenting the retained frame to a window (GLESRenderer+Present.swift): one triangle over the whole target; the
// scissor picks the rectangles to copy.
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    gl_Position = vec4(p, 0.0, 1.0);
}
