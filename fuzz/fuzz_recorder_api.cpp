// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the recorder's C interface (nanscope/recorder.h) fed random call sequences. The
// input is a little program: options for nanscope_open, then calls — declare graphs (nested or
// not), declare ops whose inputs name earlier ops' outputs or anything else, record traces and
// executions of tensors of any dtype and shape, new tensor ids, flushes — with names, numbers and
// tensor values taken from the input. Whatever the sequence, the recorder must not crash or abort,
// must answer every call with a status, and the logdir it leaves must read back without an error
// diagnostic (what it writes, it writes whole).
//
// The caller's side of the contract is kept: tensor data always holds as many elements as the
// shape says (that is the caller's promise, not something the recorder can check).
#include "fuzzinput.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <system_error>
#include <vector>

namespace {

class Input
{
public:
    Input(const std::uint8_t* data, std::size_t size) : m_p(data), m_end(data + size) {}
    bool empty() const { return m_p == m_end; }
    std::uint8_t byte() { return m_p == m_end ? 0 : *m_p++; }
    std::int64_t small() { return static_cast<std::int8_t>(byte()); }
    // A string of up to 31 bytes, any bytes but NUL (C strings).
    std::string text()
    {
        const std::size_t n = byte() & 31;
        std::string s;
        for (std::size_t i = 0; i < n && !empty(); ++i)
            s += static_cast<char>(byte() | 1);
        return s;
    }

    // Fills `out` with the next bytes, zeros past the end. One copy, not a loop of byte(): a
    // tensor is up to 27 KB, and an instrumented loop over it was a sixth of the target's time.
    void copyTo(std::vector<std::uint8_t>& out)
    {
        const std::size_t n = std::min<std::size_t>(out.size(), m_end - m_p);
        std::memcpy(out.data(), m_p, n);
        m_p += n;
    }

private:
    const std::uint8_t* m_p;
    const std::uint8_t* m_end;
};

constexpr int kDtypes[] = {NANSCOPE_FLOAT32,  NANSCOPE_FLOAT64,
                           NANSCOPE_INT32,    NANSCOPE_UINT8,
                           NANSCOPE_INT16,    NANSCOPE_INT8,
                           NANSCOPE_INT64,    NANSCOPE_BOOL,
                           NANSCOPE_BFLOAT16, NANSCOPE_UINT16,
                           NANSCOPE_FLOAT16,  NANSCOPE_UINT32,
                           NANSCOPE_UINT64,   0,
                           7 /* string */,    99};
constexpr int kModes[] = {NANSCOPE_NO_TENSOR,
                          NANSCOPE_CURT_HEALTH,
                          NANSCOPE_CONCISE_HEALTH,
                          NANSCOPE_FULL_HEALTH,
                          NANSCOPE_SHAPE,
                          NANSCOPE_FULL_TENSOR,
                          0,
                          6};

// Fills `out` with `pattern` repeated, by copies that double (not byte by byte, see copyTo).
void fillRepeating(std::vector<std::uint8_t>& out, std::initializer_list<std::uint8_t> pattern)
{
    std::size_t filled = std::min(out.size(), pattern.size());
    std::memcpy(out.data(), pattern.begin(), filled);
    while (filled < out.size()) {
        const std::size_t n = std::min(filled, out.size() - filled);
        std::memcpy(out.data() + filled, out.data(), n);
        filled += n;
    }
}

// A tensor and the storage behind it: up to 4 dimensions of up to 15 (or a negative one), its
// bytes repeated from the input, 8 bytes per element so that any dtype fits.
struct Tensor
{
    std::vector<std::int64_t> shape;
    std::vector<std::uint8_t> bytes;
    nanscope_tensor view{};

