// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectedfile.hpp"

#include "diagnosticlist.hpp"

#include <algorithm>

namespace nanscope::core {

void readExpectedFile(const FileSystem& files, const std::filesystem::path& directory,
                      std::vector<ExpectedPattern>& patterns, std::vector<Diagnostic>& diagnostics)
{
    const std::filesystem::path path = directory / std::string(kExpectedFileName);
    if (files.kind(path) == FileSystem::Kind::Missing)
        return;
    const std::size_t before = diagnostics.size();
    auto warn = [&](std::string message) {
        diagnostics.push_back({Severity::Warning, path.string(), std::nullopt, std::move(message)});
    };
    std::string error;
    const auto file = files.open(path, error);
    if (!file) {
        warn("the expected non-finite values could not be read: " + error);
    } else if (file->size() > kMaxExpectedFileBytes) {
        warn("the list of expected non-finite values is larger than " +
             std::to_string(kMaxExpectedFileBytes / 1024) + " KiB and was not read");
    } else {
        std::string text(file->size(), '\0');
        text.resize(file->readAt(0, text.data(), text.size()));
        ParsedPatterns parsed = parseExpectedFile(text);
        for (auto& p : parsed.patterns)
            if (std::find(patterns.begin(), patterns.end(), p) == patterns.end())
                patterns.push_back(std::move(p));
        for (const auto& e : parsed.errors)
            warn("expected non-finite values, " + e);
    }
    if (diagnostics.size() != before)
        sortBySeverity(diagnostics);
}

std::vector<std::string> patternTexts(const std::vector<ExpectedPattern>& patterns)
{
    std::vector<std::string> texts;
    texts.reserve(patterns.size());
    for (const auto& p : patterns)
        texts.push_back(p.text);
    return texts;
}

} // namespace nanscope::core
