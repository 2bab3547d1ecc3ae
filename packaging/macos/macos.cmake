# SPDX-License-Identifier: GPL-3.0-or-later
# macOS: NaNscope.app, with Qt and the other libraries it needs deployed into the bundle by
# macdeployqt (Qt's deployment script), and a drag-and-drop disk image: cpack -G DragNDrop.
# Needs Qt 6.4 or later; nanscope-report and nanscope-demo-mlp go into Contents/MacOS, next to
# the app, where "Open the Demo" finds the demo.

set_target_properties(nanscope PROPERTIES
    MACOSX_BUNDLE TRUE
    OUTPUT_NAME NaNscope
    MACOSX_BUNDLE_INFO_PLIST "${CMAKE_CURRENT_SOURCE_DIR}/macos/Info.plist.in"
    MACOSX_BUNDLE_BUNDLE_NAME NaNscope
    MACOSX_BUNDLE_GUI_IDENTIFIER "${NANSCOPE_APP_ID}"
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_LONG_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_ICON_FILE "${NANSCOPE_APP_ID}.icns"
    MACOSX_BUNDLE_INFO_STRING "NaNscope ${PROJECT_VERSION}"
    MACOSX_BUNDLE_COPYRIGHT "The NaNscope developers")
install(FILES "${NANSCOPE_ICON_DIR}/${NANSCOPE_APP_ID}.icns"
    DESTINATION NaNscope.app/Contents/Resources COMPONENT app)

nanscope_install_qt_deployment()

set(CPACK_GENERATOR DragNDrop)
set(CPACK_DMG_VOLUME_NAME "NaNscope ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT UDZO)
set(CPACK_SYSTEM_NAME "macOS-${CMAKE_SYSTEM_PROCESSOR}")
