import CEGL
import Foundation
import LaminaCore

/// The GLES renderer: rasterises a RenderPlan with OpenGL ES 3.0 on a headless EGL display (a GPU through
/// EGL_EXT_platform_device or GBM, or Mesa's llvmpipe through the surfaceless platform).
///
/// It draws the CPU renderer's pixels: the covered pixels of each quad are computed by the same code
/// (`Quad.pixelCoverage`, the top-left rule) and drawn as whole-pixel rectangles, and the fragment shader maps
/// each pixel centre through the same target-to-texel matrix and samples as pixman does (texel centres,
/// no-bleed clamp, 7-bit bilinear weights). Quads that share a texture and filter are drawn by one instanced
/// call; small images share the pages of a texture atlas, so quads of different small images batch too.
///
/// A renderer and its context belong to the thread that made it; GL objects and the context are released
/// when it is deinitialised.
public final class GLESRenderer: Renderer {
    public struct Options: Sendable {
        /// nil: the driver's GL_MAX_TEXTURE_SIZE. A smaller value forces tiling (for tests).
        public var maxTextureSize: Int?
        /// Bytes of textures kept between frames before the least recently used are freed.
        public var textureBudget: Int
        /// Images with both sides at most this many texels are packed into shared atlas pages, so that quads of
        /// different small images batch into one draw call; larger ones get textures of their own. 0 turns the
        /// atlas off (every image its own texture). Limited to `atlasPageSize`.
        public var atlasMaxImageSize: Int
        /// The side in texels that atlas pages grow to (from 512, doubling as they fill; an RGBA8 texture of
        /// side x side x 4 bytes) before another page is started; limited to the largest texture side.
        public var atlasPageSize: Int
        /// Whether large texture uploads go through pixel-unpack buffers (GLESUnpackRing.swift); nil: on for GPUs,
        /// off for software rasterisers such as llvmpipe, where the buffer is one more copy.
        public var uploadsThroughUnpackBuffers: Bool?
        /// Whether the bilinear and trilinear programs evaluate each pixel's texture map in the fragment shader
        /// rather than interpolating a texel coordinate from the box's corners; nil: on for GPUs, whose interpolation
        /// rounds (an NVIDIA H200 put quarter-texel points a hair short, up to 4 per channel off the CPU renderer),
        /// off for software rasterisers such as llvmpipe, which interpolate these maps exactly and pay 15 to 25% of
        /// a textured frame for the per-pixel map (docs/gpu.md, "Texture maps evaluated per pixel").
        public var evaluatesTextureMapsPerPixel: Bool?
        /// Receives one line per EGL attempt and driver message (debug logging).
        public var log: (@Sendable (String) -> Void)?
        /// The EGL device to draw on (`EGLDisplayConnection.devices()`: an index or name, a render node, or
        /// `surfaceless`; one renderer per GPU of a machine with several); nil: the default choice
        /// (docs/gpu-and-kiosk.md, "Which display").
        public var device: String?
        /// Display extensions to act as if missing (tests of the config and pbuffer paths on a driver that has them).
        var ignoredExtensions: Set<String> = []

        public init(maxTextureSize: Int? = nil, textureBudget: Int = 512 << 20, atlasMaxImageSize: Int = 256,
                    atlasPageSize: Int = 2048, uploadsThroughUnpackBuffers: Bool? = nil,
                    log: (@Sendable (String) -> Void)? = nil) {
            self.uploadsThroughUnpackBuffers = uploadsThroughUnpackBuffers
            self.maxTextureSize = maxTextureSize
            self.textureBudget = textureBudget
            self.atlasMaxImageSize = atlasMaxImageSize
            self.atlasPageSize = atlasPageSize
            self.log = log
        }
    }

    public let name = "gles"
    public private(set) var statistics = RenderStatistics()
    /// The planner's caches for the trees this renderer draws (`Renderer.caches`).
    public let caches = RendererCaches()
    /// The EGL platform and device, the driver's strings, and whether it rasterises in software.
    public let info: GLESInfo

