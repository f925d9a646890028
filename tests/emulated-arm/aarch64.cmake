# Cross-builds uarchdiff for aarch64 Linux, statically, against a sysroot of
# Debian's arm64 -dev packages extracted with dpkg-deb (tests/emulated-arm/run.sh
# makes one under build/emulated-arm/sysroot).  Everything the cross build
# needs lives here, so the project's CMakeLists.txt stays as it is:
#
#   cmake -S . -B build/emulated-arm/build \
#         -DCMAKE_TOOLCHAIN_FILE=tests/emulated-arm/aarch64.cmake \
#         -DUD_ARM_SYSROOT=$PWD/build/emulated-arm/sysroot -DBUILD_TESTING=OFF

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

# try_compile re-reads this file in a fresh project: pass the sysroot on.
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES UD_ARM_SYSROOT)
if(NOT UD_ARM_SYSROOT)
  message(FATAL_ERROR "aarch64.cmake: set UD_ARM_SYSROOT to the extracted arm64 -dev packages")
endif()

# The cross compiler brings its own libc (libc6-dev-arm64-cross); the sysroot
# only adds the libraries uarchdiff links, so it is searched, not --sysroot.
set(CMAKE_FIND_ROOT_PATH "${UD_ARM_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# pkg-config must read the arm64 .pc files, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "${UD_ARM_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${UD_ARM_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${UD_ARM_SYSROOT}")
set(ENV{PKG_CONFIG_PATH} "")

# Static: the guest has no shared libraries.  pkg-config's imported targets
# resolve -ljansson with find_library, which picks the .so (the platform files
# reset CMAKE_FIND_LIBRARY_SUFFIXES after this file): name the .a files in the
# cache variables find_library fills, so it has nothing left to find.
set(_ud_libdir "${UD_ARM_SYSROOT}/usr/lib/aarch64-linux-gnu")
set(pkgcfg_lib_JANSSON_jansson "${_ud_libdir}/libjansson.a" CACHE FILEPATH "static, for the guest")
set(pkgcfg_lib_LIBELF_elf "${_ud_libdir}/libelf.a" CACHE FILEPATH "static, for the guest")
set(PFM_LIBRARY "${_ud_libdir}/libpfm.a" CACHE FILEPATH "static, for the guest")
# a static binary cannot dlopen() libpfm4 as the host build does: linked in
set(UD_PFM_LINKED ON CACHE BOOL "static, for the guest")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -L${_ud_libdir}")
# libelf.a needs zlib and zstd (its Libs.private), which the plain .pc omits.
set(CMAKE_C_STANDARD_LIBRARIES "-lz -lzstd -lm" CACHE STRING "" FORCE)
