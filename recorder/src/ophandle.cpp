// SPDX-License-Identifier: Apache-2.0
// The public value types of recorder.hpp that need no recorder: CodeLocation and OpHandle's
// accessors.
#include "nanscope/recorder.hpp"
#include "nativestack.hpp"
#include "opstate.hpp"

#include <utility>

namespace nanscope {

namespace {

const std::string& emptyString()
{
    static const std::string empty;
    return empty;
}

} // namespace

CodeLocation::CodeLocation(std::source_location where)
    : file(where.file_name()), line(static_cast<int>(where.line())),
      function(detail::shortFunctionName(where.function_name()))
{}

CodeLocation::CodeLocation(std::string file_, int line_, std::string function_)
    : file(std::move(file_)), line(line_), function(std::move(function_))
{}

const std::string& OpHandle::graphId() const
{
    return m_state ? m_state->graphId : emptyString();
}

const std::string& OpHandle::name() const
{
    return m_state ? m_state->name : emptyString();
}

const std::string& OpHandle::type() const
{
    return m_state ? m_state->type : emptyString();
}

int OpHandle::numOutputs() const
{
    return m_state ? m_state->numOutputs : 0;
}

const std::vector<std::int32_t>& OpHandle::outputTensorIds() const
{
    static const std::vector<std::int32_t> none;
    return m_state ? m_state->outputTensorIds : none;
}

} // namespace nanscope