    /// Internal for the reset recovery (GLESRenderer+Recovery.swift), which replaces it.
    var context: GLESContext
    let log: (String) -> Void
    let ignoredExtensions: Set<String>
    /// Internal rather than private so that tests can see where images went.
    let textures: GLESTextureCache
    /// The compiled programs (GLESRenderer+Parts.swift).
    var compiled = GLESPrograms()
    /// The vertex array and instance buffers (GLESRenderer+Instances.swift).
    var instancing = GLESInstanceBuffers()
    /// The renderer's own target (internal for the readback ring, GLESRenderer+Readback.swift).
    private(set) var framebuffer: GLuint = 0
    private(set) var colorTexture: GLuint = 0
    private var framebufferSize = (width: 0, height: 0)
    /// The identity of the plan whose picture alone the framebuffer holds (`RenderPlan.identity`); nil when it holds
    /// something else (a caller's pixels under a plan, a lost context's nothing).
    private var retainedPlan: UInt64?
    var encoder = GLESBatchEncoder()
    /// GPU resets recovered from (a new context and new GL objects each).
    public internal(set) var contextResets = 0
    /// The pixel-pack buffer ring of pipelined readback and the frames in flight (GLESRenderer+Readback.swift).
    var readback = GLESReadbackRing()
    /// Whether frames measure their encoding, submission and GPU time into `frameTimings` (GLESRenderer+Timing.swift);
    /// off by default, since a timer query or a timed glFinish costs a little.
    public var measuresFrameTimes = false
    /// The last frame's parts when `measuresFrameTimes` is on.
    public internal(set) var frameTimings = GLESFrameTimings()
    /// The timer query and the encoder's and uploads' clocks (GLESRenderer+Timing.swift).
    var clock = GLESFrameClock()
    /// What presents frames to a window surface (GLESRenderer+Present.swift), made on the first present.
    var presenter: GLESPresenter?
    /// Test seam (GLESRenderer+Recovery.swift): how many of the next new contexts are to be lost as well.
    var simulatedLossesToCome = 0

    public convenience init(options: Options = .init()) throws {
        let log = options.log ?? { _ in }
        try self.init(context: GLESContext(connection: EGLDisplayConnection.shared(device: options.device, log: log),
                                           ignoring: options.ignoredExtensions, log: log), options: options)
    }

    /// A renderer that draws into a window (a display output's): its context is current on a window surface of
    /// `connection` (the window system's EGL display), and `present(_:)` shows frames there without reading back.
    public convenience init(window: GLESWindowRequest, on connection: EGLDisplayConnection,
                            options: Options = .init()) throws {
        let log = options.log ?? { _ in }
        try self.init(context: GLESContext(connection: connection, ignoring: options.ignoredExtensions, window: window,
                                           log: log), options: options)
    }

    init(context: GLESContext, options: Options) throws {
        let log = options.log ?? { _ in }
        self.log = log
        ignoredExtensions = options.ignoredExtensions
        self.context = context
        info = GLESInfo.describe(context)
        let driverMax = context.maxTextureSize
        textures = GLESTextureCache(
            maxTextureSize: min(options.maxTextureSize ?? driverMax, driverMax), budget: options.textureBudget,
            atlasPageSize: options.atlasPageSize, atlasMaxImageSize: options.atlasMaxImageSize)
        if options.uploadsThroughUnpackBuffers ?? !info.isSoftware { textures.unpackRing = GLESUnpackRing() }
        evaluatesTextureMapsPerPixel = options.evaluatesTextureMapsPerPixel ?? !info.isSoftware
        try makeGLObjects()
    }

    /// Whether texture maps are evaluated per pixel (`Options.evaluatesTextureMapsPerPixel`).
    public internal(set) var evaluatesTextureMapsPerPixel = false

    /// Whether large texture uploads go through pixel-unpack buffers (`Options.uploadsThroughUnpackBuffers`).
    public var uploadsThroughUnpackBuffers: Bool { textures.unpackRing != nil }

    /// The objects every frame uses, in the current context: at creation and after a GPU reset.
    func makeGLObjects() throws {
        if context.extensions.contains("GL_KHR_debug"), ProcessInfo.processInfo.environment["LAMINA_GL_DEBUG"] != nil {
            GLESDebug.install()
        }
        // Programs are compiled when a frame first needs them (`program(_:)`): a renderer that draws sprites compiles
        // two or three of them, not twelve. Making renderers was most of the GLES suites' time on NVIDIA's driver.
        glGenVertexArrays(1, &instancing.vertexArray)
        makeInstanceBuffers()
        makeTimerQuery()
        makeSpanTable()
        tables.shapes.make()
        glGenFramebuffers(1, &framebuffer)
        try checkErrors("creating the renderer")
    }

