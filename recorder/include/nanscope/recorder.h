/* SPDX-License-Identifier: Apache-2.0 */
/* NaNscope's recorder for C and for other languages' foreign-function interfaces.
 *
 * Every function returns NANSCOPE_OK (0) or an error code; nanscope_last_error() returns the
 * message of the latest error on the calling thread. Strings are UTF-8 and NUL-terminated.
 */
#ifndef NANSCOPE_RECORDER_H
#define NANSCOPE_RECORDER_H

#include "nanscope/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nanscope_status {
    NANSCOPE_OK = 0,
    NANSCOPE_INVALID_ARGUMENT = 1,
    NANSCOPE_NOT_FOUND = 2,
    NANSCOPE_ALREADY_EXISTS = 3,
    NANSCOPE_IO_ERROR = 4,
    NANSCOPE_CLOSED = 5,
    NANSCOPE_UNSUPPORTED = 6,
    NANSCOPE_NONFINITE = 7 /* stopped at the first non-finite value (nanscope_open_stopping) */
};

/* Tensor debug modes, numbered as in tfdbg2. */
enum nanscope_mode {
    NANSCOPE_NO_TENSOR = 1,
    NANSCOPE_CURT_HEALTH = 2,
    NANSCOPE_CONCISE_HEALTH = 3,
    NANSCOPE_FULL_HEALTH = 4,
    NANSCOPE_SHAPE = 5,
    NANSCOPE_FULL_TENSOR = 7
};

/* Element types, numbered as TensorFlow's DataType. */
enum nanscope_dtype {
    NANSCOPE_FLOAT32 = 1,
    NANSCOPE_FLOAT64 = 2,
    NANSCOPE_INT32 = 3,
    NANSCOPE_UINT8 = 4,
    NANSCOPE_INT16 = 5,
    NANSCOPE_INT8 = 6,
    NANSCOPE_INT64 = 9,
    NANSCOPE_BOOL = 10,
    NANSCOPE_BFLOAT16 = 14,
    NANSCOPE_UINT16 = 17,
    NANSCOPE_FLOAT16 = 19,
    NANSCOPE_UINT32 = 22,
    NANSCOPE_UINT64 = 23
};

typedef struct nanscope_recorder nanscope_recorder;
typedef struct nanscope_graph nanscope_graph; /* owned by the recorder */
typedef struct nanscope_op nanscope_op;       /* owned by the recorder */

typedef struct nanscope_options
{
    const char* dump_root;
    int tensor_debug_mode;     /* enum nanscope_mode */
    int circular_buffer_size;  /* <= 0: write every event as it comes */
    const char* op_type_regex; /* NULL: every op; ECMAScript; see opTypeRegex in recorder.hpp */
    const int* tensor_dtypes;  /* NULL: every type the mode supports */
    size_t num_tensor_dtypes;
    const char* run_id;    /* NULL: random */
    const char* host_name; /* NULL: this machine's */
    int flush_interval_ms;
    int capture_native_stacks;
} nanscope_options;

typedef struct nanscope_tensor
{
    const void* data;
    int dtype; /* enum nanscope_dtype */
    const int64_t* shape;
    size_t rank;
} nanscope_tensor;

/* A code location; any field may be NULL/0. */
typedef struct nanscope_location
{
    const char* file;
    int line;
    const char* function;
} nanscope_location;

/* Fills `options` with the defaults (NO_TENSOR, circular buffer of 1000). */
NANSCOPE_API void nanscope_options_init(nanscope_options* options);

NANSCOPE_API int nanscope_open(const nanscope_options* options, nanscope_recorder** out);

/* Called once when a recording stops, after the files were synced; `message` names the op. */
typedef void (*nanscope_stop_callback)(const char* message, void* user_data);

/* Stopping at the first non-finite value that is not intended (stopAtFirstNonFinite in
 * recorder.hpp says which values are): from then on every recording call returns
 * NANSCOPE_NONFINITE, with the stop's message in nanscope_last_error(). */
typedef struct nanscope_stop_options
{
    const char* const* expected_nonfinite; /* OP[:KINDS] patterns, e.g. "aten::log:-inf" */
    size_t num_expected_nonfinite;
    int stop_lag_events; /* device tensors: events a stop may come late; 0 waits per call */
    nanscope_stop_callback on_stop; /* may be NULL */
    void* user_data;
} nanscope_stop_options;

/* Fills `options` with the defaults (no patterns, a lag of 64 events, no callback). */
NANSCOPE_API void nanscope_stop_options_init(nanscope_stop_options* options);
/* nanscope_open, stopping at the first non-finite value when `stop` is not NULL. */
NANSCOPE_API int nanscope_open_stopping(const nanscope_options* options,
                                        const nanscope_stop_options* stop, nanscope_recorder** out);
/* Flushes, closes and frees; the graphs and ops of the recorder are freed with it. */
NANSCOPE_API int nanscope_close(nanscope_recorder* recorder);
NANSCOPE_API int nanscope_flush(nanscope_recorder* recorder);

/* `outer` may be NULL; `name` may be NULL or empty for an unnamed graph. */
NANSCOPE_API int nanscope_declare_graph(nanscope_recorder* recorder, const char* name,
                                        const nanscope_graph* outer, const nanscope_graph** out);
NANSCOPE_API const char* nanscope_graph_id(const nanscope_graph* graph);

NANSCOPE_API int nanscope_declare_op(nanscope_recorder* recorder, const nanscope_graph* graph,
                                     const char* op_type, const char* op_name,
                                     const char* const* inputs, size_t num_inputs, int num_outputs,
                                     nanscope_location where, const nanscope_op** out);
NANSCOPE_API int32_t nanscope_op_output_tensor_id(const nanscope_op* op, int slot);

NANSCOPE_API int nanscope_record_trace(nanscope_recorder* recorder, const nanscope_op* op, int slot,
                                       nanscope_tensor tensor);

/* `graph` is the called function's graph, or NULL for a plain op. */
NANSCOPE_API int nanscope_record_execution(nanscope_recorder* recorder, const char* op_type,
                                           const nanscope_graph* graph, const int64_t* input_ids,
                                           size_t num_inputs, const int64_t* output_ids,
                                           const nanscope_tensor* outputs, size_t num_outputs,
                                           nanscope_location where);

NANSCOPE_API int64_t nanscope_new_tensor_id(nanscope_recorder* recorder);

/* The message of the latest error on this thread ("" if none). */
NANSCOPE_API const char* nanscope_last_error(void);

/* The recorder's version string, e.g. "NaNscope 0.1.0". */
NANSCOPE_API const char* nanscope_version(void);

#ifdef __cplusplus
}
#endif

#endif /* NANSCOPE_RECORDER_H */
