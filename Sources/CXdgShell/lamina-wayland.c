// Hand-written helpers for Lamina's Wayland output; see include/lamina-wayland.h.
#define _GNU_SOURCE
#include "lamina-wayland.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

struct wl_compositor *lamina_wl_bind_compositor(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_compositor_interface, version);
}

struct wl_shm *lamina_wl_bind_shm(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_shm_interface, version);
}

struct wl_seat *lamina_wl_bind_seat(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_seat_interface, version);
}

struct wl_output *lamina_wl_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_output_interface, version);
}

struct xdg_wm_base *lamina_wl_bind_xdg_wm_base(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &xdg_wm_base_interface, version);
}

int lamina_wl_shm_file(const char *name, int64_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int result;
    do {
        result = ftruncate(fd, size);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    // The compositor maps the file too: forbid shrinking it under its feet.
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    return fd;
}
