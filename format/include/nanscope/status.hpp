// SPDX-License-Identifier: Apache-2.0
// Errors that the recorder reports to its caller instead of throwing or aborting.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace nanscope {

enum class ErrorCode : int {
    Ok = 0,
    InvalidArgument = 1, // a bad option or call argument
    NotFound = 2,        // an unknown graph or op
    AlreadyExists = 3,   // an op name used twice in one graph
    IoError = 4,         // the file system refused (no permission, disk full, not a directory …)
    Closed = 5,          // the recorder was closed
    Unsupported = 6,     // e.g. device memory in a build without CUDA
    NonFinite = 7,       // stopped at the first non-finite value (stopAtFirstNonFinite)
};

class [[nodiscard]] Status
{
public:
    Status() = default;
    Status(ErrorCode code, std::string message) : m_code(code), m_message(std::move(message)) {}

    bool ok() const { return m_code == ErrorCode::Ok; }
    explicit operator bool() const { return ok(); }
    ErrorCode code() const { return m_code; }
    const std::string& message() const { return m_message; }

private:
    ErrorCode m_code = ErrorCode::Ok;
    std::string m_message;
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Status status) : m_status(std::move(status)) {}

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const Status& status() const { return m_status; }
    T& value() { return *m_value; }
    const T& value() const { return *m_value; }
    T* operator->() { return &*m_value; }
    const T* operator->() const { return &*m_value; }
    T& operator*() { return *m_value; }

private:
    std::optional<T> m_value;
    Status m_status;
};

} // namespace nanscope
