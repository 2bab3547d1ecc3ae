# SPDX-License-Identifier: GPL-3.0-or-later
# Domain-free widgets of the main window and its panels: they know Qt, not logdirs.
list(APPEND NANSCOPE_WIDGETS_SOURCES
    include/nanscope/widgets/banner.hpp
    include/nanscope/widgets/chiplabel.hpp
    include/nanscope/widgets/columnfit.hpp
    include/nanscope/widgets/copyabletableview.hpp
    include/nanscope/widgets/elidedlabel.hpp
    include/nanscope/widgets/findbar.hpp
    include/nanscope/widgets/fittedcolumns.hpp
    include/nanscope/widgets/healthbardelegate.hpp
    include/nanscope/widgets/numberdelegate.hpp
    include/nanscope/widgets/numberformat.hpp
    include/nanscope/widgets/plainlabel.hpp
    include/nanscope/widgets/plaintextdelegate.hpp
    include/nanscope/widgets/scopenamedelegate.hpp
    include/nanscope/widgets/startpage.hpp
    include/nanscope/widgets/toolrow.hpp
    include/nanscope/widgets/uniformtableview.hpp
    src/banner.cpp
    src/chiplabel.cpp
    src/columnfit.cpp
    src/copyabletableview.cpp
    src/elidedlabel.cpp
    src/findbar.cpp
    src/fittedcolumns.cpp
    src/healthbardelegate.cpp
    src/numberdelegate.cpp
    src/numberformat.cpp
    src/plainlabel.cpp
    src/plaintextdelegate.cpp
    src/scopenamedelegate.cpp
    src/shapedtext.cpp
    src/shapedtext.hpp
    src/startpage.cpp
    src/toolrow.cpp
    src/uniformtableview.cpp)
