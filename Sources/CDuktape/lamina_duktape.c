// Debian's Duktape (duktape-dev: /usr/share/duktape) compiled for Lamina's expressions (docs/expressions.md).
//
// The amalgamation is built here rather than linked from Debian's libduktape because that build has no execution
// timeout hook. duk_config.h is included first, so its include guard (DUK_CONFIG_H_INCLUDED) makes the copy
// duktape.c includes a no-op and the definitions below stay in force; only configuration changes, never
// Duktape's source:
// - DUK_USE_INTERRUPT_COUNTER + DUK_USE_EXEC_TIMEOUT_CHECK: the bytecode executor asks lamina_duk_timed_out
//   every 256 Ki instructions, which compares a monotonic clock to the evaluation's deadline.
// - DUK_USE_FATAL_HANDLER: fatal errors without a heap-level handler longjmp out of the evaluation too.
// - Lower recursion limits (compiler, JSON, CBOR, native calls), so deep nesting ends in an error well within
//   a 512 KiB thread stack.
#define DUK_COMPILING_DUKTAPE
#include "/usr/share/duktape/duk_config.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int lamina_duk_timed_out(void *udata);
static void lamina_duk_fatal(void *udata, const char *message) __attribute__((noreturn));

#undef DUK_USE_INTERRUPT_COUNTER
#define DUK_USE_INTERRUPT_COUNTER
#undef DUK_USE_EXEC_TIMEOUT_CHECK
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) lamina_duk_timed_out(udata)
#undef DUK_USE_FATAL_HANDLER
#define DUK_USE_FATAL_HANDLER(udata, msg) lamina_duk_fatal((udata), (msg))
#undef DUK_USE_COMPILER_RECLIMIT
#define DUK_USE_COMPILER_RECLIMIT 250
#undef DUK_USE_JSON_DEC_RECLIMIT
#define DUK_USE_JSON_DEC_RECLIMIT 250
#undef DUK_USE_JSON_ENC_RECLIMIT
#define DUK_USE_JSON_ENC_RECLIMIT 250
#undef DUK_USE_CBOR_DEC_RECLIMIT
#define DUK_USE_CBOR_DEC_RECLIMIT 250
#undef DUK_USE_CBOR_ENC_RECLIMIT
#define DUK_USE_CBOR_ENC_RECLIMIT 250
#undef DUK_USE_NATIVE_CALL_RECLIMIT
#define DUK_USE_NATIVE_CALL_RECLIMIT 200

#include "/usr/share/duktape/duktape.c"

#include "CDuktape.h"

static void lamina_global_table(duk_context *ctx, duk_uint32_t *entries, duk_uint32_t *array);

// Every block carries this header: its size for the byte count, and links so that a heap abandoned after a
// fatal error can be freed without asking Duktape.
typedef struct lamina_block {
    size_t size;
    struct lamina_block *prev, *next;
    size_t pad;
} lamina_block;

#define LAMINA_SCRATCH 4096

struct lamina_duk {
    duk_context *ctx;
    size_t allocated, limit;
    lamina_block blocks;  // sentinel of the list of live blocks
    int refused;          // an allocation was refused during this call
    int timing, timed_out;
    struct timespec deadline;
    jmp_buf fatal_jump;
    const char *fatal_message;
    const lamina_duk_host *host;
    int cached;
    size_t baseline;  // the bytes after the prelude
    duk_uint32_t global_entries, global_array;  // the global object's property table after the last cleanup
    int tainted;  // the last cleanup could not make the environment the builtins' alone again
    double scratch[LAMINA_SCRATCH];
    char name_scratch[1024];
};

static _Thread_local lamina_duk *lamina_current;

static void *lamina_alloc(void *udata, duk_size_t size) {
    lamina_duk *heap = udata;
    if (size > heap->limit - heap->allocated || size > SIZE_MAX - sizeof(lamina_block)) {
        heap->refused = 1;
        return NULL;
    }
    lamina_block *block = malloc(sizeof(lamina_block) + size);
    if (!block) {
        heap->refused = 1;
        return NULL;
    }
    block->size = size;
    block->prev = &heap->blocks;
    block->next = heap->blocks.next;
    heap->blocks.next->prev = block;
    heap->blocks.next = block;
    heap->allocated += size;
    return block + 1;
}

