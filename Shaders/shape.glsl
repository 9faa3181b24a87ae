// Shared by solid.frag and texture.frag (pasted where they say #include "shape.glsl"; needs spans.glsl first).
#ifdef SHAPES
// Coverage in the shader (docs/semantics.md, "Coverage in the shader"): a quad seen through a rounded rectangle
// or a rounded border (LaminaCore's CoverageShape) is one instance per box of its own pixels, and this computes each
// pixel's coverage from the shape's parameters, which quad.vert reads from the shape table (one entry per shape,
// GLESRenderer+Shapes.swift) into the v_shape inputs. It is LaminaCore's ShapeCoverage.coverage operation for
// operation, in the same order, so the CPU renderer, which runs that in Swift floats, gets the same 8-bit values.
// Parts of the formula are compiled in only where the batch's shapes need them (GLESProgram.ShapeFeatures), since
// llvmpipe runs both sides of every branch on every pixel: CONTINUOUS (continuous corners), HOLES (a border's
// inside), PROJECTIVE (a perspective row in the map; without it w is 1, which the projective formula would
// divide by and subtract nothing from, so both give the same floats) and JACOBIAN (a map that is not a similarity;
// without it the distance is divided by the similarity's scale and no normal is needed). quad.vert passes only the
// inputs the program reads: llvmpipe sets up every input of every triangle.
flat in vec4 v_shapeMap;            // m11 m12 m21 m22: target pixel -> the shape's plane
flat in vec4 v_shapeMove;           // m31 m32, the quad's opacity, the tint's alpha (0-255; -1: no tint)
flat in vec4 v_shapeOuter;          // outer outline: centre x, y, half width, half height
flat in vec4 v_shapeRadii;          // outer radii: top left, top right, bottom right, bottom left
flat in vec4 v_shapeFlags;          // the similarity's scale, continuous corners (1), has a hole (1)
#ifdef PROJECTIVE
flat in vec4 v_shapeW;              // m13 m23 m33
#endif
#ifdef HOLES
flat in vec4 v_shapeHole;           // the hole's outline
flat in vec4 v_shapeHoleRadii;      // the hole's radii
#endif

#ifdef CONTINUOUS
// The ten points of a continuous corner of radius 1 (ContinuousCornerF), circular and continuous.
const float circularCorner[20] = float[20](1.0, 0.0, 0.8244633, 0.0, 0.6520192, 0.046206266, 0.5, 0.1339746,
    0.3479808, 0.22174293, 0.22174293, 0.3479808, 0.1339746, 0.5, 0.046206266, 0.6520192, 0.0, 0.8244633, 0.0, 1.0);
const float continuousCorner[20] = float[20](1.5286648, 0.0, 1.0884932, 0.0, 0.8684069, 0.02196911, 0.6699343,
    0.065496, 0.37081918, 0.16201214, 0.16201214, 0.37081918, 0.065496, 0.6699343, 0.02196911, 0.8684069, 0.0,
    1.0884932, 0.0, 1.5286648);

vec2 cubicAt(vec2 p0, vec2 p1, vec2 p2, vec2 p3, float s) {
    float m = 1.0 - s;
    float a = m * m * m, b = 3.0 * m * m * s, c = 3.0 * m * s * s, d = s * s * s;
    return vec2(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y);
}

vec2 cubicDerivative(vec2 p0, vec2 p1, vec2 p2, vec2 p3, float s) {
    float m = 1.0 - s;
    float a = 3.0 * m * m, b = 6.0 * m * s, c = 3.0 * s * s;
    return vec2(a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y));
}

vec2 cubicSecond(vec2 p0, vec2 p1, vec2 p2, vec2 p3, float s) {
    float m = 1.0 - s;
    return vec2(6.0 * m * (p2.x - 2.0 * p1.x + p0.x) + 6.0 * s * (p3.x - 2.0 * p2.x + p1.x),
                6.0 * m * (p2.y - 2.0 * p1.y + p0.y) + 6.0 * s * (p3.y - 2.0 * p2.y + p1.y));
}

// ContinuousCornerF.signedDistance: (distance, gu, gv) at (u, v) in the corner's frame.
vec3 continuousDistance(float r, float t, float u, float v) {
    vec2 pts[10];
    for (int i = 0; i < 10; ++i) {
        pts[i] = vec2(r * ((1.0 - t) * circularCorner[2 * i] + t * continuousCorner[2 * i]),
                      r * ((1.0 - t) * circularCorner[2 * i + 1] + t * continuousCorner[2 * i + 1]));
    }
    float bestD2 = 1e30;
    vec2 best = vec2(0.0), bestT = vec2(0.0);
    for (int piece = 0; piece < 3; ++piece) {
        vec2 p0 = pts[3 * piece], p1 = pts[3 * piece + 1], p2 = pts[3 * piece + 2], p3 = pts[3 * piece + 3];
        float s = 0.0, nearest = 1e30;
        for (int step = 0; step <= 16; ++step) {
            vec2 q = cubicAt(p0, p1, p2, p3, float(step) / 16.0);
            float d2 = (q.x - u) * (q.x - u) + (q.y - v) * (q.y - v);
            if (d2 < nearest) { nearest = d2; s = float(step) / 16.0; }
        }
        for (int k = 0; k < 6; ++k) {
            vec2 q = cubicAt(p0, p1, p2, p3, s), d1 = cubicDerivative(p0, p1, p2, p3, s);
            vec2 dd = cubicSecond(p0, p1, p2, p3, s);
            float f = (q.x - u) * d1.x + (q.y - v) * d1.y;
            float g = d1.x * d1.x + d1.y * d1.y + (q.x - u) * dd.x + (q.y - v) * dd.y;
            if (abs(g) > 1e-12) s = min(max(s - f / g, 0.0), 1.0);
        }
        vec2 q = cubicAt(p0, p1, p2, p3, s);
        float d2 = (q.x - u) * (q.x - u) + (q.y - v) * (q.y - v);
        if (d2 < bestD2) {
            vec2 tangent = cubicDerivative(p0, p1, p2, p3, s);
            if (tangent.x * tangent.x + tangent.y * tangent.y < 1e-24) tangent = p3 - p0;
            bestD2 = d2; best = q; bestT = tangent;
        }
    }
    float len = sqrt(bestT.x * bestT.x + bestT.y * bestT.y);
    float nu = len > 0.0 ? -bestT.y / len : -0.70710677;
    float nv = len > 0.0 ? bestT.x / len : -0.70710677;
    float du = u - best.x, dv = v - best.y;
    float distance = sqrt(bestD2);
    bool outside = du * nu + dv * nv > 0.0 || u < 0.0 || v < 0.0;
    if (!(distance > 1e-12)) return vec3(0.0, nu, nv);
    float sign = outside ? 1.0 : -1.0;
    return vec3(sign * distance, sign * du / distance, sign * dv / distance);
}
#endif