    explicit Tensor(Input& in)
    {
        const std::uint8_t spec = in.byte();
        const std::size_t rank = spec & 3;
        std::int64_t elements = 1;
        for (std::size_t i = 0; i < rank; ++i) {
            const std::int64_t d = in.small() % 16;
            shape.push_back(d);
            elements *= std::max<std::int64_t>(d, 0);
        }
        bytes.resize(static_cast<std::size_t>(elements) * 8 + 8);
        const std::uint8_t seed = in.byte();
        if (spec & 4)
            fillRepeating(bytes, {0x00, 0x00, 0xc0, 0x7f, 0x00, 0x00, 0x80, 0xff, seed});
        else
            in.copyTo(bytes); // the input's next bytes; zeros once it ends
        view.data = bytes.data();
        view.dtype = kDtypes[(spec >> 4) & 15];
        view.shape = shape.data();
        view.rank = (spec & 8) ? rank + 1 : rank; // now and then a rank longer than the shape…
        if (view.rank > shape.size()) {
            shape.push_back(1); // …whose extra dimension is still there to read
            view.shape = shape.data();
        }
    }
};

std::filesystem::path nextDumpRoot()
{
    static unsigned long counter = 0;
    return nanscope::fuzz::scratchDirectory() / ("run" + std::to_string(counter++));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Input in(data, size);
    const auto root = nextDumpRoot();
    const std::string rootText = root.string();

    nanscope_options options;
    nanscope_options_init(&options);
    options.dump_root = rootText.c_str();
    const std::uint8_t flags = in.byte();
    options.tensor_debug_mode = kModes[flags & 7];
    options.circular_buffer_size = static_cast<int>(in.small());
    options.flush_interval_ms = 1 + (in.byte() & 63);
    const std::string regex = in.text();
    if (flags & 8)
        options.op_type_regex = regex.c_str();
    std::vector<int> dtypes;
    if (flags & 16) {
        for (std::size_t i = 0, n = in.byte() & 3; i < n; ++i)
            dtypes.push_back(kDtypes[in.byte() & 15]);
        options.tensor_dtypes = dtypes.data();
        options.num_tensor_dtypes = dtypes.size();
    }
    const std::string runId = in.text();
    if (flags & 32)
        options.run_id = runId.c_str();
    options.capture_native_stacks = 0; // symbolising native stacks takes milliseconds a call

    // Half the programs stop at their first non-finite value, with patterns of the input's.
    nanscope_stop_options stop;
    nanscope_stop_options_init(&stop);
    const std::string pattern = in.text();
    const char* patterns[] = {pattern.c_str()};
    stop.expected_nonfinite = patterns;
    stop.num_expected_nonfinite = (flags & 128) ? 1 : 0;
    stop.stop_lag_events = in.byte() & 7;
    nanscope_recorder* recorder = nullptr;
    if (nanscope_open_stopping(&options, (flags & 64) ? &stop : nullptr, &recorder) !=
        NANSCOPE_OK) {
        if (recorder != nullptr || nanscope_last_error()[0] == '\0')
            std::abort(); // a failed open says why and hands out nothing
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
        return 0;
    }

    std::vector<const nanscope_graph*> graphs;
    std::vector<const nanscope_op*> ops;
    std::vector<std::string> opNames;
    const nanscope_location here{"fuzz_recorder_api.cpp", 1, "LLVMFuzzerTestOneInput"};
    for (int call = 0; call < 64 && !in.empty(); ++call) {
        const std::uint8_t what = in.byte();
        int status = NANSCOPE_OK;
        switch (what % 8) {
        case 0: {
            const nanscope_graph* outer =
                graphs.empty() || (what & 8) ? nullptr : graphs[in.byte() % graphs.size()];
            const nanscope_graph* graph = nullptr;
            const std::string name = in.text();
            status = nanscope_declare_graph(recorder, (what & 16) ? nullptr : name.c_str(), outer,
                                            &graph);
            if (status == NANSCOPE_OK) {
                if (graph == nullptr || nanscope_graph_id(graph) == nullptr)
                    std::abort();
                graphs.push_back(graph);
            }
            break;
        }
        case 1: {
            if (graphs.empty())
                break;
            const nanscope_graph* graph = graphs[in.byte() % graphs.size()];
            const std::string type = in.text();
            const std::string name = in.text();
            std::vector<std::string> inputs;
            for (std::size_t i = 0, n = in.byte() & 3; i < n; ++i) {
                if (!opNames.empty() && (in.byte() & 1))
                    inputs.push_back(opNames[in.byte() % opNames.size()] + ":" +
                                     std::to_string(in.byte() % 3));
                else
                    inputs.push_back(in.text());
            }
            std::vector<const char*> pointers;
            for (const auto& s : inputs)
                pointers.push_back(s.c_str());
            const nanscope_op* op = nullptr;
            status =
                nanscope_declare_op(recorder, graph, type.c_str(), name.c_str(), pointers.data(),
                                    pointers.size(), static_cast<int>(in.small() % 5), here, &op);
            if (status == NANSCOPE_OK) {
                if (op == nullptr)
                    std::abort();
                ops.push_back(op);
                opNames.push_back(name);
            }
            break;
        }
        case 2:
        case 3: {
            if (ops.empty())
                break;
            const nanscope_op* op = ops[in.byte() % ops.size()];
            const int slot = static_cast<int>(in.small() % 4);
            Tensor tensor(in);
            status = nanscope_record_trace(recorder, op, slot, tensor.view);
            break;
        }
        case 4: {
            const std::size_t outputs = in.byte() % 4;
            std::vector<Tensor> tensors;
            std::vector<nanscope_tensor> views;
            std::vector<std::int64_t> outputIds;
            for (std::size_t i = 0; i < outputs; ++i) {
                tensors.emplace_back(in);
                outputIds.push_back(in.small());
            }
            for (const auto& t : tensors)
                views.push_back(t.view);
            const std::int64_t inputIds[] = {in.small(), in.small()};
            const nanscope_graph* graph =
                graphs.empty() || (what & 8) ? nullptr : graphs[in.byte() % graphs.size()];
            const std::string type = in.text();
            status =
                nanscope_record_execution(recorder, type.c_str(), graph, inputIds, in.byte() % 3,
                                          outputIds.data(), views.data(), outputs, here);
            break;
        }
        case 5:
            (void)nanscope_new_tensor_id(recorder);
            break;
        case 6:
            status = nanscope_flush(recorder);
            break;
        case 7:
            if (!ops.empty())
                (void)nanscope_op_output_tensor_id(ops[in.byte() % ops.size()],
                                                   static_cast<int>(in.small()));
            break;
        default:
            break;
        }
        if (status != NANSCOPE_OK && nanscope_last_error()[0] == '\0')
            std::abort(); // every error says why
    }
    (void)nanscope_close(recorder);

    // What was written reads back whole: no error diagnostic (corrupt or torn records, records
    // that are not what their file holds).
    nanscope::core::LogdirReader reader(root);
    const auto snapshot = reader.update();
    for (const auto& d : snapshot->diagnostics()) {
        if (d.severity == nanscope::core::Severity::Error) {
            std::fprintf(stderr, "error diagnostic: %s: %s\n", d.file.c_str(), d.message.c_str());
            std::abort();
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
    return 0;
}
