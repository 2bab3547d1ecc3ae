// SPDX-License-Identifier: Apache-2.0
#include "nativestack.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <unordered_map>

#ifdef NANSCOPE_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

namespace nanscope::detail {
namespace {

constexpr int kMaxFrames = 256;

std::string demangle(const char* symbol)
{
    if (symbol == nullptr)
        return "??";
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(symbol, nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(symbol);
}

// Resolves addresses to frames; caches them, since the same call sites recur in every step.
class Symbolizer
{
public:
    NativeFrame resolve(std::uintptr_t address)
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_cache.find(address); it != m_cache.end())
            return it->second;
        NativeFrame frame = lookup(address);
        m_cache.emplace(address, frame);
        return frame;
    }

    ~Symbolizer()
    {
#ifdef NANSCOPE_HAVE_LIBDW
        if (m_dwfl)
            dwfl_end(m_dwfl);
#endif
    }

private:
    NativeFrame lookup(std::uintptr_t address)
    {
        NativeFrame frame;
        frame.function = "??";
        Dl_info info{};
        // dladdr takes the return address as a pointer; it is only compared, never followed.
        // NOLINTNEXTLINE(performance-no-int-to-ptr)
        if (::dladdr(reinterpret_cast<void*>(address), &info) != 0) {
            if (info.dli_fname)
                frame.file = info.dli_fname;
            if (info.dli_sname)
                frame.function = shortFunctionName(demangle(info.dli_sname));
        }
#ifdef NANSCOPE_HAVE_LIBDW
        lookupDwarf(address, frame);
#endif
        return frame;
    }

#ifdef NANSCOPE_HAVE_LIBDW
    void lookupDwarf(std::uintptr_t address, NativeFrame& frame)
    {
        Dwfl_Module* module = findModule(address);
        if (module == nullptr)
            return;
        const auto addr = static_cast<Dwarf_Addr>(address);
        if (const char* name = dwfl_module_addrname(module, addr))
            frame.function = shortFunctionName(demangle(name));
        if (Dwfl_Line* line = dwfl_module_getsrc(module, addr)) {
            int lineNumber = 0;
            if (const char* file =
                    dwfl_lineinfo(line, nullptr, &lineNumber, nullptr, nullptr, nullptr)) {
                frame.file = file;
                frame.line = lineNumber;
            }
        }
    }

    Dwfl_Module* findModule(std::uintptr_t address)
    {
        if (m_dwfl == nullptr || dwfl_addrmodule(m_dwfl, address) == nullptr)
            reportModules(); // libraries may have been loaded since the last report
        return m_dwfl ? dwfl_addrmodule(m_dwfl, address) : nullptr;
    }

    void reportModules()
    {
        static const Dwfl_Callbacks callbacks = {dwfl_linux_proc_find_elf,
                                                 dwfl_standard_find_debuginfo, nullptr, nullptr};
        if (m_dwfl == nullptr)
            m_dwfl = dwfl_begin(&callbacks);
        if (m_dwfl == nullptr)
            return;
        dwfl_report_begin(m_dwfl);
        dwfl_linux_proc_report(m_dwfl, ::getpid());
        dwfl_report_end(m_dwfl, nullptr, nullptr);
    }

    Dwfl* m_dwfl = nullptr;
#endif

    std::mutex m_mutex;
    std::unordered_map<std::uintptr_t, NativeFrame> m_cache;
};

Symbolizer& symbolizer()
{
    // Never destroyed: recorders may capture stacks from atexit handlers.
    static auto* instance = new Symbolizer;
    return *instance;
}

bool isRecorderFrame(const NativeFrame& frame)
{
    static constexpr std::array<std::string_view, 6> internals = {
        "nanscope::detail::", "nanscope::Recorder::",
        "nanscope_",          "nanscope::(anonymous",
        "backtrace",          "??"};
    for (const auto prefix : internals)
        if (frame.function.starts_with(prefix))
            return true;
    return false;
}

} // namespace

std::string shortFunctionName(const std::string& signature)
{
    // Hide the one parenthesis that belongs to a name, so that '(' below opens parameters.
    static const std::string anonymous = "(anonymous namespace)";
    static const std::string placeholder = "{anonymous}";
    std::string text = signature;
    for (auto at = text.find(anonymous); at != std::string::npos; at = text.find(anonymous))
        text.replace(at, anonymous.size(), placeholder);

    int angle = 0;
    std::size_t end = text.size();
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '<') {
            ++angle;
        } else if (c == '>' && angle > 0) {
            --angle;
        } else if (angle == 0 && c == ' ') {
            start = i + 1; // whatever came before was a return type
        } else if (angle == 0 && c == '(' && i > 0) {
            const bool callOperator = text.compare(start, i - start, "operator") == 0 ||
                                      (i >= 8 && text.compare(i - 8, 8, "operator") == 0);
            if (callOperator && text.compare(i, 2, "()") == 0) {
                ++i;
                continue;
            }
            end = i;
            break;
        }
    }
    std::string name = text.substr(start, end - start);
    for (auto at = name.find(placeholder); at != std::string::npos; at = name.find(placeholder))
        name.replace(at, placeholder.size(), anonymous);
    return name.empty() ? signature : name;
}

std::vector<NativeFrame> captureNativeStack()
{
    std::array<void*, kMaxFrames> addresses{};
    const int depth = ::backtrace(addresses.data(), kMaxFrames);
    std::vector<NativeFrame> innermostFirst;
    innermostFirst.reserve(static_cast<std::size_t>(depth));
    std::size_t firstUserFrame = 0;
    for (int i = 0; i < depth; ++i) {
        // A return address points after the call; step back into the call instruction so that
        // the line is the call's own.
        const auto address = reinterpret_cast<std::uintptr_t>(addresses[i]) - 1;
        innermostFirst.push_back(symbolizer().resolve(address));
        // The recorder never calls back into user code, so everything up to its outermost
        // frame is its own (and backtrace's, and a sanitizer's interceptors).
        if (isRecorderFrame(innermostFirst.back()))
            firstUserFrame = innermostFirst.size();
    }
    return {innermostFirst.rbegin(),
            innermostFirst.rend() - static_cast<std::ptrdiff_t>(firstUserFrame)};
}

} // namespace nanscope::detail
