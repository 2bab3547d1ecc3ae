# SPDX-License-Identifier: GPL-3.0-or-later

set(NANSCOPE_SUMMARY_TEST_SOURCES tst_summary.cpp)
