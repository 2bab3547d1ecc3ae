# SPDX-License-Identifier: GPL-3.0-or-later
# Finds QScintilla for Qt 6 (Debian: libqscintilla2-qt6-dev), which ships no CMake package.
# Defines QScintilla_FOUND and the imported target QScintilla::QScintilla.

find_path(QScintilla_INCLUDE_DIR Qsci/qsciscintilla.h
    HINTS ${Qt6Core_INCLUDE_DIRS} ${QT6_INSTALL_PREFIX}/include
    PATH_SUFFIXES qt6 x86_64-linux-gnu/qt6 aarch64-linux-gnu/qt6)
find_library(QScintilla_LIBRARY NAMES qscintilla2_qt6 qscintilla2)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QScintilla
    REQUIRED_VARS QScintilla_LIBRARY QScintilla_INCLUDE_DIR)

if(QScintilla_FOUND AND NOT TARGET QScintilla::QScintilla)
    add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
    set_target_properties(QScintilla::QScintilla PROPERTIES
        IMPORTED_LOCATION "${QScintilla_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${QScintilla_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
endif()
mark_as_advanced(QScintilla_INCLUDE_DIR QScintilla_LIBRARY)
