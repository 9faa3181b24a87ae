// libwayland-client (the core protocol: wl_display, wl_registry, wl_compositor, wl_shm, wl_seat, wl_output and
// their static inline request functions, which Swift imports) and wl_egl_window for EGL's Wayland platform.
#include <wayland-client.h>
#include <wayland-egl.h>
