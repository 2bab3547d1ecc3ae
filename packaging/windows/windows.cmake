# SPDX-License-Identifier: GPL-3.0-or-later
# Windows: nanscope.exe with Qt deployed next to it by windeployqt (Qt's deployment script), and
# an .msi made by the WiX Toolset: cpack -G WIX. Needs Qt 6.4 or later and WiX 3 on PATH.
# windows/nanscope.wxs.in describes the same product for wixl (msitools), which the Linux tests
# use to check it; both share the upgrade code, so either installer replaces the other.

set_target_properties(nanscope PROPERTIES WIN32_EXECUTABLE TRUE)

nanscope_install_qt_deployment()

set(CPACK_GENERATOR WIX)
set(CPACK_WIX_UPGRADE_GUID "${NANSCOPE_WIX_UPGRADE_GUID}")
set(CPACK_WIX_PRODUCT_ICON "${NANSCOPE_ICON_DIR}/${NANSCOPE_APP_ID}.ico")
set(CPACK_WIX_PROGRAM_MENU_FOLDER "NaNscope")
set(CPACK_WIX_PROPERTY_ARPURLINFOABOUT "${PROJECT_HOMEPAGE_URL}")
set(CPACK_WIX_PROPERTY_ARPHELPLINK "${PROJECT_HOMEPAGE_URL}")
set(CPACK_CREATE_DESKTOP_LINKS nanscope)
