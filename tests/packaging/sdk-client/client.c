/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Records log(x) of a tensor with a zero in it through NaNscope's C API: the logdir has one
 * -inf alert on the op "Log". Prints the recorder's version.
 *   usage: client_c LOGDIR */
#include <math.h>
#include <nanscope/recorder.h>
#include <stdio.h>

int main(int argc, char** argv)
{
    nanscope_options options;
    nanscope_recorder* recorder = NULL;
    const nanscope_graph* graph = NULL;
    const nanscope_op* input = NULL;
    const nanscope_op* op = NULL;
    const char* inputs[] = {"x:0"};
    const float values[4] = {0.0f, -0.6931472f, -INFINITY, 0.6931472f};
    const int64_t shape[] = {4};
    nanscope_tensor tensor;
    nanscope_location where;

    if (argc != 2) {
        fprintf(stderr, "usage: client_c LOGDIR\n");
        return 2;
    }
    nanscope_options_init(&options);
    options.dump_root = argv[1];
    options.tensor_debug_mode = NANSCOPE_FULL_HEALTH;
    options.circular_buffer_size = -1;
    where.file = __FILE__;
    where.line = __LINE__;
    where.function = "main";
    tensor.data = values;
    tensor.dtype = NANSCOPE_FLOAT32;
    tensor.shape = shape;
    tensor.rank = 1;
    if (nanscope_open(&options, &recorder) != NANSCOPE_OK ||
        nanscope_declare_graph(recorder, "sdk_client_c", NULL, &graph) != NANSCOPE_OK ||
        nanscope_declare_op(recorder, graph, "Placeholder", "x", NULL, 0, 1, where, &input) !=
            NANSCOPE_OK ||
        nanscope_declare_op(recorder, graph, "Log", "Log", inputs, 1, 1, where, &op) !=
            NANSCOPE_OK ||
        nanscope_record_trace(recorder, op, 0, tensor) != NANSCOPE_OK ||
        nanscope_close(recorder) != NANSCOPE_OK) {
        fprintf(stderr, "recording failed: %s\n", nanscope_last_error());
        return 1;
    }
    printf("%s\n", nanscope_version());
    return 0;
}