static void lamina_free(void *udata, void *pointer) {
    if (!pointer) return;
    lamina_duk *heap = udata;
    lamina_block *block = (lamina_block *)pointer - 1;
    block->prev->next = block->next;
    block->next->prev = block->prev;
    heap->allocated -= block->size;
    free(block);
}

static void *lamina_realloc(void *udata, void *pointer, duk_size_t size) {
    lamina_duk *heap = udata;
    if (!pointer) return size ? lamina_alloc(udata, size) : NULL;
    if (size == 0) {
        lamina_free(udata, pointer);
        return NULL;
    }
    lamina_block *block = (lamina_block *)pointer - 1;
    size_t old = block->size;
    if ((size > old && size - old > heap->limit - heap->allocated) || size > SIZE_MAX - sizeof(lamina_block)) {
        heap->refused = 1;
        return NULL;
    }
    lamina_block *prev = block->prev, *next = block->next;
    lamina_block *moved = realloc(block, sizeof(lamina_block) + size);
    if (!moved) {
        heap->refused = 1;
        return NULL;
    }
    moved->size = size;
    prev->next = moved;
    next->prev = moved;
    heap->allocated = heap->allocated - old + size;
    return moved + 1;
}

static int lamina_duk_timed_out(void *udata) {
    lamina_duk *heap = udata;
    if (!heap || !heap->timing) return 0;
    if (heap->timed_out) return 1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > heap->deadline.tv_sec ||
        (now.tv_sec == heap->deadline.tv_sec && now.tv_nsec >= heap->deadline.tv_nsec)) {
        heap->timed_out = 1;
        return 1;
    }
    return 0;
}

static void lamina_duk_fatal(void *udata, const char *message) {
    lamina_duk *heap = udata ? (lamina_duk *)udata : lamina_current;
    if (heap) {
        heap->fatal_message = message;
        longjmp(heap->fatal_jump, 1);
    }
    // Unreachable: every Duktape call runs inside lamina_duk_create or lamina_duk_evaluate, which set
    // lamina_current. There is nowhere to return to.
    abort();
}

static void lamina_copy(char *out, size_t capacity, const char *text) {
    if (!out || capacity == 0) return;
    size_t length = text ? strlen(text) : 0;
    if (length >= capacity) length = capacity - 1;
    if (length) memcpy(out, text, length);
    out[length] = 0;
}

// MARK: The native bridge the prelude receives.

static void lamina_push_numbers(duk_context *ctx, const double *numbers, int count) {
    duk_push_array(ctx);
    for (int i = 0; i < count; i++) {
        duk_push_number(ctx, numbers[i]);
        duk_put_prop_index(ctx, -2, (duk_uarridx_t)i);
    }
}

static lamina_duk *lamina_heap_of(duk_context *ctx) {
    duk_memory_functions functions;
    duk_get_memory_functions(ctx, &functions);
    return functions.udata;
}

static int lamina_clamp_count(int count) { return count > LAMINA_SCRATCH ? LAMINA_SCRATCH : count; }

static duk_ret_t lamina_native_value_at(duk_context *ctx) {
    lamina_duk *heap = lamina_heap_of(ctx);
    double time = duk_to_number(ctx, 0);
    if (!heap->host || !heap->host->value_at) return 0;
    int count = heap->host->value_at(heap->host->user, time, heap->scratch, LAMINA_SCRATCH);
    if (count < 0) return 0;
    lamina_push_numbers(ctx, heap->scratch, lamina_clamp_count(count));
    return 1;
}

static duk_ret_t lamina_native_key_times(duk_context *ctx) {
    lamina_duk *heap = lamina_heap_of(ctx);
    int count = 0;
    if (heap->host && heap->host->key_times) count = heap->host->key_times(heap->host->user, heap->scratch, LAMINA_SCRATCH);
    lamina_push_numbers(ctx, heap->scratch, count < 0 ? 0 : lamina_clamp_count(count));
    return 1;
}

// layer(byIndex, reference, property, time)
static duk_ret_t lamina_native_layer(duk_context *ctx) {
    lamina_duk *heap = lamina_heap_of(ctx);
    int by_index = duk_to_boolean(ctx, 0);
    int index = 0;
    const char *name = NULL;
    duk_size_t name_length = 0;
    if (by_index) index = duk_to_int(ctx, 1); else name = duk_to_lstring(ctx, 1, &name_length);
    const char *property = duk_to_string(ctx, 2);
    double time = duk_to_number(ctx, 3);
    if (!heap->host || !heap->host->layer_property) return 0;
    int count = heap->host->layer_property(heap->host->user, by_index, index, name, name_length, property, time,
                                           heap->scratch, LAMINA_SCRATCH);
    if (count < 0) return 0;
    lamina_push_numbers(ctx, heap->scratch, lamina_clamp_count(count));
    return 1;
}

