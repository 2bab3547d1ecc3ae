# SPDX-License-Identifier: GPL-3.0-or-later
# The timeline strip (and its scale maths), the segment bar and plain tooltips: used by the
# execution timeline and graph structure panels, but free of anything logdir-specific.
list(APPEND NANSCOPE_WIDGETS_SOURCES
    include/nanscope/widgets/plaintooltip.hpp
    include/nanscope/widgets/segmentbar.hpp
    include/nanscope/widgets/timelinescale.hpp
    include/nanscope/widgets/timelinestrip.hpp
    src/plaintooltip.cpp
    src/segmentbar.cpp
    src/timelinescale.cpp
    src/timelinestrip.cpp
    src/timelinestripinput.cpp
    src/timelinestrippaint.cpp
    src/timelinestriprows.hpp)
