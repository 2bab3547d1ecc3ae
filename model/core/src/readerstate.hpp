// SPDX-License-Identifier: GPL-3.0-or-later
// Everything a LogdirReader knows between updates: the file sets it reads, where it stands in
// each file, and the index it built. A saved index (indexcache.hpp) is this, written down.
#pragma once

#include "indexstate.hpp"
#include "nanscope/core/logdirlayout.hpp"

#include <memory>
#include <vector>

namespace nanscope::core {

struct SavedIndexFile; // indexcache.hpp

struct ReaderState
{
    LogdirLayout layout;
    IndexState index;
    // The saved index this state was loaded from or last written to, as it was then: the next
    // save appends what was read since to it, while it is still exactly that file.
    std::shared_ptr<SavedIndexFile> savedIndex;
    FileState sourceFiles, stackFrames, graphs, executions;
    std::vector<FileState> traceFiles; // one per file set, in layout order
    // The .execution files of file sets 1, 2, … (entry h - 1): read apart from `executions`, as
    // TensorFlow's reader never reads them (IndexState::otherHostExecutions).
    std::vector<FileState> otherExecutionFiles;

    // Adds a file set after the known ones (indices stay stable).
    void adoptFileSet(const FileSet& set);

    // Every file, in a fixed order: the main set's four, then the trace files, then the other
    // sets' executions.
    template <typename F>
    void forEachFile(const F& f)
    {
        eachFileOf(*this, f);
    }
    template <typename F>
    void forEachFile(const F& f) const
    {
        eachFileOf(*this, f);
    }

private:
    template <typename Self, typename F>
    static void eachFileOf(Self& self, const F& f)
    {
        for (auto* file : {&self.sourceFiles, &self.stackFrames, &self.graphs, &self.executions})
            f(*file);
        for (auto& file : self.traceFiles)
            f(file);
        for (auto& file : self.otherExecutionFiles)
            f(file);
    }
};

} // namespace nanscope::core