// layerName(byIndex, reference)
static duk_ret_t lamina_native_layer_name(duk_context *ctx) {
    lamina_duk *heap = lamina_heap_of(ctx);
    int by_index = duk_to_boolean(ctx, 0);
    int index = 0;
    const char *name = NULL;
    duk_size_t name_length = 0;
    if (by_index) index = duk_to_int(ctx, 1); else name = duk_to_lstring(ctx, 1, &name_length);
    if (!heap->host || !heap->host->layer_name) return 0;
    int length = heap->host->layer_name(heap->host->user, by_index, index, name, name_length, heap->name_scratch,
                                        (int)sizeof heap->name_scratch);
    if (length < 0) return 0;
    if (length > (int)sizeof heap->name_scratch) length = (int)sizeof heap->name_scratch;
    duk_push_lstring(ctx, heap->name_scratch, (duk_size_t)length);
    return 1;
}

// MARK: Making the heap.

typedef struct {
    const char *prelude;
    size_t prelude_length;
} lamina_setup_args;

static duk_ret_t lamina_setup(duk_context *ctx, void *udata) {
    lamina_setup_args *args = udata;
    duk_push_lstring(ctx, args->prelude, args->prelude_length);
    duk_push_string(ctx, "prelude");
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0);  // the prelude's value: function (native) { ...; return {begin, end}; }
    duk_push_object(ctx);
    duk_push_c_function(ctx, lamina_native_value_at, 1);
    duk_put_prop_string(ctx, -2, "valueAt");
    duk_push_c_function(ctx, lamina_native_key_times, 0);
    duk_put_prop_string(ctx, -2, "keyTimes");
    duk_push_c_function(ctx, lamina_native_layer, 4);
    duk_put_prop_string(ctx, -2, "layer");
    duk_push_c_function(ctx, lamina_native_layer_name, 2);
    duk_put_prop_string(ctx, -2, "layerName");
    duk_call(ctx, 1);
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -2, "begin");
    duk_put_prop_string(ctx, -2, "begin");
    duk_get_prop_string(ctx, -2, "end");
    duk_put_prop_string(ctx, -2, "end");
    duk_get_prop_string(ctx, -2, "cleanup");
    duk_put_prop_string(ctx, -2, "cleanup");
    duk_push_bare_object(ctx);  // no prototype: sources such as "toString" or "__proto__" are keys like any other
    duk_put_prop_string(ctx, -2, "cache");
    return 0;
}

lamina_duk *lamina_duk_create(size_t memory_limit, const char *prelude, size_t prelude_length, char *message,
                              size_t message_capacity) {
    lamina_duk *heap = calloc(1, sizeof *heap);
    if (!heap) {
        lamina_copy(message, message_capacity, "out of memory");
        return NULL;
    }
    heap->limit = memory_limit;
    heap->blocks.prev = heap->blocks.next = &heap->blocks;
    lamina_duk *volatile saved = lamina_current;
    lamina_current = heap;
    if (setjmp(heap->fatal_jump)) {
        lamina_current = saved;
        lamina_copy(message, message_capacity, heap->fatal_message ? heap->fatal_message : "fatal error");
        heap->ctx = NULL;
        lamina_duk_destroy(heap);
        return NULL;
    }
    heap->ctx = duk_create_heap(lamina_alloc, lamina_realloc, lamina_free, heap, lamina_duk_fatal);
    if (!heap->ctx) {
        lamina_current = saved;
        lamina_copy(message, message_capacity, "Duktape could not make a heap within the memory limit");
        lamina_duk_destroy(heap);
        return NULL;
    }
    lamina_setup_args args = {prelude, prelude_length};
    if (duk_safe_call(heap->ctx, lamina_setup, &args, 0, 1) != DUK_EXEC_SUCCESS) {
        lamina_copy(message, message_capacity, duk_safe_to_string(heap->ctx, -1));
        lamina_current = saved;
        lamina_duk_destroy(heap);
        return NULL;
    }
    duk_set_top(heap->ctx, 0);
    duk_gc(heap->ctx, 0);
    heap->baseline = heap->allocated;
    lamina_global_table(heap->ctx, &heap->global_entries, &heap->global_array);
    lamina_current = saved;
    return heap;
}

