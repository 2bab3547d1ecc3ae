/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A C program's use of the recorder: compiled as C, so the header is checked as C too. */
#include "nanscope/recorder.h"

#include <math.h>
#include <string.h>

/* Returns 0 when every call behaved; otherwise the number of the failed step. */
int nanscope_c_client(const char* dump_root)
{
    nanscope_options options;
    nanscope_options_init(&options);
    options.dump_root = dump_root;
    options.tensor_debug_mode = NANSCOPE_CONCISE_HEALTH;
    options.circular_buffer_size = -1;
    options.run_id = "c-client";

    nanscope_recorder* recorder = 0;
    if (nanscope_open(&options, &recorder) != NANSCOPE_OK || recorder == 0)
        return 1;
    const nanscope_graph* graph = 0;
    if (nanscope_declare_graph(recorder, "loss", 0, &graph) != NANSCOPE_OK)
        return 2;
    if (strlen(nanscope_graph_id(graph)) != 36)
        return 3;

    /* Inputs name ops declared before them, as TensorFlow creates ops. */
    nanscope_location where = {"loss.c", 42, "loss"};
    const nanscope_op* probs_op = 0;
    if (nanscope_declare_op(recorder, graph, "Placeholder", "probs", 0, 0, 1, where, &probs_op) !=
        NANSCOPE_OK)
        return 4;
    const char* inputs[] = {"probs:0"};
    const nanscope_op* log_op = 0;
    if (nanscope_declare_op(recorder, graph, "Log", "Log", inputs, 1, 1, where, &log_op) !=
        NANSCOPE_OK)
        return 4;
    if (nanscope_op_output_tensor_id(log_op, 0) != 2 ||
        nanscope_op_output_tensor_id(log_op, 1) != -1)
        return 5;

    float values[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    values[0] = -INFINITY;
    const int64_t shape[1] = {4};
    nanscope_tensor tensor = {values, NANSCOPE_FLOAT32, shape, 1};
    if (nanscope_record_trace(recorder, log_op, 0, tensor) != NANSCOPE_OK)
        return 6;

    /* A duplicate op name is refused with a message. */
    const nanscope_op* again = 0;
    if (nanscope_declare_op(recorder, graph, "Log", "Log", inputs, 1, 1, where, &again) !=
            NANSCOPE_ALREADY_EXISTS ||
        strstr(nanscope_last_error(), "Log") == 0)
        return 7;

    int64_t in_id = nanscope_new_tensor_id(recorder);
    int64_t out_id = nanscope_new_tensor_id(recorder);
    nanscope_location call_site = {"train.c", 7, "train_step"};
    if (nanscope_record_execution(recorder, "Log", 0, &in_id, 1, &out_id, &tensor, 1, call_site) !=
        NANSCOPE_OK)
        return 8;
    if (nanscope_record_execution(recorder, "Log", 0, 0, 1, 0, 0, 0, call_site) !=
        NANSCOPE_INVALID_ARGUMENT)
        return 9;
    if (strncmp(nanscope_version(), "NaNscope ", 9) != 0)
        return 10;
    if (nanscope_close(recorder) != NANSCOPE_OK)
        return 11;

    nanscope_recorder* bad = 0;
    options.dump_root = 0;
    if (nanscope_open(&options, &bad) != NANSCOPE_INVALID_ARGUMENT || bad != 0)
        return 12;
    return 0;
}
