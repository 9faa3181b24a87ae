import CEGL
import Foundation
import LaminaCore

// The baseline's rounded sprites: the same instanced loop, each instance also carrying its rounded rectangle, whose
// coverage the fragment shader works out as Lamina's CoverageShape does (docs/semantics.md): the signed distance
// from the pixel centre to the outline gives coverage clamp(0.5 - distance, 0, 1), which scales the texel.

extension GLESBaseline {
    /// A rounded rectangle in target pixels with one radius at every corner.
    public struct RoundedRect: Sendable {
        public var rect: CGRect
        public var radius: CGFloat

        public init(rect: CGRect, radius: CGFloat) {
            (self.rect, self.radius) = (rect, radius)
        }
    }

    static let roundedVertexSource = """
        #version 300 es
        uniform vec2 u_targetSize;
        uniform vec2 u_textureSize;
        in vec4 a_rect;                     // x0, y0, x1, y1 in target pixels
        in vec4 a_source;                   // x0, y0, x1, y1 in texels
        in vec4 a_shape;                    // the rounded rectangle: x0, y0, x1, y1 in target pixels
        in float a_radius;
        out vec2 v_uv;
        flat out vec4 v_shape;
        flat out float v_radius;
        void main() {
            int corner = gl_VertexID & 3;
            bvec2 far = bvec2((corner & 1) != 0, (corner & 2) != 0);
            vec2 p = vec2(far.x ? a_rect.z : a_rect.x, far.y ? a_rect.w : a_rect.y);
            v_uv = vec2(far.x ? a_source.z : a_source.x, far.y ? a_source.w : a_source.y) / u_textureSize;
            v_shape = a_shape;
            v_radius = a_radius;
            gl_Position = vec4(p / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
        }
        """

    /// gl_FragCoord is in target pixels: the vertex shader maps target y = 0 to the framebuffer's first row.
    static let roundedFragmentSource = """
        #version 300 es
        precision highp float;
        uniform sampler2D u_image;
        in vec2 v_uv;
        flat in vec4 v_shape;
        flat in float v_radius;
        out vec4 o_color;
        void main() {
            vec2 centre = (v_shape.xy + v_shape.zw) * 0.5;
            vec2 half_size = (v_shape.zw - v_shape.xy) * 0.5;
            vec2 q = abs(gl_FragCoord.xy - centre) - half_size + v_radius;
            float d = (q.x > 0.0 && q.y > 0.0) ? length(q) - v_radius : max(q.x, q.y) - v_radius;
            o_color = texture(u_image, v_uv) * clamp(0.5 - d, 0.0, 1.0);
        }
        """

    /// Compiles GLSL source; throws with the driver's log on failure.
    static func compile(_ source: String, type: Int32) throws -> GLuint {
        let shader = glCreateShader(GLenum(type))
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            var log = [GLchar](repeating: 0, count: 4096)
            glGetShaderInfoLog(shader, GLsizei(log.count), nil, &log)
            glDeleteShader(shader)
            throw RenderError.failed("compiling the rounded baseline shader failed: \(String(cString: log))")
        }
        return shader
    }
}