void lamina_duk_destroy(lamina_duk *heap) {
    if (!heap) return;
    if (heap->ctx) {
        lamina_duk *volatile saved = lamina_current;
        lamina_current = heap;
        if (setjmp(heap->fatal_jump) == 0) duk_destroy_heap(heap->ctx);
        lamina_current = saved;
        heap->ctx = NULL;
    }
    // Whatever is still listed (after a fatal error: everything) goes without Duktape.
    while (heap->blocks.next != &heap->blocks) {
        lamina_block *block = heap->blocks.next;
        heap->blocks.next = block->next;
        free(block);
    }
    free(heap);
}

int lamina_duk_tainted(const lamina_duk *heap) { return heap ? heap->tainted : 0; }

size_t lamina_duk_allocated(const lamina_duk *heap) { return heap ? heap->allocated : 0; }
int lamina_duk_cached(const lamina_duk *heap) { return heap ? heap->cached : 0; }

// MARK: Evaluating.

enum { LAMINA_STAGE_COMPILE, LAMINA_STAGE_RUN, LAMINA_STAGE_RESULT };

typedef struct {
    lamina_duk *heap;
    const char *source;
    size_t source_length;
    const double *context;
    const char *layer_name, *property_name;
    size_t layer_name_length, property_name_length;
    const double *value;
    int value_count;
    double *out;
    int out_capacity, out_count;
    int stage;
    int bad_result;
    char bad_message[160];
} lamina_eval_args;

static const char *lamina_describe(duk_context *ctx, duk_idx_t index) {
    switch (duk_get_type(ctx, index)) {
    case DUK_TYPE_UNDEFINED: return "undefined";
    case DUK_TYPE_NULL: return "null";
    case DUK_TYPE_STRING: return "a string";
    case DUK_TYPE_OBJECT:
        if (duk_is_array(ctx, index)) return "an array";
        if (duk_is_function(ctx, index)) return "a function";
        return "an object";
    case DUK_TYPE_BUFFER: return "a buffer";
    case DUK_TYPE_POINTER: return "a pointer";
    case DUK_TYPE_LIGHTFUNC: return "a function";
    default: return "a value of no known type";
    }
}

// The number at `index`, or 0 with `*ok` cleared and the reason in args.
static int lamina_take_number(duk_context *ctx, duk_idx_t index, double *out, lamina_eval_args *args, long element) {
    if (duk_is_boolean(ctx, index)) {
        *out = duk_get_boolean(ctx, index) ? 1 : 0;
        return 1;
    }
    if (duk_is_number(ctx, index)) {
        double number = duk_get_number(ctx, index);
        if (number != number || number - number != 0) {
            if (element < 0) snprintf(args->bad_message, sizeof args->bad_message, "the result is %s, not a finite number",
                                      number != number ? "NaN" : "infinite");
            else snprintf(args->bad_message, sizeof args->bad_message, "element %ld of the result is %s, not a finite number",
                          element, number != number ? "NaN" : "infinite");
            return 0;
        }
        *out = number;
        return 1;
    }
    if (element < 0)
        snprintf(args->bad_message, sizeof args->bad_message, "the result is %s, not a number or an array of numbers",
                 lamina_describe(ctx, index));
    else
        snprintf(args->bad_message, sizeof args->bad_message, "element %ld of the result is %s, not a number", element,
                 lamina_describe(ctx, index));
    return 0;
}

