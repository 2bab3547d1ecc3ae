# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings, sanitizers and ccache for every NaNscope target.

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()

add_library(nanscope_compiler_flags INTERFACE)
add_library(NaNscope::compiler_flags ALIAS nanscope_compiler_flags)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(nanscope_compiler_flags INTERFACE
        -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wunused -Wimplicit-fallthrough
        $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Woverloaded-virtual>
        # Designated initializers are how the recorder API is meant to be used.
        -Wno-missing-field-initializers)
    if(NANSCOPE_WARNINGS_AS_ERRORS)
        target_compile_options(nanscope_compiler_flags INTERFACE -Werror)
    endif()
endif()

if(NANSCOPE_SANITIZE STREQUAL "ON")
    set(NANSCOPE_SANITIZE "address,undefined")
endif()
if(NANSCOPE_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
        message(FATAL_ERROR "NANSCOPE_FUZZ needs Clang 16 or later (libFuzzer, and "
                            "std::source_location with libstdc++): use the preset \"fuzz\"")
    endif()
    # Coverage for libFuzzer in every library the targets reach; the sanitizers turn silent
    # memory errors and undefined behaviour into crashes the fuzzer reports. The volume build
    # (preset "fuzz-volume") keeps UBSan only: AddressSanitizer's allocator and shadow memory cost
    # the logdir target most of its speed, so campaigns run there and replay every input they keep
    # through the ASan build (scripts/fuzz.sh).
    set(NANSCOPE_FUZZ_SANITIZERS "address,undefined" CACHE STRING
        "Sanitizers of the libFuzzer build (address,undefined or undefined)")
    add_compile_options(-fsanitize=fuzzer-no-link,${NANSCOPE_FUZZ_SANITIZERS}
                        -fno-omit-frame-pointer -fno-sanitize-recover=undefined
                        -fsanitize-coverage-ignorelist=${PROJECT_SOURCE_DIR}/fuzz/coverage-ignorelist.txt)
    add_link_options(-fsanitize=${NANSCOPE_FUZZ_SANITIZERS})
elseif(NANSCOPE_SANITIZE AND NOT NANSCOPE_SANITIZE STREQUAL "OFF")
    # Directory-wide, tests included, so that a report points at our own line.
    add_compile_options(-fsanitize=${NANSCOPE_SANITIZE} -fno-omit-frame-pointer)
    add_link_options(-fsanitize=${NANSCOPE_SANITIZE})
    if(NANSCOPE_SANITIZE MATCHES "undefined")
        # A UB report must fail the test that caused it, not scroll by.
        add_compile_options(-fno-sanitize-recover=undefined)
    endif()
endif()
