// SPDX-License-Identifier: Apache-2.0
#include "dumppolicy.hpp"

#include "regexrepeats.hpp"
#include "unwrittenoutputs.hpp"

#include <algorithm>
#include <utility>

namespace nanscope::detail {

namespace {

bool isValidMode(TensorDebugMode mode)
{
    switch (mode) {
    case TensorDebugMode::NoTensor:
    case TensorDebugMode::CurtHealth:
    case TensorDebugMode::ConciseHealth:
    case TensorDebugMode::FullHealth:
    case TensorDebugMode::Shape:
    case TensorDebugMode::FullTensor:
        return true;
    }
    return false;
}

bool isValidDType(DType dtype)
{
    return dtype != DType::Invalid && dtypeName(dtype) != "unknown";
}

} // namespace

Status DumpPolicy::checkOptions(TensorDebugMode mode, const std::vector<DType>& tensorDtypes)
{
    if (!isValidMode(mode))
        return {ErrorCode::InvalidArgument,
                "unknown tensor debug mode " + std::to_string(static_cast<int>(mode))};
    for (const DType d : tensorDtypes)
        if (!isValidDType(d))
            return {ErrorCode::InvalidArgument, "unknown dtype " +
                                                    std::to_string(static_cast<int>(d)) +
                                                    " in the dtype filter"};
    return {};
}

Status DumpPolicy::configure(TensorDebugMode mode, std::vector<DType> tensorDtypes,
                             const std::string& opTypeRegex)
{
    m_mode = mode;
    m_tensorDtypes = std::move(tensorDtypes);
    m_opTypeRegex.reset();
    {
        std::lock_guard lock(m_cacheMutex);
        m_typeSelected.clear();
    }
    if (opTypeRegex.empty())
        return {};
    if (const auto unsafe = unsafeRepeat(opTypeRegex))
        return {ErrorCode::InvalidArgument,
                "the op type filter \"" + opTypeRegex + "\" " + unsafe->reason};
    try {
        m_opTypeRegex.emplace(opTypeRegex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        return {ErrorCode::InvalidArgument,
                "the op type filter \"" + opTypeRegex +
                    "\" is not a valid regular expression: " + e.what()};
    }
    return {};
}

bool DumpPolicy::selectsOpType(const std::string& type) const
{
    if (summariesWouldReadGarbage(type, m_mode))
        return false;
    return !m_opTypeRegex ||
           std::regex_search(type, *m_opTypeRegex, std::regex_constants::match_continuous);
}

bool DumpPolicy::executionTypeSelected(const std::string& type)
{
    if (!m_opTypeRegex)
        return selectsOpType(type); // no regex to cache
    std::lock_guard lock(m_cacheMutex);
    auto [it, inserted] = m_typeSelected.try_emplace(type, false);
    if (inserted)
        it->second = selectsOpType(type);
    return it->second;
}

bool DumpPolicy::tracesTensor(bool typeSelected, DType dtype) const
{
    return shouldDump(typeSelected, dtype) && modeCovers(dtype);
}

ExecutionOutput DumpPolicy::executionOutput(bool typeSelected, DType dtype) const
{
    if (!shouldDump(typeSelected, dtype) || m_mode == TensorDebugMode::NoTensor)
        return ExecutionOutput::Omitted;
    if (!modeCovers(dtype))
        return ExecutionOutput::Placeholder; // TensorFlow's empty placeholder (format §7.2)
    return ExecutionOutput::Summarised;
}

bool DumpPolicy::shouldDump(bool typeSelected, DType dtype) const
{
    if (!typeSelected || dtype == DType::Resource || dtype == DType::Variant ||
        dtype == DType::Invalid)
        return false;
    return m_tensorDtypes.empty() ||
           std::find(m_tensorDtypes.begin(), m_tensorDtypes.end(), dtype) != m_tensorDtypes.end();
}

bool DumpPolicy::modeCovers(DType dtype) const
{
    switch (m_mode) {
    case TensorDebugMode::CurtHealth:
    case TensorDebugMode::ConciseHealth:
    case TensorDebugMode::FullHealth:
        return isFloating(dtype);
    case TensorDebugMode::Shape:
        return isFloating(dtype) || isInteger(dtype) || dtype == DType::Bool;
    case TensorDebugMode::NoTensor:
    case TensorDebugMode::FullTensor:
        return true;
    }
    return false;
}

} // namespace nanscope::detail
