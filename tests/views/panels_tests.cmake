# SPDX-License-Identifier: GPL-3.0-or-later
# The Alerts, Executions, Graph Execution, Stack Trace, Source and Tensor panels (the main
# window is tests/app's).
nanscope_add_qtest(tst_panels tst_panels.cpp pylogdir.cpp pylogdir.hpp)
# Alerts set aside as intended (core/intent.hpp): the toggle, the counts, the origin box.
nanscope_add_qtest(tst_setaside tst_setaside.cpp)
target_link_libraries(tst_setaside PRIVATE NaNscope::format nanscope_test_logdirs)
# Executions: an eager-only run's table (filters, find, go to, sort, the shared focus).
nanscope_add_qtest(tst_executionspanel tst_executionspanel.cpp)
target_link_libraries(tst_executionspanel PRIVATE nanscope_test_logdirs)
# The Tensor panel: a FULL_TENSOR tensor's slice, the first non-finite cell, Copy, .npy export.
nanscope_add_qtest(tst_tensorpanel tst_tensorpanel.cpp)
target_link_libraries(tst_panels PRIVATE NaNscope::format nanscope_test_logdirs)

# What the table panels share: host and device filters, rows worked out by snapshot jobs,
# fitted columns. White-box: the shared parts are the views library's own.
nanscope_add_qtest(tst_tablespine tst_tablespine.cpp)
target_link_libraries(tst_tablespine PRIVATE nanscope_test_logdirs)
target_include_directories(tst_tablespine PRIVATE ${PROJECT_SOURCE_DIR}/views/src)