static duk_ret_t lamina_eval_call(duk_context *ctx, void *udata) {
    lamina_eval_args *args = udata;
    lamina_duk *heap = args->heap;
    args->stage = LAMINA_STAGE_COMPILE;
    duk_push_global_stash(ctx);                       // 0 stash
    duk_get_prop_string(ctx, 0, "cache");             // 1 cache
    duk_push_lstring(ctx, args->source, args->source_length);  // 2 source
    duk_dup(ctx, 2);
    duk_get_prop(ctx, 1);                             // 3 function or undefined
    if (!duk_is_function(ctx, 3)) {
        duk_pop(ctx);
        if (heap->cached >= 256) {  // a fresh cache once it holds many sources
            duk_push_bare_object(ctx);
            duk_put_prop_string(ctx, 0, "cache");
            duk_get_prop_string(ctx, 0, "cache");
            duk_replace(ctx, 1);
            heap->cached = 0;
        }
        duk_dup(ctx, 2);
        duk_push_string(ctx, "expression");
        duk_compile(ctx, DUK_COMPILE_EVAL);           // 3 function
        duk_dup(ctx, 2);
        duk_dup(ctx, 3);
        duk_put_prop(ctx, 1);
        heap->cached++;
    }
    args->stage = LAMINA_STAGE_RUN;
    duk_get_prop_string(ctx, 0, "begin");             // begin(context..., layerName, propertyName, value)
    for (int i = 0; i < LAMINA_DUK_CTX_COUNT; i++) duk_push_number(ctx, args->context[i]);
    duk_push_lstring(ctx, args->layer_name ? args->layer_name : "", args->layer_name_length);
    duk_push_lstring(ctx, args->property_name ? args->property_name : "", args->property_name_length);
    lamina_push_numbers(ctx, args->value, args->value_count);
    duk_call(ctx, LAMINA_DUK_CTX_COUNT + 3);
    duk_pop(ctx);
    duk_dup(ctx, 3);
    duk_call(ctx, 0);                                 // 4 completion value
    duk_get_prop_string(ctx, 0, "end");
    duk_dup(ctx, 4);
    duk_call(ctx, 1);                                 // 5 result
    args->stage = LAMINA_STAGE_RESULT;
    if (duk_is_array(ctx, 5)) {
        duk_get_prop_string(ctx, 5, "length");
        double length = duk_to_number(ctx, -1);
        duk_pop(ctx);
        if (length < 1 || length > args->out_capacity) {
            snprintf(args->bad_message, sizeof args->bad_message,
                     "the result is an array of %.0f elements, not 1 to %d numbers", length, args->out_capacity);
            args->bad_result = 1;
            return 0;
        }
        int count = (int)length;
        for (int i = 0; i < count; i++) {
            duk_get_prop_index(ctx, 5, (duk_uarridx_t)i);
            if (!lamina_take_number(ctx, -1, &args->out[i], args, i)) {
                args->bad_result = 1;
                return 0;
            }
            duk_pop(ctx);
        }
        args->out_count = count;
    } else {
        if (!lamina_take_number(ctx, 5, &args->out[0], args, -1)) {
            args->bad_result = 1;
            return 0;
        }
        args->out_count = 1;
    }
    return 0;
}

// Whether the global object's property table has grown since the last cleanup: Duktape appends new properties
// at e_next (deleted ones leave holes until the table is compacted) and grows the array part for indices.
static void lamina_global_table(duk_context *ctx, duk_uint32_t *entries, duk_uint32_t *array) {
    duk_hobject *global = ((duk_hthread *)ctx)->builtins[DUK_BIDX_GLOBAL];
    *entries = (duk_uint32_t)DUK_HOBJECT_GET_ENEXT(global);
    *array = (duk_uint32_t)DUK_HOBJECT_GET_ASIZE(global);
}

static duk_ret_t lamina_cleanup(duk_context *ctx, void *udata) {
    lamina_duk *heap = udata;
    duk_uint32_t entries, array;
    lamina_global_table(ctx, &entries, &array);
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -1, "cleanup");
    duk_push_boolean(ctx, entries != heap->global_entries || array != heap->global_array);
    duk_call(ctx, 1);
    heap->tainted = duk_get_boolean(ctx, -1) ? 1 : 0;
    lamina_global_table(ctx, &heap->global_entries, &heap->global_array);
    return 0;
}

// The error's text with its line, as "ReferenceError: identifier 'x' undefined (line 2)".
static duk_ret_t lamina_error_text(duk_context *ctx, void *udata) {
    (void)udata;
    duk_idx_t error = duk_get_top_index(ctx);
    const char *text = duk_safe_to_string(ctx, error);  // replaces the error with its text
    (void)text;
    return 1;
}

