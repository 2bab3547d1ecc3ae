# SPDX-License-Identifier: GPL-3.0-or-later
# CPack External generator script (CPACK_EXTERNAL_PACKAGE_SCRIPT): makes the AppImage.
#
# CPack has installed the `app` component under its staging directory (prefix /usr, stripped).
# This script turns that tree into an AppDir (bundle-appdir.sh) and packs it with the runtime
# (make-appimage.sh). The CPACK_APPIMAGE_* variables come from packaging/CMakeLists.txt.

foreach(variable IN ITEMS CPACK_APPIMAGE_TOOLS_DIR CPACK_APPIMAGE_RUNTIME CPACK_APPIMAGE_ARCH
                          CPACK_APPIMAGE_DESKTOP_ID)
    if(NOT ${variable})
        message(FATAL_ERROR "AppImage: ${variable} is not set; was CMake configured on Linux with "
                            "the AppImage runtime's libraries (scripts/setup.sh)?")
    endif()
endforeach()
if(NOT EXISTS "${CPACK_APPIMAGE_RUNTIME}")
    message(FATAL_ERROR "AppImage: no runtime at ${CPACK_APPIMAGE_RUNTIME}; build the "
                        "nanscope-appimage-runtime target first")
endif()

# With component installation CPack stages each component in a directory of its own.
set(appdir "${CPACK_TEMPORARY_DIRECTORY}")
if(IS_DIRECTORY "${appdir}/app")
    set(appdir "${appdir}/app")
endif()
if(NOT EXISTS "${appdir}/usr/bin/nanscope")
    message(FATAL_ERROR "AppImage: ${appdir} has no usr/bin/nanscope; is "
                        "CPACK_PACKAGING_INSTALL_PREFIX /usr?")
endif()

set(output "${CPACK_TOPLEVEL_DIRECTORY}/${CPACK_PACKAGE_NAME}-${CPACK_PACKAGE_VERSION}-${CPACK_APPIMAGE_ARCH}.AppImage")
execute_process(
    COMMAND bash "${CPACK_APPIMAGE_TOOLS_DIR}/bundle-appdir.sh" "${appdir}" "${CPACK_APPIMAGE_DESKTOP_ID}"
    COMMAND_ERROR_IS_FATAL ANY)
execute_process(
    COMMAND bash "${CPACK_APPIMAGE_TOOLS_DIR}/make-appimage.sh" "${CPACK_APPIMAGE_RUNTIME}" "${appdir}" "${output}"
    COMMAND_ERROR_IS_FATAL ANY)
# CPack copies what is listed here into the package directory.
set(CPACK_EXTERNAL_BUILT_PACKAGES "${output}")