    deinit {
        try? context.makeCurrent()
        releaseGLObjects()
    }

    /// Deletes every GL object the renderer holds (programs, textures and atlas pages, buffers, framebuffers, group
    /// targets, shadows) and forgets their names, so that nothing refers to them afterwards.
    func releaseGLObjects() {
        compiled.quads.removeAll()
        compiled.blend.removeAll()
        compiled.framebufferFetch = nil
        textures.removeAll()
        glDeleteVertexArrays(1, &instancing.vertexArray)
        releaseInstanceBuffers()
        lastEncoded = nil
        releaseReadbackRing()
        releaseTimerQuery()
        releaseSpanTable()
        tables.shapes.release()
        if instancing.pass != 0 { glDeleteBuffers(1, &instancing.pass) }
        (instancing.pass, instancing.passSize) = (0, (0, 0))
        glDeleteFramebuffers(1, &framebuffer)
        if colorTexture != 0 { glDeleteTextures(1, &colorTexture) }
        for var target in pool.targets {
            glDeleteFramebuffers(1, &target.framebuffer)
            glDeleteTextures(1, &target.texture)
        }
        (instancing.vertexArray, framebuffer, colorTexture) = (0, 0, 0)
        framebufferSize = (0, 0)
        retainedPlan = nil
        pool.targets.removeAll()
        shadows.removeAll()  // Deletes their textures (ShadowEntry.delete).
        encoder = GLESBatchEncoder()
        presenter?.release()
        presenter = nil
    }

    /// Texture uploads since the renderer was made (first uploads and re-uploads of changed images).
    public var textureUploads: Int { textures.uploads }
    /// Images with textures (or atlas slots) held by the cache.
    public var cachedTextureCount: Int { textures.count }
    /// Atlas pages held (each at most `atlasPageSize` texels square); pages left empty are deleted after a frame.
    public var atlasPageCount: Int { textures.atlas.pages.count }
    /// The largest texture side used; larger images are drawn from tiles.
    public var maxTextureSize: Int { textures.maxTextureSize }

    /// Renders into a new transparent image.
    public func render(_ plan: RenderPlan) throws -> Image {
        try plan.validate()
        let reservation = try reserveOutput(plan)
        let target = try Image(width: plan.width, height: plan.height)
        target.memoryReservation = reservation
        retainedPlan = nil
        try recovering {
            try draw(plan, startingFrom: nil)
            try readBack(into: target)
        }
        retain(plan)
        return target
    }

    /// Renders over the current contents of `target`.
    public func render(_ plan: RenderPlan, into target: Image) throws {
        try plan.validate()
        guard target.width == plan.width, target.height == plan.height else {
            throw RenderError.targetMismatch(
                "plan is \(plan.width)x\(plan.height), target is \(target.width)x\(target.height)")
        }
        try recovering {
            try draw(plan, startingFrom: target)
            try readBack(into: target)
        }
        // The framebuffer holds the target's old pixels under the plan: not a plan's picture alone.
        retainedPlan = nil
    }

    /// Brings the retained framebuffer to `plan` (redrawing only the plan's damage, scissored, when the framebuffer
    /// holds the plan the damage is measured against; else all of it), then reads back only the rows and columns
    /// of `region` into `target`.
    public func render(_ plan: RenderPlan, into target: Image, redrawing region: DamageRegion) throws {
        try plan.validate()
        guard target.width == plan.width, target.height == plan.height else {
            throw RenderError.targetMismatch(
                "plan is \(plan.width)x\(plan.height), target is \(target.width)x\(target.height)")
        }
        let whole = PixelBox(x0: 0, y0: 0, x1: plan.width, y1: plan.height)
        let region = region.clipped(to: whole)
        try recovering {
            _ = try drawRetained(plan)
            try readBack(region, into: target)
        }
    }