// ShapeCoverage.signedDistance: (distance, nx, ny) from (x, y) to the outline.
vec3 outlineDistance(vec4 o, vec4 radii, float x, float y) {
    bool right = x >= o.x, below = y >= o.y;
    float r = below ? (right ? radii.z : radii.w) : (right ? radii.y : radii.x);
    float sx = right ? 1.0 : -1.0, sy = below ? 1.0 : -1.0;
#ifdef CONTINUOUS
    if (v_shapeFlags.y > 0.5 && r > 0.0) {
        float u = o.z - abs(x - o.x), v = o.w - abs(y - o.y);
        float halfSide = max(0.0, min(o.z, o.w));
        float t = 1.0;
        if (1.5286648 * r > halfSide) t = min(max((halfSide / r - 1.0) / 0.5286648, 0.0), 1.0);
        float extent = r * ((1.0 - t) + t * 1.5286648);
        if (!(u < extent && v < extent)) return u < v ? vec3(-u, sx, 0.0) : vec3(-v, 0.0, sy);
        vec3 c = continuousDistance(r, t, u, v);
        return vec3(c.x, -sx * c.y, -sy * c.z);
    }
#endif
    float qx = abs(x - o.x) - o.z + r;
    float qy = abs(y - o.y) - o.w + r;
    if (qx > 0.0 && qy > 0.0) {
        float len = sqrt(qx * qx + qy * qy);
        return vec3(len - r, sx * qx / len, sy * qy / len);
    }
    return qx > qy ? vec3(qx - r, sx, 0.0) : vec3(qy - r, 0.0, sy);
}

// The distance in target pixels (ShapeCoverage.coverage's pixels()).
float outlinePixels(vec4 o, vec4 radii, vec2 q, vec4 jacobian) {
    vec3 d = outlineDistance(o, radii, q.x, q.y);
#ifdef JACOBIAN
    float gx = d.y * jacobian.x + d.z * jacobian.y, gy = d.y * jacobian.z + d.z * jacobian.w;
    float gradient = sqrt(gx * gx + gy * gy);
    if (!(gradient > 1e-12)) return d.x < 0.0 ? -1e30 : 1e30;
    return d.x / gradient;
#else
    return d.x / v_shapeFlags.x;
#endif
}

// This pixel's 8-bit mask value (0-255): its coverage, rounded to 8 bits, times the quad's opacity, rounded again
// (PartialPixel.alpha); p is the pixel centre in target pixels.
float shapeAlpha(vec2 p) {
    float m11 = v_shapeMap.x, m12 = v_shapeMap.y, m21 = v_shapeMap.z, m22 = v_shapeMap.w;
    float m31 = v_shapeMove.x, m32 = v_shapeMove.y;
    float u = p.x * m11 + p.y * m21 + m31, v = p.x * m12 + p.y * m22 + m32;
#ifdef PROJECTIVE
    float m13 = v_shapeW.x, m23 = v_shapeW.y, m33 = v_shapeW.z;
    float w = p.x * m13 + p.y * m23 + m33;
    if (!(w > 1e-9)) return 0.0;
    vec2 q = vec2(u / w, v / w);
    vec4 jacobian = vec4((m11 - q.x * m13) / w, (m12 - q.y * m13) / w, (m21 - q.x * m23) / w,
                         (m22 - q.y * m23) / w);
#else
    vec2 q = vec2(u, v);
    vec4 jacobian = vec4(m11, m12, m21, m22);
#endif
    float value = min(max(0.5 - outlinePixels(v_shapeOuter, v_shapeRadii, q, jacobian), 0.0), 1.0);
#ifdef HOLES
    if (v_shapeFlags.z > 0.5 && value > 0.0) {
        value = max(0.0, value - min(max(0.5 - outlinePixels(v_shapeHole, v_shapeHoleRadii, q, jacobian), 0.0), 1.0));
    }
#endif
    float coverage = floor(value * 255.0 + 0.5);
    return floor(coverage / 255.0 * v_shapeMove.z * 255.0 + 0.5);
}
#endif
