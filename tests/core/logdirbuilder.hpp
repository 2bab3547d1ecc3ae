// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: temporary directories, DebugEvents built field by field, and file sets written
// record by record (or byte by byte), including records our recorder would never write.
#pragma once

#include "nanscope/tfdbg/debug_event.pb.h"
#include "tempdir.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::test {

std::string readBytes(const std::filesystem::path& file);
void writeBytes(const std::filesystem::path& file, std::string_view bytes);
void appendBytes(const std::filesystem::path& file, std::string_view bytes);

// The framed record of an event (TFRecord: length, CRCs, payload).
std::string framed(const tfdbg::DebugEvent& event);

// A record header (length and its masked CRC) claiming `length` payload bytes, with nothing
// behind it.
std::string recordHeader(std::uint64_t length);

namespace events {

tfdbg::DebugEvent metadata(double wallTime, const std::string& runId,
                           const std::string& version = "2.15.0");
tfdbg::DebugEvent sourceFile(const std::string& path, const std::string& host,
                             const std::vector<std::string>& lines);
tfdbg::DebugEvent stackFrame(const std::string& id, int fileIndex, int line,
                             const std::string& function);
tfdbg::DebugEvent graph(const std::string& id, const std::string& name,
                        const std::string& outer = {});
tfdbg::DebugEvent op(const std::string& graphId, const std::string& type, const std::string& name,
                     const std::vector<std::string>& inputs, const std::vector<int>& outputIds,
                     const std::vector<std::string>& frames = {});
tfdbg::DebugEvent device(int id, const std::string& name);
tfdbg::DebugEvent trace(double wallTime, const std::string& graphId, const std::string& opName,
                        int slot, int mode, const tfdbg::TensorProto& tensor);
tfdbg::DebugEvent execution(double wallTime, const std::string& opType,
                            const std::vector<std::int64_t>& inputs,
                            const std::vector<std::int64_t>& outputs, int mode,
                            const std::vector<tfdbg::TensorProto>& tensors,
                            const std::string& graphId = {},
                            const std::vector<std::string>& frames = {});

// Payload tensors (format §6.2, §6.3, §7.4).
tfdbg::TensorProto summary(const std::vector<double>& values); // float64 with raw content
tfdbg::TensorProto fullHealth(double id, double size, double negInf, double posInf, double nan,
                              double negative, double zero, double positive);
tfdbg::TensorProto conciseHealth(double id, double size, double negInf, double posInf, double nan);
tfdbg::TensorProto curtHealth(double id, bool nonFinite);
tfdbg::TensorProto noTensor();
tfdbg::TensorProto floatContent(const std::vector<float>& values);
tfdbg::TensorProto floatTyped(const std::vector<float>& values, std::int64_t elements);

} // namespace events

// The files of one file set: <dir>/tfdbg_events.<time>.<host>.<suffix>.
class FileSetWriter
{
public:
    FileSetWriter(std::filesystem::path dir, std::string host = "localhost",
                  std::int64_t time = 1700000000);

    std::filesystem::path file(std::string_view suffix) const;
    void createAll() const; // the six files, empty
    void append(std::string_view suffix, const tfdbg::DebugEvent& event) const;
    void appendBytes(std::string_view suffix, std::string_view bytes) const;
    void writeMetadata(double wallTime, const std::string& runId) const;

private:
    std::filesystem::path m_prefix;
};

// The files of run "run" (metadata at wall time 1.0), created empty: each test then appends
// only what it is about.
FileSetWriter emptyRun(const std::filesystem::path& dir);

// emptyRun with graph "g" holding one op, Relu "r" (one output, one element).
FileSetWriter runWithOneOp(const std::filesystem::path& dir);

// A small complete logdir written by hand: graph "g" with ops x, y (Placeholder), Log(x),
// Mul(Log, y); four FULL_HEALTH traces x, y, Log (-inf), Mul (NaN); two CONCISE_HEALTH
// executions; one source file with three frames.
void writeSmallLogdir(const std::filesystem::path& dir);

} // namespace nanscope::test
