# SPDX-License-Identifier: GPL-3.0-or-later
# The Alerts, Executions, Graph Execution, Stack Trace, Source and Tensor panels and the main
# window.
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

# End to end on the demo's logdir: it needs the demo program.
if(TARGET nanscope_app AND TARGET nanscope-demo-mlp)
    nanscope_add_qtest(tst_mainwindow tst_mainwindow.cpp)
    target_link_libraries(tst_mainwindow PRIVATE NaNscope::app nanscope_test_logdirs)
    target_compile_definitions(tst_mainwindow PRIVATE
        NANSCOPE_DEMO_MLP="$<TARGET_FILE:nanscope-demo-mlp>")
    add_dependencies(tst_mainwindow nanscope-demo-mlp)

    # What the desktop entry relies on: a logdir opened from its .metadata file (Exec=nanscope %f)
    # and the version in the About box.
    nanscope_add_qtest(tst_desktopentry tst_desktopentry.cpp)
    target_link_libraries(tst_desktopentry PRIVATE NaNscope::app)
    target_compile_definitions(tst_desktopentry PRIVATE
        NANSCOPE_DEMO_MLP="$<TARGET_FILE:nanscope-demo-mlp>"
        NANSCOPE_PROJECT_VERSION="${PROJECT_VERSION}")
    add_dependencies(tst_desktopentry nanscope-demo-mlp)
    set_tests_properties("views: tst_desktopentry" PROPERTIES LABELS "views;packaging")

    # The command line as scripts use it: the app run as a program (--help, --goto,
    # --print-focus), on the demo's logdir and a TensorFlow-shaped one.
    nanscope_add_qtest(tst_commandline tst_commandline.cpp)
    target_link_libraries(tst_commandline PRIVATE NaNscope::app nanscope_test_logdirs)
    target_compile_definitions(tst_commandline PRIVATE
        NANSCOPE_DEMO_MLP="$<TARGET_FILE:nanscope-demo-mlp>"
        NANSCOPE_APP_EXE="$<TARGET_FILE:nanscope>")
    add_dependencies(tst_commandline nanscope-demo-mlp nanscope)
endif()

# "Treat as Expected" and "Expected Values…": per-logdir settings and the reload.
if(TARGET nanscope_app)
    nanscope_add_qtest(tst_expectedvalues tst_expectedvalues.cpp)
    target_link_libraries(tst_expectedvalues PRIVATE NaNscope::app nanscope_test_logdirs)
    # A run of several ranks whose NaN was made on another than the first: banner and reload.
    nanscope_add_qtest(tst_hostorigins tst_hostorigins.cpp)
    target_link_libraries(tst_hostorigins PRIVATE NaNscope::app nanscope_test_logdirs)
    # Executions' dock: in front for an eager run, behind Graph Execution for a graph run.
    nanscope_add_qtest(tst_executionsdock tst_executionsdock.cpp)
    target_link_libraries(tst_executionsdock PRIVATE NaNscope::app nanscope_test_logdirs)
    # File › Compare With… and the Compare view (views::ComparePanel).
    nanscope_add_qtest(tst_compare tst_compare.cpp)
    target_link_libraries(tst_compare PRIVATE NaNscope::app nanscope_test_logdirs)
    # The room each panel keeps in the window at 1280 × 800 and 1920 × 1080: Graph Structure's
    # neighbourhood in its pane, compact timeline lanes, the alerts' filters readable.
    nanscope_add_qtest(tst_layoutroom tst_layoutroom.cpp)
    target_link_libraries(tst_layoutroom PRIVATE NaNscope::app nanscope_test_logdirs)
endif()

# What the table panels share: host and device filters, rows worked out by snapshot jobs,
# fitted columns. White-box: the shared parts are the views library's own.
nanscope_add_qtest(tst_tablespine tst_tablespine.cpp)
target_link_libraries(tst_tablespine PRIVATE nanscope_test_logdirs)
target_include_directories(tst_tablespine PRIVATE ${PROJECT_SOURCE_DIR}/views/src)
