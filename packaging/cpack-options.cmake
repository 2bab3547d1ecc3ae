# SPDX-License-Identifier: GPL-3.0-or-later
# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE), after CPackConfig.cmake.
if(CPACK_GENERATOR STREQUAL "External")
    # The AppImage is the desktop app and its tools; the SDK is for the .deb.
    set(CPACK_COMPONENTS_ALL app)
endif()
