// Small helpers for Lamina's Wayland output (Sources/LaminaDisplay/WaylandOutput*.swift), written by hand.
//
// Swift imports the static inline request functions of wayland-client-protocol.h and the generated
// xdg-shell-client-protocol.h, but it cannot take the address of a C `const struct wl_interface` global (it would
// pass the address of a copy, which libwayland keeps in the new proxy), so binding a global goes through these.
#pragma once
#include <stdint.h>
#include "wayland-client.h"
#include "xdg-shell-client-protocol.h"

struct wl_compositor *lamina_wl_bind_compositor(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wl_shm *lamina_wl_bind_shm(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wl_seat *lamina_wl_bind_seat(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wl_output *lamina_wl_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version);
struct xdg_wm_base *lamina_wl_bind_xdg_wm_base(struct wl_registry *registry, uint32_t name, uint32_t version);

/// An anonymous shared-memory file of `size` bytes for wl_shm (memfd_create, which Swift's Glibc does not
/// declare without _GNU_SOURCE), close-on-exec; -1 with errno set on failure.
int lamina_wl_shm_file(const char *name, int64_t size);
