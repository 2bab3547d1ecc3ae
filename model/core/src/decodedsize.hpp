// SPDX-License-Identifier: GPL-3.0-or-later
// How much memory a record takes once decoded, known before it is decoded.
//
// A record's length on disk says little about its size in memory: a GraphOpCreation of 32 MB may
// hold 16 million empty input names (each a heap string of 32 bytes or more in libprotobuf), an
// Execution 32 million empty tensor protos or tensor ids of one byte each. The reader bounds
// memory by what it builds, so every record read with libprotobuf, or kept in parts, is first
// walked over its wire format with its message type's descriptor: every repeated element, string
// and nested message is counted at what it costs once built. A record over its share is refused
// before anything is allocated for it.
#pragma once

#include <cstdint>
#include <google/protobuf/descriptor.h>
#include <optional>
#include <string_view>

namespace nanscope::core {

// An upper bound of the bytes that decoding `bytes` as a `type` message allocates (libprotobuf's
// representation, growth of repeated fields included; our own decoders take less). nullopt as
// soon as it passes `cap`. Malformed input is counted as far as it goes: the parser that follows
// rejects it. Linear in the input; nesting deeper than libprotobuf's recursion limit is counted
// as plain bytes.
std::optional<std::uint64_t> decodedBytes(const google::protobuf::Descriptor& type,
                                          std::string_view bytes, std::uint64_t cap);

// Whether every length field of a DebugEvent's wire bytes fits in what holds it, at every depth
// of its message fields (no group fields either). libprotobuf reserves a string from a nested
// length before it finds that the bytes behind it are missing: a 4 KB record whose nested
// message claims 2 GB made it reserve 50 MB. A record that fails this would fail to parse anyway.
bool wellFormedEvent(std::string_view payload);

// An upper bound of decodedBytes() for any DebugEvent record of `size` bytes, from its length
// alone: no wire byte costs more than the most any field costs per byte of its shortest encoding
// (an empty repeated string, or an empty nested message of the widest type). Lets the reader skip
// the walk when even this bound is within the limits, with the same outcome as the exact count.
std::uint64_t decodedEventBytesBound(std::uint64_t size);

} // namespace nanscope::core
