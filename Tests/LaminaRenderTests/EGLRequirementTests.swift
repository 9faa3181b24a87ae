import CEGL
import Foundation
import Lamina
import Testing

@testable import LaminaGLES

/// The EGL decisions as pure functions: which extensions are missing, how the context is asked for, and why an
/// NVIDIA GPU goes unused. No driver needed.
struct EGLRequirementTests {
    /// Mesa 22's surfaceless display, as eglQueryString reports it.
    let mesa = ExtensionSet(
        "EGL_EXT_create_context_robustness EGL_KHR_create_context EGL_KHR_no_config_context "
            + "EGL_KHR_surfaceless_context EGL_MESA_configless_context EGL_KHR_fence_sync ")

    @Test func extensionNamesMatchWholeWordsOnly() {
        let offered = ExtensionSet("EGL_EXT_platform_device_extra  EGL_KHR_debug\nEGL_EXT_platform_base")
        #expect(!offered.contains("EGL_EXT_platform_device"))
        #expect(offered.contains("EGL_KHR_debug") && offered.contains("EGL_EXT_platform_base"))
        #expect(ExtensionRequirement.firstMissing([.platformBase, .platformDevice], in: offered) == .platformDevice)
    }

    @Test func aMissingExtensionIsNamedWithItsPurpose() {
        let offered = ExtensionSet("EGL_EXT_platform_base EGL_EXT_platform_device EGL_EXT_device_query")
        #expect(throws: RenderError.unavailable(
            "EGL lacks EGL_EXT_device_enumeration (or EGL_EXT_device_base) (needed to list EGL devices (eglQueryDevicesEXT))"))
        {
            try ExtensionRequirement.check([.platformDevice, .deviceEnumeration, .deviceQuery], in: offered, of: "EGL")
        }
        #expect(throws: RenderError.unavailable(
            "the EGL display lacks EGL_KHR_surfaceless_context (needed to make a context current without a surface)"))
        {
            try ExtensionRequirement.check([.surfacelessContext], in: ExtensionSet(""), of: "the EGL display")
        }
        // Either name of an equivalent pair will do, and the message names both.
        #expect(ExtensionRequirement.firstMissing([.platformGBM], in: ExtensionSet("EGL_MESA_platform_gbm")) == nil)
        #expect(ExtensionRequirement.platformGBM.lackedBy("EGL")
            == "EGL lacks EGL_KHR_platform_gbm (or EGL_MESA_platform_gbm) (needed to open a display on a DRM render node)")
    }

    /// NVIDIA's driver behind glvnd (580, seen on an H200) offers the device functions as EGL_EXT_device_base
    /// alone: the device platform must still be tried, so the GPU is opened as an EGL device.
    @Test func theOlderDeviceBaseNameOffersEnumerationAndQuery() {
        let nvidia = ExtensionSet("EGL_EXT_platform_base EGL_EXT_device_base EGL_EXT_platform_device "
            + "EGL_KHR_client_get_all_proc_addresses EGL_EXT_client_extensions EGL_MESA_platform_surfaceless")
        #expect(ExtensionRequirement.firstMissing([.platformDevice, .deviceEnumeration, .deviceQuery], in: nvidia) == nil)
        #expect(ExtensionRequirement.firstMissing([.deviceQuery], in: ExtensionSet("EGL_EXT_device_enumeration"))
            == .deviceQuery)
    }

    @Test func mesaGetsARobustContextWithoutConfigOrSurface() throws {
        let request = try GLESContextRequest.plan(extensions: mesa, version: (1, 5))
        #expect(request.configAttributes == nil && !request.needsPbuffer)
        #expect(request.contextAttributes == [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE])
        #expect(request.robustContextAttributes == [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0,
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT, EGL_NONE,
        ])
        #expect(request.summary == "no config, surfaceless")
    }

    @Test func withoutNoConfigContextAPbufferCapableRGBA8ConfigIsChosen() throws {
        let offered = ExtensionSet("EGL_KHR_create_context EGL_KHR_surfaceless_context")
        let request = try GLESContextRequest.plan(extensions: offered, version: (1, 4))
        let config = try #require(request.configAttributes)
        func value(_ key: EGLint) -> EGLint? {
            stride(from: 0, to: config.count - 1, by: 2).first { config[$0] == key }.map { config[$0 + 1] }
        }
        #expect(value(EGL_SURFACE_TYPE) == EGL_PBUFFER_BIT)
        #expect(value(EGL_RENDERABLE_TYPE) == EGL_OPENGL_ES3_BIT)
        #expect([EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE].map(value) == [8, 8, 8, 8])
        #expect(config.last == EGL_NONE)
        #expect(!request.needsPbuffer && request.robustContextAttributes == nil)
    }

    @Test func withoutSurfacelessContextTheContextGetsAPbuffer() throws {
        let offered = ExtensionSet("EGL_KHR_create_context EGL_KHR_no_config_context")
        let request = try GLESContextRequest.plan(extensions: offered, version: (1, 4))
        #expect(request.needsPbuffer && request.configAttributes != nil)
        #expect(request.summary == "an RGBA8 GLES 3 pbuffer config, current on a 1x1 pbuffer")
    }

    @Test func anOldDisplayWithoutCreateContextNamesWhatIsMissing() throws {
        #expect(throws: RenderError.unavailable(
            "the EGL 1.4 display lacks EGL_KHR_no_config_context (or EGL_MESA_configless_context) and "
                + "EGL_KHR_create_context (needed to choose a GLES 3 config)"))
        {
            try GLESContextRequest.plan(extensions: ExtensionSet("EGL_KHR_surfaceless_context"), version: (1, 4))
        }
        // With no-config and surfaceless contexts, GLES 3 is asked for by client version alone.
        let request = try GLESContextRequest.plan(
            extensions: ExtensionSet("EGL_KHR_no_config_context EGL_KHR_surfaceless_context"), version: (1, 4))
        #expect(request.contextAttributes == [EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE])
    }

    // MARK: NVIDIA

    let nvidiaCompute = [
        "/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "/usr/share/glvnd/egl_vendor.d/50_mesa.json",
    ]

    @Test func aContainerWithoutTheGraphicsCapabilityIsNamed() throws {
        let note = try #require(NVIDIAGraphicsCheck.diagnose(
            environment: ["NVIDIA_DRIVER_CAPABILITIES": "compute,utility"], files: nvidiaCompute))
        #expect(note == "an NVIDIA driver is present (/dev/nvidia0) but its EGL library libEGL_nvidia.so is not: "
            + "NVIDIA_DRIVER_CAPABILITIES=compute,utility lacks `graphics`; start the container with "
            + "NVIDIA_DRIVER_CAPABILITIES=graphics,compute,utility (or all) to render on the GPU")
        // Libraries alone (no device nodes) are evidence too; with no capabilities variable the library is named.
        let libraries = try #require(NVIDIAGraphicsCheck.diagnose(
            environment: [:], files: ["/usr/lib64/libnvidia-eglcore.so.535.1"]))
        #expect(libraries == "an NVIDIA driver is present (/usr/lib64/libnvidia-eglcore.so.535.1) but its EGL library "
            + "libEGL_nvidia.so is not; start the container with NVIDIA_DRIVER_CAPABILITIES=graphics,compute,utility "
            + "(or all) to render on the GPU")
    }

    @Test func aWorkingOrAbsentNVIDIADriverSaysNothing() {
        let graphics = nvidiaCompute + [
            "/usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.0", "/usr/share/glvnd/egl_vendor.d/10_nvidia.json",
        ]
        for capabilities in ["graphics,compute,utility", "all", " Compute , GRAPHICS "] {
            #expect(NVIDIAGraphicsCheck.diagnose(
                environment: ["NVIDIA_DRIVER_CAPABILITIES": capabilities], files: graphics) == nil)
        }
        #expect(NVIDIAGraphicsCheck.diagnose(environment: [:], files: graphics) == nil)
        // No NVIDIA evidence at all: a Mesa-only machine, whatever the variable says.
        let mesaOnly = ["/dev/dri/renderD128", "/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0", "/dev/null"]
        #expect(NVIDIAGraphicsCheck.diagnose(environment: ["NVIDIA_DRIVER_CAPABILITIES": "compute"], files: mesaOnly)
            == nil)
        // /dev/nvidia-caps or nvidia-modeset alone are not a GPU device node.
        #expect(NVIDIAGraphicsCheck.diagnose(environment: [:], files: ["/dev/nvidia-modeset", "/dev/nvidia-caps"]) == nil)
    }

    @Test func aMissingVendorFileOrCapabilityIsNamedEvenWithTheLibrary() throws {
        let noVendor = try #require(NVIDIAGraphicsCheck.diagnose(
            environment: [:], files: nvidiaCompute + ["/usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.0"]))
        #expect(noVendor.contains("no glvnd EGL vendor file"))
        let files = nvidiaCompute + [
            "/usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.0", "/etc/glvnd/egl_vendor.d/10_nvidia.json",
        ]
        let note = try #require(NVIDIAGraphicsCheck.diagnose(
            environment: ["NVIDIA_DRIVER_CAPABILITIES": "utility"], files: files))
        #expect(note.hasPrefix("NVIDIA_DRIVER_CAPABILITIES=utility lacks `graphics` (/dev/nvidia0)"))
    }
}
