// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorflowlogdir.hpp"

#include "logdirbuilder.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

namespace nanscope::test {
namespace {

struct Frame
{
    std::string file;
    int line = 0;
    std::string function;
};
using Stack = std::vector<Frame>;

Stack operator+(Stack a, const Stack& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const std::string kHost = "localhost";

// The text TensorFlow would have captured: numbered filler, with the lines a test looks at.
std::vector<std::string> sourceText(const std::string& file, int lines,
                                    const std::map<int, std::string>& known)
{
    std::vector<std::string> text;
    for (int l = 1; l <= lines; ++l) {
        const auto it = known.find(l);
        text.push_back(it != known.end() ? it->second : "# " + file + " line " + std::to_string(l));
    }
    return text;
}

// Writes each file once to .source_files, then each frame once to .stack_frames, as the dumping
// callback does, and returns frame ids.
// Where records go: straight to the files (the small fixtures), or gathered per file and written
// in large appends (the benchmark's millions of records).
class Sink
{
public:
    Sink(const FileSetWriter& set, bool buffered) : m_set(set), m_buffered(buffered) {}
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;
    ~Sink() { flush(); }

    void append(const std::string& suffix, const tfdbg::DebugEvent& event)
    {
        if (!m_buffered) {
            m_set.append(suffix, event);
            return;
        }
        std::string& pending = m_pending[suffix];
        pending += framed(event);
        if (pending.size() >= kFlushBytes) {
            m_set.appendBytes(suffix, pending);
            pending.clear();
        }
    }

    void flush()
    {
        for (auto& [suffix, pending] : m_pending)
            if (!pending.empty()) {
                m_set.appendBytes(suffix, pending);
                pending.clear();
            }
    }

private:
    static constexpr std::size_t kFlushBytes = 8u << 20;
    const FileSetWriter& m_set;
    bool m_buffered;
    std::map<std::string, std::string> m_pending;
};

class StackWriter
{
public:
    explicit StackWriter(Sink& set, bool uuidIds = false) : m_set(set), m_uuidIds(uuidIds) {}

    void setText(const std::string& file, std::map<int, std::string> lines)
    {
        m_known[file] = std::move(lines);
    }

    std::vector<std::string> ids(const Stack& stack)
    {
        std::vector<std::string> out;
        for (const Frame& f : stack) {
            const auto key = std::make_tuple(f.file, f.line, f.function);
            auto found = m_frames.find(key);
            if (found == m_frames.end()) {
                const int file = fileIndex(f.file);
                const std::string id = frameId(m_frames.size() + 1);
                m_set.append("stack_frames", events::stackFrame(id, file, f.line, f.function));
                found = m_frames.emplace(key, id).first;
            }
            out.push_back(found->second);
        }
        return out;
    }

    // Every file on every stack gets its text once all stacks are known; TensorFlow writes
    // each as it meets it, which this reproduces by writing on first use with a length that
    // covers every line the fixture uses of it.
    void declareLength(const Stack& stack)
    {
        for (const Frame& f : stack)
            m_length[f.file] = std::max(m_length[f.file], f.line + 5);
    }

private:
    // TensorFlow names frames by uuid4 strings; the small fixtures keep short readable ids.
    std::string frameId(std::size_t n) const
    {
        if (!m_uuidIds)
            return "frame-" + std::to_string(n);
        char id[40];
        std::snprintf(id, sizeof id, "%08zx-4e1a-4b2c-9d3e-%012zx", n * 2654435761u % 0xffffffffu,
                      n);
        return id;
    }

    int fileIndex(const std::string& file)
    {
        const auto found = m_files.find(file);
        if (found != m_files.end())
            return found->second;
        const bool python = file.size() > 3 && file.ends_with(".py");
        const auto known = m_known.find(file);
        m_set.append("source_files",
                     events::sourceFile(file, kHost,
                                        python ? sourceText(file, m_length[file],
                                                            known == m_known.end()
                                                                ? std::map<int, std::string>{}
                                                                : known->second)
                                               : std::vector<std::string>{}));
        const int index = static_cast<int>(m_files.size());
        m_files.emplace(file, index);
        return index;
    }

    Sink& m_set;
    bool m_uuidIds = false;
    std::map<std::string, int> m_files;
    std::map<std::string, int> m_length;
    std::map<std::string, std::map<int, std::string>> m_known;
    std::map<std::tuple<std::string, int, std::string>, std::string> m_frames;
};

// TensorFlow's frames from tf.function tracing down to a user's function inside it.
Stack functionTracing(const std::string& tf)
{
    return {
        {tf + "util/traceback_utils.py", 150, "error_handler"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 832, "__call__"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 888, "_call"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 695, "_initialize"},
        {tf + "eager/polymorphic_function/tracing_compiler.py", 178,
         "_get_concrete_function_internal_garbage_collected"},
        {tf + "eager/polymorphic_function/tracing_compiler.py", 283, "_maybe_define_function"},
        {tf + "eager/polymorphic_function/tracing_compiler.py", 310, "_create_concrete_function"},
        {tf + "framework/func_graph.py", 1283, "func_graph_from_py_func"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 599, "wrapped_fn"},
        {tf + "framework/func_graph.py", 1269, "autograph_handler"},
    };
}

// From the user's call of a TensorFlow op down to the callback that records its creation.
Stack opCreation(const std::string& tf, const std::string& genModule, int genLine,
                 const std::string& genFunction)
{
    return {
        {tf + "util/traceback_utils.py", 150, "error_handler"},
        {tf + "util/dispatch.py", 1176, "op_dispatch_handler"},
        {tf + "ops/" + genModule, genLine, genFunction},
        {tf + "framework/op_def_library.py", 795, "_apply_op_helper"},
        {tf + "framework/func_graph.py", 749, "_create_op_internal"},
        {tf + "framework/ops.py", 3798, "_create_op_internal"},
        {tf + "framework/op_callbacks.py", 167, "invoke_op_callbacks"},
        {tf + "debug/lib/dumping_callback.py", 569, "callback"},
        {tf + "debug/lib/dumping_callback.py", 414, "_instrument_symbolic_tensors"},
        {tf + "debug/lib/dumping_callback.py", 298, "_process_stack_frames"},
    };
}

// The eager call of the function, as the execution record's stack.
Stack functionCall(const std::string& tf)
{
    return {
        {tf + "util/traceback_utils.py", 150, "error_handler"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 832, "__call__"},
        {tf + "eager/polymorphic_function/polymorphic_function.py", 912, "_call"},
        {tf + "eager/polymorphic_function/monomorphic_function.py", 1745, "_call_flat"},
        {tf + "eager/polymorphic_function/monomorphic_function.py", 378, "call"},
        {tf + "eager/execute.py", 53, "quick_execute"},
        {tf + "debug/lib/dumping_callback.py", 602, "callback"},
        {tf + "debug/lib/dumping_callback.py", 298, "_process_stack_frames"},
    };
}

struct Shape
{
    Stack outer;    // down to the frame that calls the traced function (the execution's stack)
    Stack inner;    // inside the traced function, down to the user's line that makes the op
    Frame user;     // the user's frame of the Log op (inner's last frame), or none
    std::string tf; // TensorFlow's python/ directory
    std::string lossFile;
    std::string lossFunction;
    int logLine = 0; // where the loss function makes Log; its other ops are on the lines around
};

Shape shapeOf(TensorFlowStack kind)
{
    Shape s;
    switch (kind) {
    case TensorFlowStack::TutorialModule:
    case TensorFlowStack::TutorialModuleFrozenRunpy: {
        const bool frozen = kind == TensorFlowStack::TutorialModuleFrozenRunpy;
        const std::string py = frozen ? "/usr/lib/python3.11/" : "/usr/lib/python3.8/";
        const std::string site = frozen ? "/usr/local/lib/python3.11/dist-packages/"
                                        : "/usr/local/lib/python3.8/dist-packages/";
        // os.path.abspath turns the frozen module's name into a path under the working directory.
        const std::string runpy = frozen ? "/home/user/<frozen runpy>" : py + "runpy.py";
        const std::string script = site + "tensorflow/python/debug/examples/v2/debug_mnist_v2.py";
        s.tf = site + "tensorflow/python/";
        s.outer = {{runpy, frozen ? 198 : 194, "_run_module_as_main"},
                   {runpy, frozen ? 88 : 87, "_run_code"},
                   {script, 236, "<module>"},
                   {site + "absl/app.py", 308, "run"},
                   {site + "absl/app.py", 254, "_run_main"},
                   {script, 228, "main"}};
        s.inner = {{script, 207, "train_step"}};
        s.lossFile = script;
        s.lossFunction = "cross_entropy";
        s.user = {script, 216, "cross_entropy"};
        break;
    }
    case TensorFlowStack::KerasModel: {
        const std::string site = "/home/user/venv/lib/python3.11/site-packages/";
        const std::string keras = site + "keras/src/";
        s.tf = site + "tensorflow/python/";
        s.outer = {{"/home/user/project/train.py", 31, "<module>"},
                   {keras + "utils/traceback_utils.py", 65, "error_handler"},
                   {keras + "engine/training.py", 1783, "fit"}};
        s.inner = {{keras + "engine/training.py", 1377, "train_function"},
                   {keras + "engine/training.py", 1360, "step_function"},
                   {keras + "engine/training.py", 1349, "run_step"},
                   {keras + "engine/training.py", 1126, "train_step"},
                   {keras + "engine/training.py", 589, "__call__"},
                   {keras + "engine/base_layer.py", 1149, "__call__"},
                   {keras + "utils/traceback_utils.py", 96, "error_handler"}};
        s.lossFile = "/home/user/project/model.py";
        s.lossFunction = "call";
        s.user = {s.lossFile, 42, "call"};
        break;
    }
    case TensorFlowStack::InstalledPackage: {
        const std::string site = "/home/user/venv/lib/python3.11/site-packages/";
        s.tf = site + "tensorflow/python/";
        s.outer = {{"/home/user/venv/bin/train-mnist", 8, "<module>"},
                   {site + "mytrainer/cli.py", 54, "main"}};
        s.inner = {{site + "mytrainer/steps.py", 23, "train_step"}};
        s.lossFile = site + "mytrainer/losses.py";
        s.lossFunction = "cross_entropy";
        s.user = {s.lossFile, 17, "cross_entropy"};
        break;
    }
    case TensorFlowStack::FrameworkOnly: {
        const std::string py = "/usr/lib/python3.11/";
        const std::string site = "/usr/local/lib/python3.11/dist-packages/";
        s.tf = site + "tensorflow/python/";
        s.outer = {{py + "threading.py", 1002, "_bootstrap"},
                   {py + "threading.py", 1045, "_bootstrap_inner"},
                   {py + "threading.py", 982, "run"},
                   {site + "keras/src/utils/data_utils.py", 760, "run"}};
        s.inner = {{site + "keras/src/optimizers/optimizer.py", 1253, "_distributed_apply"}};
        s.lossFile = site + "keras/src/optimizers/optimizer.py";
        s.lossFunction = "_update_step";
        s.user = {}; // no frame of the user's
        break;
    }
    }
    s.logLine = s.user.line ? s.user.line : 1260;
    return s;
}

} // namespace

bool parseTensorFlowStack(const std::string& name, TensorFlowStack& stack)
{
    static const std::map<std::string, TensorFlowStack> names{
        {"tutorial", TensorFlowStack::TutorialModule},
        {"tutorial-frozen-runpy", TensorFlowStack::TutorialModuleFrozenRunpy},
        {"keras", TensorFlowStack::KerasModel},
        {"installed-package", TensorFlowStack::InstalledPackage},
        {"framework-only", TensorFlowStack::FrameworkOnly},
    };
    const auto it = names.find(name);
    if (it == names.end())
        return false;
    stack = it->second;
    return true;
}

namespace {

// How many steps, which is the first bad one, and how the records are written.
struct RunSize
{
    std::uint64_t steps = 2;
    std::uint64_t firstBadStep = 1;
    bool large = false; // four executions per step, UUID frame ids, buffered writes
};

ExpectedUserFrame writeRun(const std::filesystem::path& dir, TensorFlowStack kind,
                           const RunSize& run)
{
    using namespace events;
    const Shape s = shapeOf(kind);
    FileSetWriter files(dir, kHost, 1700000000);
    files.createAll();
    files.writeMetadata(1700000000.5, "tf-run-1");
    Sink set(files, run.large);
    StackWriter stacks(set, run.large);

    struct OpSpec
    {
        std::string type, name;
        std::vector<std::string> inputs;
        std::string genModule;
        int genLine;
        std::string genFunction;
    };
    const std::vector<OpSpec> ops{
        {"Placeholder", "images", {}, "array_ops.py", 3343, "placeholder"},
        {"Placeholder", "labels", {}, "array_ops.py", 3343, "placeholder"},
        {"MatMul", "dense/MatMul", {"images:0"}, "gen_math_ops.py", 6013, "mat_mul"},
        {"Softmax", "dense/Softmax", {"dense/MatMul:0"}, "gen_nn_ops.py", 11941, "softmax"},
        {"Log", "Log", {"dense/Softmax:0"}, "gen_math_ops.py", 5580, "log"},
        {"Mul", "mul", {"labels:0", "Log:0"}, "gen_math_ops.py", 6563, "mul"},
        {"Sum", "Sum", {"mul:0"}, "gen_math_ops.py", 11610, "_sum"},
        {"Neg", "Neg", {"Sum:0"}, "gen_math_ops.py", 6719, "neg"},
    };
    std::vector<Stack> opStacks;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        // ops[4], Log, is made on logLine.
        const int line = s.logLine - 4 + static_cast<int>(i);
        const Stack stack =
            s.outer + functionTracing(s.tf) + s.inner + Stack{{s.lossFile, line, s.lossFunction}};
        opStacks.push_back(stack +
                           opCreation(s.tf, ops[i].genModule, ops[i].genLine, ops[i].genFunction));
    }
    const Stack callStack = s.outer + functionCall(s.tf);
    for (const Stack& stack : opStacks)
        stacks.declareLength(stack);
    stacks.declareLength(callStack);
    if (s.user.line)
        stacks.setText(s.user.file,
                       {{s.user.line, "    return -tf.reduce_sum(labels * tf.math.log(probs))"}});

