# SPDX-License-Identifier: GPL-3.0-or-later
# The execution timeline and graph structure panels. Set NANSCOPE_SCREENSHOT_DIR to a folder to
# have the panel tests save pictures of what they show.
nanscope_add_qtest(tst_executiontimelinepanel tst_executiontimelinepanel.cpp
    losslogdir.cpp losslogdir.hpp)
target_link_libraries(tst_executiontimelinepanel PRIVATE NaNscope::format nanscope_test_logdirs)
nanscope_add_qtest(tst_graphvizlayout tst_graphvizlayout.cpp)
nanscope_add_qtest(tst_graphstructurepanel tst_graphstructurepanel.cpp
    losslogdir.cpp losslogdir.hpp)
