# SPDX-License-Identifier: Apache-2.0
# The recorder SDK: libnanscope-recorder.so, its public headers, a CMake package
# (find_package(NaNscopeRecorder) -> NaNscope::recorder) and a pkg-config file
# (nanscope-recorder.pc).
#
# The shared library is linked from the very objects of the static nanscope_recorder and
# nanscope_summary libraries (compiled once, with hidden visibility), plus the static record
# framing and gpu libraries, whose symbols --exclude-libs keeps local. It exports only the
# NANSCOPE_API declarations of the public headers: the C++ and C APIs. Its runtime dependencies
# are the C++ runtime and, when found at build time, libdw (native stacks): no protobuf, whose
# messages it writes itself, so that it loads beside any other protobuf. A CUDA build links the
# static CUDA runtime into it.

include(CMakePackageConfigHelpers)

# While the major version is 0 any minor release may change the ABI, so the soname carries the
# minor version too (libnanscope-recorder.so.0.1); from 1.0 on it is the major version.
if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(NANSCOPE_RECORDER_SOVERSION "0.${PROJECT_VERSION_MINOR}")
    set(NANSCOPE_RECORDER_COMPATIBILITY SameMinorVersion)
else()
    set(NANSCOPE_RECORDER_SOVERSION "${PROJECT_VERSION_MAJOR}")
    set(NANSCOPE_RECORDER_COMPATIBILITY SameMajorVersion)
endif()
set(NANSCOPE_RECORDER_SOVERSION "${NANSCOPE_RECORDER_SOVERSION}" PARENT_SCOPE)

add_library(nanscope_recorder_shared SHARED
    $<TARGET_OBJECTS:nanscope_recorder>
    $<TARGET_OBJECTS:nanscope_summary>)
set_target_properties(nanscope_recorder_shared PROPERTIES
    OUTPUT_NAME nanscope-recorder
    VERSION "${PROJECT_VERSION}"
    SOVERSION "${NANSCOPE_RECORDER_SOVERSION}"
    EXPORT_NAME recorder
    LINKER_LANGUAGE CXX)
target_link_libraries(nanscope_recorder_shared PRIVATE
    NaNscope::gpu NaNscope::format_records Threads::Threads)
if(LIBDW_FOUND)
    target_link_libraries(nanscope_recorder_shared PRIVATE PkgConfig::LIBDW)
endif()
target_link_options(nanscope_recorder_shared PRIVATE "LINKER:--exclude-libs,ALL")
if(NOT NANSCOPE_SANITIZE)
    target_link_options(nanscope_recorder_shared PRIVATE "LINKER:--no-undefined")
endif()
# The SDK's headers come from the three layers it is made of; each folder names its own
# (the NANSCOPE_SDK_HEADERS property of its library).
set(sdk_layers nanscope_format_types nanscope_summary nanscope_recorder)
set(sdk_headers "${PROJECT_BINARY_DIR}/generated/include/nanscope/version.hpp")
set(sdk_include_dirs "${PROJECT_BINARY_DIR}/generated/include")
foreach(layer IN LISTS sdk_layers)
    get_target_property(layer_headers ${layer} NANSCOPE_SDK_HEADERS)
    list(APPEND sdk_headers ${layer_headers})
    foreach(header IN LISTS layer_headers)
        cmake_path(GET header PARENT_PATH header_dir)
        cmake_path(GET header_dir PARENT_PATH include_dir)
        list(APPEND sdk_include_dirs "${include_dir}")
    endforeach()
endforeach()
list(REMOVE_DUPLICATES sdk_include_dirs)
list(TRANSFORM sdk_include_dirs PREPEND "$<BUILD_INTERFACE:")
list(TRANSFORM sdk_include_dirs APPEND ">")
target_include_directories(nanscope_recorder_shared INTERFACE
    ${sdk_include_dirs}
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
# The C++ header needs C++20 (std::span, std::source_location); the C header needs C89.
target_compile_features(nanscope_recorder_shared INTERFACE cxx_std_20)

# Components: the run-time library (Debian: libnanscope-recorder<soversion>) and what building
# against it needs (libnanscope-recorder-dev).
install(TARGETS nanscope_recorder_shared
    EXPORT NaNscopeRecorderTargets
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        COMPONENT recorder
        NAMELINK_COMPONENT recorder_dev)
install(FILES ${sdk_headers}
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/nanscope"
    COMPONENT recorder_dev)

set(cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/NaNscopeRecorder")
install(EXPORT NaNscopeRecorderTargets
    NAMESPACE NaNscope::
    DESTINATION "${cmake_dir}"
    COMPONENT recorder_dev)
configure_package_config_file(sdk/NaNscopeRecorderConfig.cmake.in
    "${CMAKE_CURRENT_BINARY_DIR}/sdk/NaNscopeRecorderConfig.cmake"
    INSTALL_DESTINATION "${cmake_dir}")
write_basic_package_version_file(
    "${CMAKE_CURRENT_BINARY_DIR}/sdk/NaNscopeRecorderConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}"
    COMPATIBILITY ${NANSCOPE_RECORDER_COMPATIBILITY})
install(FILES
    "${CMAKE_CURRENT_BINARY_DIR}/sdk/NaNscopeRecorderConfig.cmake"
    "${CMAKE_CURRENT_BINARY_DIR}/sdk/NaNscopeRecorderConfigVersion.cmake"
    DESTINATION "${cmake_dir}"
    COMPONENT recorder_dev)

# The .pc file finds its prefix from its own location, so the installed tree can be moved (and
# installed with --prefix or DESTDIR) without rewriting it.
set(pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
file(RELATIVE_PATH NANSCOPE_PC_PREFIX_FROM_PCFILEDIR "/prefix/${pc_dir}" "/prefix")
string(REGEX REPLACE "/$" "" NANSCOPE_PC_PREFIX_FROM_PCFILEDIR
    "${NANSCOPE_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(sdk/nanscope-recorder.pc.in "${CMAKE_CURRENT_BINARY_DIR}/sdk/nanscope-recorder.pc"
    @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/sdk/nanscope-recorder.pc"
    DESTINATION "${pc_dir}"
    COMPONENT recorder_dev)
