# SPDX-License-Identifier: GPL-3.0-or-later
# The Alerts, Executions, Graph Execution, Stack Trace, Source and Tensor panels, and what they
# share. The source view is QScintilla (Debian: libqscintilla2-qt6-dev); scans of the index run on
# Qt Concurrent.
find_package(Qt6 6.4 REQUIRED COMPONENTS Concurrent PrintSupport) # PrintSupport: for QScintilla
find_package(QScintilla REQUIRED)

list(APPEND NANSCOPE_VIEWS_SOURCES
    include/nanscope/views/alertspanel.hpp
    include/nanscope/views/comparepanel.hpp
    include/nanscope/views/executionspanel.hpp
    include/nanscope/views/graphexecutionpanel.hpp
    include/nanscope/views/snapshotnotices.hpp
    include/nanscope/views/tablepanel.hpp
    include/nanscope/views/sourcepanel.hpp
    include/nanscope/views/stacktracepanel.hpp
    include/nanscope/views/tensorpanel.hpp
    include/nanscope/views/rowlistproxymodel.hpp
    src/alertspanel.cpp
    src/alertspanelprivate.hpp
    src/alertspanelrows.cpp
    src/alertspanelsetup.cpp
    src/backgroundpool.cpp
    src/backgroundpool.hpp
    src/comparepanel.cpp
    src/executionspanel.cpp
    src/executionspanelprivate.hpp
    src/executionspanelsetup.cpp
    src/expectedpattern.cpp
    src/expectedpattern.hpp
    src/filteredrows.cpp
    src/filteredrows.hpp
    src/graphexecutionpanel.cpp
    src/graphexecutionpanelcolumns.cpp
    src/graphexecutionpanelsetup.cpp
    src/healthstyle.cpp
    src/healthstyle.hpp
    src/originbox.cpp
    src/originbox.hpp
    src/placefilters.cpp
    src/placefilters.hpp
    src/qsci.hpp
    src/snapshotjob.hpp
    src/snapshotnotices.cpp
    src/sourcelexer.cpp
    src/sourcelexer.hpp
    src/sourcepanel.cpp
    src/stacktracepanel.cpp
    src/tablepanel.cpp
    src/tablesearch.cpp
    src/tablesearch.hpp
    src/tensorcelldelegate.cpp
    src/tensorcelldelegate.hpp
    src/tensorexport.cpp
    src/tensorexport.hpp
    src/tensorpanel.cpp
    src/tensorpanelcontrols.cpp
    src/tensortableview.cpp
    src/tensortableview.hpp
    src/rowlistproxymodel.cpp
    src/runstripsource.cpp
    src/runstripsource.hpp)
list(APPEND NANSCOPE_VIEWS_PRIVATE_LIBS QScintilla::QScintilla Qt6::Concurrent)
