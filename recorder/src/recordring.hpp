// SPDX-License-Identifier: Apache-2.0
// TensorFlow's circular buffer of an execution-type file: its last records, oldest first. A
// graph execution trace is kept as its parts (wall time, op output frame, payload) and framed only
// when it is written: a training loop pushes nearly all of its traces out unwritten, and framing
// them (serialising, two CRCs, a copy of the frame) took half of a NO_TENSOR record call.
#pragma once

#include "wire/messages.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace nanscope::detail {

// A graph execution trace as wire::frameTrace takes it.
struct TraceParts
{
    double wallTime = 0.0;
    std::shared_ptr<const wire::TraceFrame> frame; // keeps its op's state alive
    // A payload that lives as long as the program (NO_TENSOR's placeholder) is kept by pointer;
    // otherwise `payload`, the caller's own, whose content a ring takes by swapping in storage of
    // its own for the caller to reuse.
    const wire::TensorProto* constantPayload = nullptr;
    wire::TensorProto* payload = nullptr;

    const wire::TensorProto& payloadToWrite() const
    {
        return constantPayload ? *constantPayload : *payload;
    }
};

class RecordRing
{
public:
    // One record: framed bytes, or a trace's parts.
    class Entry
    {
    public:
        bool framed() const { return m_frame == nullptr; }
        // The record's bytes; for a trace, framed into `scratch` (whose storage is reused).
        std::string_view bytes(std::string& scratch) const;
        // The record as a string of its own, taken from the entry when it is framed already.
        std::string take();

    private:
        friend class RecordRing;
        const wire::TensorProto& payload() const
        {
            return m_constantPayload ? *m_constantPayload : m_ownPayload;
        }

        std::string m_framed;                            // when m_frame is null
        std::shared_ptr<const wire::TraceFrame> m_frame; // a trace's parts
        double m_wallTime = 0.0;
        const wire::TensorProto* m_constantPayload = nullptr; // null: m_ownPayload
        wire::TensorProto m_ownPayload;
    };

    explicit RecordRing(std::size_t capacity = 0) : m_capacity(capacity) {}

    // Adds a framed record, built by `frame(std::string&)` into the storage of the record it
    // pushes out when the ring is full.
    template <typename Frame>
    void pushFramed(Frame&& frame)
    {
        Entry& e = next();
        frame(e.m_framed);
    }
    // Adds a trace unframed.
    void pushTrace(TraceParts&& trace);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    // The i-th record, oldest first.
    Entry& operator[](std::size_t i) { return m_entries[(m_first + i) % m_entries.size()]; }
    const Entry& operator[](std::size_t i) const
    {
        return m_entries[(m_first + i) % m_entries.size()];
    }

    // Everything held, leaving this ring empty with its capacity.
    RecordRing takeAll();

private:
    // The entry of the next record: a new one, or the oldest, pushed out with its storage kept.
    Entry& next();

    std::size_t m_capacity;
    std::vector<Entry> m_entries; // grows up to m_capacity
    std::size_t m_first = 0;      // the oldest record's entry
    std::size_t m_size = 0;
};

} // namespace nanscope::detail