int lamina_duk_evaluate(lamina_duk *heap, const char *source, size_t source_length, double timeout_seconds,
                        const lamina_duk_host *host, const double *context, const char *layer_name,
                        size_t layer_name_length, const char *property_name, size_t property_name_length,
                        const double *value, int value_count, double *out, int out_capacity, int *out_count,
                        char *message, size_t message_capacity) {
    *out_count = 0;
    lamina_copy(message, message_capacity, "");
    if (!heap || !heap->ctx) {
        lamina_copy(message, message_capacity, "the heap is gone");
        return LAMINA_DUK_DEAD;
    }
    duk_context *ctx = heap->ctx;
    lamina_eval_args args;
    memset(&args, 0, sizeof args);
    args.heap = heap;
    args.source = source;
    args.source_length = source_length;
    args.context = context;
    args.layer_name = layer_name;
    args.layer_name_length = layer_name_length;
    args.property_name = property_name;
    args.property_name_length = property_name_length;
    args.value = value;
    args.value_count = value_count;
    args.out = out;
    args.out_capacity = out_capacity;

    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!(timeout_seconds >= 0)) timeout_seconds = 0;
    if (timeout_seconds > 86400) timeout_seconds = 86400;
    long long nanoseconds = (long long)(timeout_seconds * 1e9);
    heap->deadline.tv_sec = now.tv_sec + (time_t)(nanoseconds / 1000000000LL);
    heap->deadline.tv_nsec = now.tv_nsec + (long)(nanoseconds % 1000000000LL);
    if (heap->deadline.tv_nsec >= 1000000000L) {
        heap->deadline.tv_sec += 1;
        heap->deadline.tv_nsec -= 1000000000L;
    }
    heap->host = host;
    heap->refused = 0;
    heap->timed_out = 0;
    heap->timing = 1;
    lamina_duk *volatile saved = lamina_current;
    lamina_current = heap;
    if (setjmp(heap->fatal_jump)) {
        // Duktape's state is unknown now: the caller destroys the heap (its blocks are freed from the list).
        lamina_current = saved;
        heap->timing = 0;
        heap->host = NULL;
        snprintf(message, message_capacity, "Duktape fatal error: %s", heap->fatal_message ? heap->fatal_message : "?");
        duk_context *dead = heap->ctx;
        (void)dead;
        heap->ctx = NULL;
        return LAMINA_DUK_DEAD;
    }
    int status = duk_safe_call(ctx, lamina_eval_call, &args, 0, 1);
    int code = LAMINA_DUK_OK;
    if (status != DUK_EXEC_SUCCESS) {
        int timed_out = heap->timed_out;
        // The message needs Duktape to run (the thrown value's toString, which may be the expression's own):
        // under a deadline of its own, 10 ms at most.
        double grace = timeout_seconds < 0.01 ? timeout_seconds : 0.01;
        clock_gettime(CLOCK_MONOTONIC, &now);
        heap->deadline.tv_sec = now.tv_sec;
        heap->deadline.tv_nsec = now.tv_nsec + (long)(grace * 1e9);
        if (heap->deadline.tv_nsec >= 1000000000L) {
            heap->deadline.tv_sec += 1;
            heap->deadline.tv_nsec -= 1000000000L;
        }
        heap->timed_out = 0;
        if (duk_safe_call(ctx, lamina_error_text, NULL, 1, 1) == DUK_EXEC_SUCCESS && duk_is_string(ctx, -1))
            lamina_copy(message, message_capacity, duk_get_string(ctx, -1));
        else
            lamina_copy(message, message_capacity, "an error that has no message");
        if (timed_out || heap->timed_out) code = LAMINA_DUK_TIMEOUT;
        else if (heap->refused) code = LAMINA_DUK_MEMORY;
        else if (args.stage == LAMINA_STAGE_COMPILE) code = LAMINA_DUK_SYNTAX;
        else code = LAMINA_DUK_RUNTIME;
    } else if (args.bad_result) {
        code = LAMINA_DUK_BAD_RESULT;
        lamina_copy(message, message_capacity, args.bad_message);
    } else {
        *out_count = args.out_count;
    }
    heap->timing = 0;
    heap->host = NULL;
    duk_set_top(ctx, 0);
    // Housekeeping outside the deadline, so that one expression's leftovers do not cost the next one time: the
    // globals it made go (no expression code runs in that), and its garbage when there is much of it.
    // An environment it cannot reset (tainted) is thrown away by the caller: the next evaluation starts afresh.
    heap->tainted = 0;
    if (duk_safe_call(ctx, lamina_cleanup, heap, 0, 1) != DUK_EXEC_SUCCESS) {
        heap->tainted = 1;
        if (code == LAMINA_DUK_OK) {
            code = heap->refused ? LAMINA_DUK_MEMORY : LAMINA_DUK_RUNTIME;
            lamina_copy(message, message_capacity, "the environment could not be reset after the expression");
        }
    }
    duk_set_top(ctx, 0);
    if (code == LAMINA_DUK_TIMEOUT || heap->allocated > heap->baseline + heap->limit / 16) duk_gc(ctx, 0);
    lamina_current = saved;
    return code;
}
