# SPDX-License-Identifier: GPL-3.0-or-later
# The execution timeline and graph structure panels. Whole-graph layouts come from Graphviz's C
# library (Debian: libgraphviz-dev) and run off the GUI thread.
find_package(Qt6 6.4 REQUIRED COMPONENTS Concurrent)
find_package(PkgConfig REQUIRED)
pkg_check_modules(GVC REQUIRED IMPORTED_TARGET libgvc libcgraph)

list(APPEND NANSCOPE_VIEWS_SOURCES
    include/nanscope/views/executiontimelinepanel.hpp
    include/nanscope/views/graphstructurepanel.hpp
    include/nanscope/views/graphvizlayout.hpp
    src/eagerpicture.cpp
    src/eagerpicture.hpp
    src/executiondescription.cpp
    src/executiondescription.hpp
    src/executiondetailsview.cpp
    src/executiondetailsview.hpp
    src/executionstripsource.cpp
    src/executionstripsource.hpp
    src/executiontimelinelanes.cpp
    src/executiontimelinelanes.hpp
    src/executiontimelinepanel.cpp
    src/graphitems.cpp
    src/graphitems.hpp
    src/graphpicture.cpp
    src/graphpicture.hpp
    src/graphscene.cpp
    src/graphscene.hpp
    src/graphstructurefind.cpp
    src/graphstructurepanel.cpp
    src/graphstructurepanelstate.cpp
    src/graphstructuretoolbar.cpp
    src/graphstructureview.cpp
    src/graphstructureview.hpp
    src/graphvizlayout.cpp
    src/legend.cpp
    src/legend.hpp
    src/neighbourhoodpicture.cpp
    src/neighbourhoodpicture.hpp
    src/wholegraphpicture.cpp
    src/wholegraphpicture.hpp)
list(APPEND NANSCOPE_VIEWS_PRIVATE_LIBS PkgConfig::GVC Qt6::Concurrent)
