// Lamina's sandboxed Duktape heap (docs/expressions.md): Debian's Duktape amalgamation compiled with an
// execution deadline, a byte-counting allocator and a fatal handler that never aborts the process. Only this
// small interface is visible to Swift; Duktape's own API stays inside lamina_duktape.c.
#ifndef LAMINA_CDUKTAPE_H
#define LAMINA_CDUKTAPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lamina_duk lamina_duk;

/// The property and comp the running expression asks about. Every function fills `out` with at most
/// `capacity` numbers and returns how many the answer has (more than `capacity`: the rest is dropped), or -1
/// for "there is none".
typedef struct lamina_duk_host {
    void *user;
    int (*value_at)(void *user, double time, double *out, int capacity);
    int (*key_times)(void *user, double *out, int capacity);
    /// `by_index` non-zero: the layer is `index` (1-based); else the layer named `name` (`name_length` bytes).
    int (*layer_property)(void *user, int by_index, int index, const char *name, size_t name_length,
                          const char *property, double time, double *out, int capacity);
    /// A layer's name into `out` (UTF-8, no terminator), its length, or -1 when unknown.
    int (*layer_name)(void *user, int by_index, int index, const char *name, size_t name_length,
                      char *out, int capacity);
} lamina_duk_host;

enum {
    LAMINA_DUK_OK = 0,
    LAMINA_DUK_SYNTAX = 1,
    LAMINA_DUK_RUNTIME = 2,
    LAMINA_DUK_TIMEOUT = 3,
    LAMINA_DUK_MEMORY = 4,
    LAMINA_DUK_BAD_RESULT = 5,
    /// Duktape called its fatal handler: the heap is abandoned and must be destroyed and made again.
    LAMINA_DUK_DEAD = 6,
};

/// The numbers of `lamina_duk_evaluate`'s `context` argument, in this order.
enum {
    LAMINA_DUK_CTX_TIME = 0, LAMINA_DUK_CTX_FRAME_RATE, LAMINA_DUK_CTX_COMP_WIDTH, LAMINA_DUK_CTX_COMP_HEIGHT,
    LAMINA_DUK_CTX_COMP_DURATION, LAMINA_DUK_CTX_LAYER_INDEX, LAMINA_DUK_CTX_IN_POINT, LAMINA_DUK_CTX_OUT_POINT,
    LAMINA_DUK_CTX_NUM_LAYERS, LAMINA_DUK_CTX_COUNT
};

/// A heap limited to `memory_limit` bytes that has run `prelude` (a function expression taking the native
/// bridge and returning the evaluation hooks). NULL when that fails; `message` then says why.
lamina_duk *lamina_duk_create(size_t memory_limit, const char *prelude, size_t prelude_length,
                              char *message, size_t message_capacity);
void lamina_duk_destroy(lamina_duk *heap);
/// The bytes the heap holds now.
size_t lamina_duk_allocated(const lamina_duk *heap);
/// How many compiled expressions the heap caches.
int lamina_duk_cached(const lamina_duk *heap);
/// Non-zero when the last evaluation left something behind that cannot be undone (a global that cannot be deleted,
/// `time` made read-only): the caller destroys the heap, so that the next evaluation sees the builtins alone.
int lamina_duk_tainted(const lamina_duk *heap);

/// Compiles `source` (once: the compiled function is cached in the heap by its text) and runs it within
/// `timeout_seconds`. On LAMINA_DUK_OK `out` holds `*out_count` numbers; otherwise `message` says what happened.
int lamina_duk_evaluate(lamina_duk *heap, const char *source, size_t source_length, double timeout_seconds,
                        const lamina_duk_host *host, const double *context, const char *layer_name,
                        size_t layer_name_length, const char *property_name, size_t property_name_length,
                        const double *value, int value_count, double *out, int out_capacity, int *out_count,
                        char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif
#endif
