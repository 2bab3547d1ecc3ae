// SPDX-License-Identifier: GPL-3.0-or-later
// The Executions panel's jobs off the GUI thread (its rows are FilteredRows'), and where their
// results go.
#pragma once

#include "nanscope/core/eagerneighbourhood.hpp"
#include "nanscope/items/executionquery.hpp"
#include "nanscope/views/executionspanel.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/findbar.hpp"
#include "snapshotjob.hpp"

#include <QSet>
#include <cstdint>
#include <optional>

namespace nanscope::views {

class ExecutionsPanel::Jobs
{
public:
    struct FindResult
    {
        std::optional<std::uint64_t> execution;
        items::ExecutionMatch position;
    };

    explicit Jobs(ExecutionsPanel* panel)
        : choices([panel](items::ExecutionChoices c) { panel->showChoices(std::move(c)); }),
          find([panel](FindResult result) {
              panel->findBar()->setMatch(result.position.ordinal,
                                         result.execution ? result.position.total : 0);
              if (result.execution)
                  panel->navigator()->focusExecution(*result.execution);
          }),
          neighbours([panel](const core::EagerNeighbourhood& n) {
              // The focus may have moved on while it was worked out.
              const Focus& focus = panel->navigator()->focus();
              if (!focus.event || focus.event->source != core::EventSource::Eager ||
                  focus.event->index != n.execution)
                  return;
              QSet<int> producers;
              QSet<int> consumers;
              for (const core::EagerEdge& edge : n.producers)
                  if (edge.execution)
                      producers.insert(static_cast<int>(*edge.execution));
              for (const core::EagerEdge& edge : n.consumers)
                  if (edge.execution)
                      consumers.insert(static_cast<int>(*edge.execution));
              panel->m_proxy->setHighlightedRows(producers, consumers);
              panel->m_neighbours =
                  producers.isEmpty() && consumers.isEmpty()
                      ? QString()
                      : ExecutionsPanel::tr("Producers: %L1 · consumers: %L2%3")
                            .arg(producers.size())
                            .arg(consumers.size())
                            .arg(n.consumersCut ? QStringLiteral("+") : QString());
              panel->updateStatus();
          })
    {}

    SnapshotJob<items::ExecutionChoices> choices;
    SnapshotJob<FindResult> find;
    SnapshotJob<core::EagerNeighbourhood> neighbours;
};

} // namespace nanscope::views