    const std::string graphId = "5b8f2a6e-0c1d-4e7f-9a3b-2c4d6e8f0a1b";
    set.append("graphs", device(1, "/job:localhost/replica:0/task:0/device:CPU:0"));
    set.append("graphs", graph(graphId, "__inference_train_step_1"));
    for (std::size_t i = 0; i < ops.size(); ++i)
        set.append("graphs", op(graphId, ops[i].type, ops[i].name, ops[i].inputs,
                                {static_cast<int>(i) + 1}, stacks.ids(opStacks[i])));
    const std::vector<std::string> callFrames = stacks.ids(callStack);

    // Two steps; in the second the softmax underflows to an exact zero for a class whose label
    // is 0, so Log gives -inf there and mul turns it into NaN (0 * -inf).
    double wall = 1700000001.0;
    const std::vector<std::string> eagerOps{"ReadVariableOp", "Identity", "AssignAddVariableOp"};
    for (std::uint64_t step = 0; step < run.steps; ++step) {
        const bool bad = step >= run.firstBadStep;
        const auto id = static_cast<std::int64_t>(step * 10);
        const auto health = [&](int op, double size, double negInf, double nan, double negative,
                                double zero, double positive) {
            set.append("graph_execution_traces",
                       trace(wall += 0.001, graphId, ops[static_cast<std::size_t>(op)].name, 0,
                             /*FULL_HEALTH*/ 4,
                             fullHealth(op + 1, size, negInf, 0, nan, negative, zero, positive)));
        };
        health(0, 40, 0, 0, 0, 10, 30);
        health(1, 40, 0, 0, 0, 36, 4);
        health(2, 40, 0, 0, 12, 0, 28);
        health(3, 40, 0, 0, 0, bad ? 1 : 0, bad ? 39 : 40);
        health(4, 40, bad ? 1 : 0, 0, bad ? 39 : 40, 0, 0);
        health(5, 40, 0, bad ? 1 : 0, 4, bad ? 35 : 36, 0);
        health(6, 1, 0, bad ? 1 : 0, bad ? 0 : 1, 0, 0);
        health(7, 1, 0, bad ? 1 : 0, 0, 0, bad ? 0 : 1);
        set.append("execution", execution(wall += 0.001, "__inference_train_step_1",
                                          {100 + id, 101 + id}, {102 + id}, /*FULL_HEALTH*/ 4,
                                          {fullHealth(static_cast<double>(102 + id), 1, 0, 0,
                                                      bad ? 1 : 0, 0, 0, bad ? 0 : 1)},
                                          graphId, callFrames));
        if (!run.large)
            continue;
        for (std::size_t e = 0; e < eagerOps.size(); ++e) {
            const auto out = 103 + id + static_cast<std::int64_t>(e);
            set.append("execution",
                       execution(wall += 0.001, eagerOps[e], {out - 1}, {out}, /*FULL_HEALTH*/ 4,
                                 {fullHealth(static_cast<double>(out), 10, 0, 0, bad ? 10 : 0,
                                             bad ? 0 : 4, 0, bad ? 0 : 6)},
                                 {}, callFrames));
        }
    }
    return {s.user.file, s.user.line, s.user.function};
}

} // namespace

ExpectedUserFrame writeTensorFlowLogdir(const std::filesystem::path& dir, TensorFlowStack kind)
{
    return writeRun(dir, kind, {});
}

void writeLargeTensorFlowLogdir(const std::filesystem::path& dir, TensorFlowStack kind,
                                std::uint64_t traces)
{
    const std::uint64_t steps = std::max<std::uint64_t>(traces / 8, 2);
    writeRun(dir, kind, {.steps = steps, .firstBadStep = steps * 9 / 10, .large = true});
}

} // namespace nanscope::test