    /// Brings the retained framebuffer to `plan`: only the plan's damage redrawn, scissored, when the framebuffer
    /// holds the plan the damage is measured against; else all of it. Returns the pixels redrawn. The caller has
    /// validated the plan and runs this inside `recovering`.
    func drawRetained(_ plan: RenderPlan) throws -> DamageRegion {
        let whole = PixelBox(x0: 0, y0: 0, x1: plan.width, y1: plan.height)
        let base = retainedPlan
        retainedPlan = nil
        var redrawn = DamageRegion.full(width: plan.width, height: plan.height)
        try startFrame()
        let sameSize = framebufferSize == (plan.width, plan.height) && colorTexture != 0
        if sameSize, let damage = plan.damage, let base, damage.since == base {
            // One pass over the plan for the whole damage, then each rectangle's part of that.
            let region = damage.region.clipped(to: whole)
            let near = plan.restricted(to: region)
            let pieces = region.rects.map { (near.restricted(to: DamageRegion($0)), $0) }
            if pieces.isEmpty {
                statistics = RenderStatistics()
            } else {
                try encodeAndDraw(pieces, framebuffer: framebuffer, swapRedBlue: false)
            }
            statistics.quads = plan.quads.count
            statistics.pixelsRedrawn = region.area
            redrawn = region
        } else {
            try draw(plan, startingFrom: nil)
            statistics.pixelsRedrawn = plan.width * plan.height
        }
        statistics.targetPixels = plan.width * plan.height
        retain(plan)
        return redrawn
    }

    /// Notes that the framebuffer holds `plan`'s picture (for a later plan's damage), unless it has no identity.
    private func retain(_ plan: RenderPlan) {
        retainedPlan = plan.identity == 0 ? nil : plan.identity
    }

    /// Renders into the renderer's own framebuffer, cleared first, and leaves it there (no read-back): for
    /// benchmarks and for callers that go on with GL. `finish()` waits for the GPU.
    public func renderOffscreen(_ plan: RenderPlan) throws {
        try plan.validate()
        retainedPlan = nil
        try recovering { try draw(plan, startingFrom: nil) }
        retain(plan)
    }

    /// Draws `plan` into a framebuffer object of the caller's (bound in this renderer's context, `width` x
    /// `height` pixels, RGBA8 in GL's usual channel order), over what it holds. The plan's row 0 goes to GL
    /// window row 0. For embedding Lamina in a GL program that shares this renderer's context.
    /// After a GPU reset the caller's framebuffer is gone with the old context: the renderer makes a new context
    /// (`glContext`) and throws an error that says so, for the caller to make its framebuffer again.
    public func render(_ plan: RenderPlan, toFramebuffer target: GLuint) throws {
        try plan.validate()
        do {
            try startFrame()
            try encodeAndDraw([(plan, nil)], framebuffer: target, swapRedBlue: true)
        } catch let lost as GLESContextLost {
            try recover(from: lost)
            throw RenderError.failed(
                "\(lost); the renderer made a new context (glContext), in which framebuffer \(target) does not exist: "
                    + "make it again there and render again")
        }
    }

    /// The renderer's GL context, for callers that embed it (make it current before using GL).
    public var glContext: GLESContext { context }

    /// Waits until the GPU has finished every command (glFinish).
    public func finish() throws {
        try recovering {
            try startFrame()
            finishTimed()
            try checkErrors("finishing")
        }
    }

    // MARK: Frame

