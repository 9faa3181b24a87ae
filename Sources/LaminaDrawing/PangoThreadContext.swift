import CCairo
import CPango
import Foundation

/// One thread's Pango font map and context. Pango font maps and contexts are not thread-safe (their font and
/// glyph caches are unlocked), and frames are made on any thread (two renderers may run at once), so each thread
/// gets its own pair, made on first use and freed when the thread ends. fontconfig (which the font maps share) is
/// thread-safe; only making a font map is serialised, because fontconfig's first initialisation is not.
///
/// The context is set up so that a layout does not depend on the pixel density it is drawn at: 72 dpi (one point
/// is one user unit, so a font size in points is its pixel size at density 1), no hinting, no metrics hinting and
/// unrounded glyph positions, and grey-scale antialiasing (a picture may be scaled or rotated, where subpixel
/// colour fringes would show). The context's matrix stays the identity: text is laid out in user space and cairo
/// rasterises the glyph outlines at the drawing's scale, so density 2 is the same shape, only sharper.
final class PangoThreadContext {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// The font options the context lays out with, also set on each cairo context that draws its layouts.
    let fontOptions: OpaquePointer

    private static let creation = NSLock()

    private init() {
        Self.creation.lock()
        fontMap = pango_cairo_font_map_new()
        Self.creation.unlock()
        pango_cairo_font_map_set_resolution(OpaquePointer(fontMap), 72)
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72)
        fontOptions = cairo_font_options_create()
        cairo_font_options_set_antialias(fontOptions, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_subpixel_order(fontOptions, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        cairo_font_options_set_hint_style(fontOptions, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(fontOptions, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, fontOptions)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        cairo_font_options_destroy(fontOptions)
    }

    /// The calling thread's context (made on first use). Must not be handed to another thread, nor anything made
    /// with it (layouts): use it within one call.
    static var current: PangoThreadContext {
        if let stored = pthread_getspecific(key) {
            return Unmanaged<PangoThreadContext>.fromOpaque(stored).takeUnretainedValue()
        }
        let made = PangoThreadContext()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The thread-local slot; its destructor releases a thread's context when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { stored in
            if let stored { Unmanaged<PangoThreadContext>.fromOpaque(stored).release() }
        }
        return key
    }()
}
