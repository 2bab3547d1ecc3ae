// SPDX-License-Identifier: GPL-3.0-or-later
// The user's frame in stacks as TensorFlow records them (tensorflowlogdir.hpp): the origin, the
// text report and the JSON report agree on it, and a stack of framework code alone still has a
// frame to show that is never called the user's.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "tempdir.hpp"
#include "tensorflowlogdir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::TensorFlowStack;

namespace {

struct Case
{
    const char* name;
    TensorFlowStack stack;
};

const Case kCases[] = {
    {"tutorial", TensorFlowStack::TutorialModule},
    {"tutorial-frozen-runpy", TensorFlowStack::TutorialModuleFrozenRunpy},
    {"keras", TensorFlowStack::KerasModel},
    {"installed-package", TensorFlowStack::InstalledPackage},
    {"framework-only", TensorFlowStack::FrameworkOnly},
};

ResolvedFrame frameAt(std::string file, int line, std::string function = "f")
{
    ResolvedFrame f;
    f.filePath = std::move(file);
    f.line = line;
    f.function = std::move(function);
    return f;
}

} // namespace

TEST_CASE("the user's frame in TensorFlow-shaped stacks", "[stack][tensorflow]")
{
    for (const Case& c : kCases) {
        DYNAMIC_SECTION(c.name)
        {
            test::TempDir dir;
            const test::ExpectedUserFrame expected =
                test::writeTensorFlowLogdir(dir.path(), c.stack);
            LogdirReader reader(dir.path());
            const auto snapshot = reader.update();
            CHECK(snapshot->diagnostics().empty());
            const Report r = buildReport(*snapshot);
            REQUIRE(r.origin);
            CHECK(r.origin->origin.opName == "Log");
            const FoldedStack& stack = r.origin->stack;
            CHECK(stack.frames.size() > 20);
            REQUIRE(stack.focusFrame);
            const ResolvedFrame& focus = stack.frames[*stack.focusFrame].frame;
            const std::string text = renderText(r);
            const auto json = nlohmann::json::parse(
                test::runReport("--json " + test::shellQuoted(dir.path())).output);
            const auto& origin = json["origin"];

            if (expected.file.empty()) {
                CHECK_FALSE(stack.userFrame);
                CHECK_FALSE(stack.focusIsUserCode());
                // A frame that made the op, not the debugger's own callback.
                CHECK(focus.filePath.find("dumping_callback") == std::string::npos);
                CHECK(focus.filePath.find("op_callbacks") == std::string::npos);
                CHECK(focus.fileIndex);
                CHECK(origin["user_frame"].is_null());
                CHECK(origin["focus_frame"]["framework"] == true);
                CHECK_THAT(text, Catch::Contains("every frame is framework code"));
                continue;
            }
            REQUIRE(stack.userFrame);
            CHECK(stack.focusIsUserCode());
            const ResolvedFrame& user = stack.frames[*stack.userFrame].frame;
            CHECK(user.filePath == expected.file);
            CHECK(user.line == expected.line);
            CHECK(user.function == expected.function);
            // The source around it comes from the logdir's copy.
            REQUIRE(r.origin->source);
            CHECK(r.origin->source->focusLine == expected.line);
            CHECK(r.origin->source->lines[3] ==
                  "    return -tf.reduce_sum(labels * tf.math.log(probs))");
            char marked[32];
            std::snprintf(marked, sizeof marked, "> %5d | ", expected.line);
            CHECK_THAT(text, Catch::Contains(marked));
            CHECK_THAT(text, Catch::Contains("      > " + expected.file + ":" +
                                             std::to_string(expected.line)));
            CHECK_THAT(text, !Catch::Contains("every frame is framework code"));

            REQUIRE(origin["user_frame"].is_object());
            CHECK(origin["user_frame"]["file"] == expected.file);
            CHECK(origin["user_frame"]["line"] == expected.line);
            CHECK(origin["focus_frame"]["index"] == origin["user_frame"]["index"]);
            CHECK(origin["source_context"]["focus_line"] == expected.line);
        }
    }
}

TEST_CASE("patterns: the last match decides, '!' marks the user's code", "[stack]")
{
    const StackFolding folding;
    // Python's standard library and TensorFlow are framework; the user's own installed
    // packages and examples shipped inside a framework are not.
    CHECK(folding.isFramework("/usr/lib/python3.11/threading.py"));
    CHECK(folding.isFramework("/opt/conda/lib/python3.10/runpy.py"));
    CHECK(folding.isFramework("/home/u/venv/lib/python3.11/site-packages/tensorflow/x.py"));
    CHECK(folding.isFramework("/usr/lib/python3/dist-packages/keras/src/engine.py"));
    CHECK(folding.isFramework("/usr/local/lib/python3.8/dist-packages/absl/app.py"));
    CHECK(folding.isFramework("/home/u/<frozen runpy>"));
    CHECK(folding.isFramework("C:\\Python311\\Lib\\site-packages\\tensorflow\\python\\ops\\x.py"));
    CHECK_FALSE(folding.isFramework("/home/u/venv/lib/python3.11/site-packages/mytrainer/a.py"));
    CHECK_FALSE(folding.isFramework("/usr/lib/python3/dist-packages/mylab/model.py"));
    CHECK_FALSE(folding.isFramework(
        "/usr/local/lib/python3.8/dist-packages/tensorflow/python/debug/examples/v2/m.py"));
    CHECK_FALSE(folding.isFramework("/home/u/project/train.py"));

    const StackFolding custom({"/home/u/", "!/home/u/project/", "/home/u/project/vendor/"});
    CHECK(custom.isFramework("/home/u/lib/x.py"));
    CHECK_FALSE(custom.isFramework("/home/u/project/model.py"));
    CHECK(custom.isFramework("/home/u/project/vendor/y.py"));
    CHECK_FALSE(StackFolding({"!"}).isFramework("/anything.py"));
}

TEST_CASE("the script the program started from is the user's", "[stack]")
{
    const StackFolding folding;
    const std::string script = "/usr/lib/python3/dist-packages/tensorflow/models/train.py";
    // `python -m`: runpy runs the module's top level.
    auto stack = folding.fold({frameAt("/usr/lib/python3.11/runpy.py", 198, "_run_module_as_main"),
                               frameAt("/usr/lib/python3.11/runpy.py", 88, "_run_code"),
                               frameAt(script, 40, "<module>"), frameAt(script, 30, "main"),
                               frameAt("/usr/lib/python3/dist-packages/tensorflow/ops.py", 7)});
    REQUIRE(stack.userFrame);
    CHECK(*stack.userFrame == 3);
    CHECK_FALSE(stack.frames[2].framework);
    // `python script.py`: the outermost frame is the script's top level.
    stack = folding.fold({frameAt(script, 40, "<module>"),
                          frameAt("/usr/lib/python3/dist-packages/tensorflow/ops.py", 7)});
    REQUIRE(stack.userFrame);
    CHECK(*stack.userFrame == 0);
    // A module's top level that runpy did not run (an import) is not an entry script.
    stack =
        folding.fold({frameAt("/home/u/train.py", 1, "<module>"),
                      frameAt("/usr/lib/python3.11/importlib/__init__.py", 126, "import_module"),
                      frameAt(script, 3, "<module>")});
    REQUIRE(stack.userFrame);
    CHECK(*stack.userFrame == 0);
    // No frames, nothing to show.
    CHECK_FALSE(folding.fold({}).focusFrame);
}