    func draw(_ plan: RenderPlan, startingFrom start: Image?) throws {
        try startFrame()
        try prepareFramebuffer(width: plan.width, height: plan.height)
        var uploaded = 0
        if let start {
            glBindTexture(GLenum(GL_TEXTURE_2D), colorTexture)
            glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(plan.width), GLsizei(plan.height),
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), start.baseAddress)
            uploaded = start.byteCount
        } else {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        try encodeAndDraw([(plan, nil)], framebuffer: framebuffer, swapRedBlue: false)
        statistics.bytesUploaded += uploaded
    }

    /// Draws one frame made of `pieces`: each plan in turn, the ones with a box scissored to it on the target
    /// (cleared there first): a retained frame's damage, a rectangle at a time.
    private func encodeAndDraw(
        _ pieces: [(plan: RenderPlan, scissor: PixelBox?)], framebuffer target: GLuint, swapRedBlue: Bool
    ) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        clock.encodeNanoseconds = 0
        clock.bufferUploadNanoseconds = 0
        beginGPUTiming()
        textures.beginFrame()
        pool.framesDrawn += 1
        var stats = RenderStatistics()
        var quadsDrawn = 0
        for (plan, scissor) in pieces {
            let shadowTiles = try prepareShadows(plan, statistics: &stats)
            try drawPlan(plan, framebuffer: target, swapRedBlue: swapRedBlue, shadowTiles: shadowTiles,
                         scissor: scissor, statistics: &stats)
            stats.quads += plan.quads.count
            quadsDrawn += encoder.quadsDrawn
            stats.quadsHidden += encoder.quadsHidden
        }
        stats.targetPixels = pieces.first.map { $0.plan.width * $0.plan.height } ?? 0
        stats.pixelsRedrawn = pieces.reduce(0) { $0 + ($1.scissor?.area ?? $1.plan.width * $1.plan.height) }
        stats.quadsDrawn = quadsDrawn
        trimGroupTargets()
        shadows.endFrame()
        encoder.coverages.endFrame()
        encoder.fringes.endFrame()
        encoder.opaqueImages.endFrame()
        stats.bytesUploaded = textures.bytesUploadedThisFrame
        stats.uploadSeconds = Double(textures.uploadNanosecondsThisFrame) / 1e9
        stats.prepareSeconds = Double(clock.encodeNanoseconds + clock.bufferUploadNanoseconds) / 1e9
        statistics = stats
        endTextureFrame()
        endGPUTiming()
        try checkErrors("drawing")
        if measuresFrameTimes {
            let total = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            frameTimings.encodeSeconds = Double(clock.encodeNanoseconds) / 1e9
            frameTimings.submitSeconds = total - frameTimings.encodeSeconds
        }
    }

    /// Encodes `plan` and draws it into `target` (whose size is the plan's), adding to `stats`.
    /// With `scissor`, drawing into `target` (not into group buffers) is cut to that box, which is cleared first.
    func drawPlan(
        _ plan: RenderPlan, framebuffer target: GLuint, swapRedBlue: Bool, shadowTiles: [ShadowSource: GLESTile],
        scissor: PixelBox? = nil, statistics stats: inout RenderStatistics
    ) throws {
        encoder.shadowTiles = shadowTiles
        defer { encoder.shadowTiles = [:] }
        let encodeStart = DispatchTime.now().uptimeNanoseconds
        // The last frame's instances when nothing they depend on changed (GLESRenderer+Encoding.swift).
        let reuse = try canReuseEncoding(of: plan, shadowTiles: shadowTiles)
        let record = reuse ? nil : try encodeRecording(plan, shadowTiles: shadowTiles)
        clock.encodeNanoseconds += DispatchTime.now().uptimeNanoseconds - encodeStart
        if reuse { encodedFramesReused += 1 }

        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target)
        glViewport(0, 0, GLsizei(plan.width), GLsizei(plan.height))
        // The scissor holds only while the target itself is bound: group buffers are drawn whole.
        func scissorTarget(_ on: Bool) {
            guard let scissor else { return }
            if on {
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(GLint(scissor.x0), GLint(scissor.y0), GLsizei(scissor.width), GLsizei(scissor.height))
            } else {
                glDisable(GLenum(GL_SCISSOR_TEST))
            }
        }
        defer { glDisable(GLenum(GL_SCISSOR_TEST)) }
        if scissor != nil {
            scissorTarget(true)
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        if let clear = encoder.clearColor {
            let (b, g, r, a) = clear
            if swapRedBlue { glClearColor(r, g, b, a) } else { glClearColor(b, g, r, a) }
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        glDisable(GLenum(GL_DEPTH_TEST))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glBindVertexArray(instancing.vertexArray)
        bindSpanTable()
        tables.shapes.bind()
        if reuse, let last = lastEncoded {
            instancing.turn = last.buffer
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
            enableInstanceAttributes()
        } else {
            let uploading = DispatchTime.now().uptimeNanoseconds
            uploadInstances(encoder.instances)
            if !encoder.spanRows.isEmpty { uploadSpanTable(encoder.spanRows) }
            if !encoder.shapeTable.isEmpty { tables.shapes.upload(encoder.shapeTable) }
            stats.spanTableRows += encoder.spanRows.count / 2
            stats.shapeTableEntries += encoder.shapeTable.count / ShapeCoverage.tableFloats
            clock.bufferUploadNanoseconds += DispatchTime.now().uptimeNanoseconds - uploading
            if var record {
                record.buffer = instancing.turn
                lastEncoded = record
            }
        }
        // The framebuffers being drawn into: the target, then an offscreen buffer per open group.
        struct Destination {
            var framebuffer: GLuint
            var width: Int, height: Int
            var origin: (x: Int, y: Int)
            /// Swap red and blue on output: only into a caller's RGBA framebuffer; group buffers keep Lamina's order.
            var swap: Bool
            var pooled: Int?
        }
        var destinations = [Destination(framebuffer: target, width: plan.width, height: plan.height, origin: (0, 0),
                                        swap: swapRedBlue, pooled: nil)]
        var current: GLESProgram.Kind?
        for batch in encoder.batches {
            var texture = batch.texture
            var first = batch.first, count = batch.count
            switch batch.group {
            case .begin(let group)?, .maskBegin(let group)?:
                // A cleared offscreen buffer over the group's pixels: for its picture, or for its mask.
                let b = group.bounds
                let index = try acquireGroupTarget(width: b.x1 - b.x0, height: b.y1 - b.y0)
                destinations.append(Destination(
                    framebuffer: pool.targets[index].framebuffer, width: b.x1 - b.x0, height: b.y1 - b.y0,
                    origin: (b.x0, b.y0), swap: false, pooled: index))
                scissorTarget(false)
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), pool.targets[index].framebuffer)
                glViewport(0, 0, GLsizei(b.x1 - b.x0), GLsizei(b.y1 - b.y0))
                glClearColor(0, 0, 0, 0)
                glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
                current = nil
                continue
            case .end(let group)? where group.maskStart != nil:
                // First the mask's alpha multiplies the content (destination x source alpha), then the content is
                // composited like any group.
                let mask = destinations.removeLast()
                let content = destinations[destinations.count - 1]
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), content.framebuffer)
                glViewport(0, 0, GLsizei(content.width), GLsizei(content.height))
                let program = try self.program(.nearest)
                glUseProgram(program.id)
                glUniform2f(program.targetSize, GLfloat(content.width), GLfloat(content.height))
                glUniform2f(program.origin, GLfloat(content.origin.x), GLfloat(content.origin.y))
                glUniform1i(program.swapRedBlue, 0)
                glUniform1i(program.image, 0)
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), pool.targets[mask.pooled!].texture)
                glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_ALPHA))
                drawInstances(first: first, count: 1)
                glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
                pool.targets[mask.pooled!].inUse = false
                stats.drawCalls += 1
                first += 1
                count = 1
                fallthrough
            case .end?:
                let done = destinations.removeLast()
                let parent = destinations[destinations.count - 1]
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), parent.framebuffer)
                glViewport(0, 0, GLsizei(parent.width), GLsizei(parent.height))
                scissorTarget(destinations.count == 1)
                if let pooled = done.pooled {
                    texture = pool.targets[pooled].texture
                    pool.targets[pooled].inUse = false
                }
                current = nil
                stats.offscreenPasses += 1
            case nil:
                break
            }
            let destination = destinations[destinations.count - 1]
            if case .end(let group)? = batch.group, group.composite.needsBlendShader {
                // A blend mode: the picture and a copy of what is beneath it, combined by blend.frag.
                try drawBlendedGroup(group, picture: texture, first: first, parentFramebuffer: destination.framebuffer,
                                     parentSize: (destination.width, destination.height),
                                     parentOrigin: destination.origin, swap: destination.swap)
                current = nil
                stats.drawCalls += 1
                continue
            }
            let base: GLESProgram.Kind = !batch.textured ? .solid
                : batch.filter == .nearest ? (batch.copies ? .copy : .nearest)
                : batch.filter == .trilinear ? .trilinear : .bilinear
            let kind = if let shape = batch.shape, let sampling = base.sampling {
                GLESProgram.Kind.shape(sampling, batch.coverage ? shape.union(.spans) : shape)
            } else {
                batch.coverage ? base.coverage : base
            }
            let program = try self.program(kind)
            if current != kind {
                glUseProgram(program.id)
                glUniform2f(program.targetSize, GLfloat(destination.width), GLfloat(destination.height))
                glUniform2f(program.origin, GLfloat(destination.origin.x), GLfloat(destination.origin.y))
                glUniform1i(program.swapRedBlue, destination.swap ? 1 : 0)
                if program.image >= 0 { glUniform1i(program.image, 0) }
                current = kind
            }
            if batch.textured {
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            }
            // A group composited with plus adds its (masked, opacity-scaled, premultiplied) picture: ONE, ONE, clamped
            // to 1 by the 8-bit buffer, as pixman's ADD on the CPU.
            var additive = false
            if case .end(let group)? = batch.group {
                additive = group.composite == .plus || group.composite == .plusLighter
            }
            // An additive emitter's particles are added the same way (TextureSource.additive).
            if batch.additive { additive = true }
            if additive { glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE)) }
            drawInstances(first: first, count: count)
            stats.instances += count
            if additive { glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA)) }
            stats.drawCalls += 1
        }
        glBindVertexArray(0)
    }

    /// Points the instance attributes at instance `first` of the bound buffer and draws `count` boxes.
    func drawInstances(first: Int, count: Int) {
        let stride = GLsizei(GLESProgram.instanceFloats * MemoryLayout<Float>.stride)
        var offset = first * GLESProgram.instanceFloats * MemoryLayout<Float>.stride
        for (location, attribute) in GLESProgram.attributes.enumerated() {
            glVertexAttribPointer(GLuint(location), attribute.size, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                  UnsafeRawPointer(bitPattern: offset))
            offset += Int(attribute.size) * MemoryLayout<Float>.stride
        }
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(count))
    }

    // MARK: Shadows and offscreen targets (GLESRenderer+Shadows.swift, GLESRenderer+TargetPool.swift)

    /// Blurred shadows kept on the GPU, by source, forgotten (and their textures deleted) after 4 frames unused: the
    /// CPU renderer's policy too.
    let shadows = FrameCache<ShadowKey, ShadowEntry>(keep: 4, onEvict: { $0.delete() })
    /// The span and shape tables of coverage worked out in the shader (GLESRenderer+Spans.swift,
    /// GLESRenderer+Shapes.swift).
    var tables = GLESCoverageTables()
    /// Whether a plan drawn again unchanged reuses the last frame's instances (GLESRenderer+Encoding.swift); on by
    /// default, off to measure or test the encoder.
    public var reusesEncodedFrames = true
    /// Frames drawn from the last frame's instances.
    public internal(set) var encodedFramesReused = 0
    var lastEncoded: EncodedFrame?
    /// Offscreen buffers for groups, masks and shadows, reused between groups and frames
    /// (GLESRenderer+TargetPool.swift).
    var pool = GLESTargetPool()

    private func prepareFramebuffer(width: Int, height: Int) throws {
        if framebufferSize == (width, height), colorTexture != 0 { return }
        if colorTexture != 0 { glDeleteTextures(1, &colorTexture) }
        glGenTextures(1, &colorTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), colorTexture)
        do { try reserveTarget(colorTexture, width: width, height: height, what: "render target") } catch {
            colorTexture = 0  // Deleted by reserveTarget.
            throw error
        }
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        if glGetError() == GLenum(GL_OUT_OF_MEMORY) {
            glDeleteTextures(1, &colorTexture)
            colorTexture = 0
            throw RenderError.failed("out of GPU memory allocating the \(width)x\(height) render target")
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                               colorTexture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError.failed(String(format: "the %dx%d framebuffer is incomplete (0x%04X)", width, height, status))
        }
        framebufferSize = (width, height)
    }

    private func readBack(into target: Image) throws {
        try readBack(.full(width: target.width, height: target.height), into: target)
    }

    /// Reads the pixels of `region` from the framebuffer into the same pixels of `target`.
    private func readBack(_ region: DamageRegion, into target: Image) throws {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(target.width))
        defer { glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0) }
        // The framebuffer holds B, G, R, A in its R, G, B, A channels: reading RGBA gives Lamina's layout.
        for rect in region.rects {
            glReadPixels(GLint(rect.x0), GLint(rect.y0), GLsizei(rect.width), GLsizei(rect.height), GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), target.baseAddress.advanced(by: rect.y0 * target.bytesPerRow + rect.x0 * 4))
        }
        try checkErrors("reading pixels back")
        target.markModified()
    }

    /// Throws for a pending GL error, or `GLESContextLost` after a GPU reset.
    func checkErrors(_ doing: String) throws {
        let status = context.resetStatus()
        if status != GLenum(GL_NO_ERROR) { throw GLESContextLost(status: status, during: doing) }
        let error = glGetError()
        if error == GLenum(GL_OUT_OF_MEMORY) {
            throw RenderError.failed("out of GPU memory while \(doing)")
        }
        guard error == GLenum(GL_NO_ERROR) else {
            throw RenderError.failed("GL error while \(doing): \(GLESError.name(error))")
        }
    }
}
