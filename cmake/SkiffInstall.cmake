# Skiff as a C++ library: `cmake --install build --prefix P` installs the shared libskiff (the
# predictor, the op API, autograd, nn, optimizers: every static library under
# skiff_inference, linked whole), the headers the public ones need (include/skiff and the
# internal headers they include, found by the compiler, generated ones included), a CMake
# package (`find_package(Skiff)`, target `Skiff::skiff`) and skiff.pc for pkg-config.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Every archive behind skiff_inference; linked whole so that the kernels' and passes' static
# registrations are kept although nothing calls them by name.
set(SKIFF_LIBRARY_ARCHIVES skiff_inference skiff_frontend skiff_runtime skiff_op_dialect skiff_ops
                           skiff_ir skiff_core skiff_profiler skiff_dist_types skiff_base)
# The target is skiff_shared (`skiff` is the command-line tool); the file is libskiff.so and the
# exported name Skiff::skiff.
add_library(skiff_shared SHARED ${CMAKE_SOURCE_DIR}/skiff/library.cc)
add_library(Skiff::skiff ALIAS skiff_shared)
set_target_properties(skiff_shared PROPERTIES OUTPUT_NAME skiff EXPORT_NAME skiff
                                              VERSION ${PROJECT_VERSION}
                                              SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
set(_skiff_whole)
foreach(lib IN LISTS SKIFF_LIBRARY_ARCHIVES)
  list(APPEND _skiff_whole $<TARGET_FILE:${lib}>)
  add_dependencies(skiff_shared ${lib})
endforeach()
# The archives' own dependencies (oneDNN, LAPACKE, OpenMP, libdl) come with skiff_inference;
# their objects come whole from the list above. -Bsymbolic: calls inside the library stay
# inside it.
target_link_libraries(skiff_shared PRIVATE -Wl,--whole-archive ${_skiff_whole} -Wl,--no-whole-archive
                                    skiff_inference)
target_link_options(skiff_shared PRIVATE -Wl,-Bsymbolic)
target_include_directories(skiff_shared INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(skiff_shared INTERFACE cxx_std_20)

# The installed headers: what the compiler reads for include/skiff/* and for the internal
# headers the C++ examples include, listed by -MM (system headers left out).
file(GLOB_RECURSE _skiff_public_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/skiff/*.h)
set(SKIFF_EXAMPLE_HEADERS skiff/core/allocator.h skiff/core/views.h skiff/core/parallel.h
                          skiff/ops/kernels/cpu/isa.h skiff/base/error.h)
set(_skiff_header_roots ${CMAKE_BINARY_DIR}/skiff_installed_headers.cc)
set(_skiff_root_text "// Every header `cmake --install` installs is reached from here.\n")
foreach(h IN LISTS _skiff_public_headers)
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/include ${h})
  string(APPEND _skiff_root_text "#include \"${rel}\"\n")
endforeach()
foreach(h IN LISTS SKIFF_EXAMPLE_HEADERS)
  string(APPEND _skiff_root_text "#include \"${h}\"\n")
endforeach()
file(CONFIGURE OUTPUT ${_skiff_header_roots} CONTENT "${_skiff_root_text}")
set(SKIFF_HEADER_DEPS ${CMAKE_BINARY_DIR}/skiff_installed_headers.d)
add_custom_command(
  OUTPUT ${SKIFF_HEADER_DEPS}
  COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -MM -MT ${SKIFF_HEADER_DEPS} -MF ${SKIFF_HEADER_DEPS}
          -I${CMAKE_SOURCE_DIR} -I${CMAKE_BINARY_DIR} -I${CMAKE_SOURCE_DIR}/include
          ${_skiff_header_roots}
  DEPENDS ${_skiff_header_roots} ${_skiff_public_headers}
  # The listing is its own depfile: a header that starts including another one redoes it.
  DEPFILE ${SKIFF_HEADER_DEPS}
  COMMENT "Listing the headers libskiff installs"
  VERBATIM)
add_custom_target(skiff_installed_headers ALL DEPENDS ${SKIFF_HEADER_DEPS})
# The generated headers (op API) must exist before the compiler can follow them.
add_dependencies(skiff_installed_headers skiff_shared)

install(TARGETS skiff_shared EXPORT SkiffTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(CODE "
  set(SKIFF_HEADER_DEPS \"${SKIFF_HEADER_DEPS}\")
  set(SKIFF_SOURCE_DIR \"${CMAKE_SOURCE_DIR}\")
  set(SKIFF_BINARY_DIR \"${CMAKE_BINARY_DIR}\")
  set(SKIFF_INCLUDE_DEST \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}\")
  include(\"${CMAKE_SOURCE_DIR}/cmake/install_headers.cmake\")")
set(_skiff_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Skiff)
install(EXPORT SkiffTargets NAMESPACE Skiff:: DESTINATION ${_skiff_cmake_dir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/SkiffConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/SkiffConfig.cmake
                              INSTALL_DESTINATION ${_skiff_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/SkiffConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/SkiffConfig.cmake ${CMAKE_BINARY_DIR}/SkiffConfigVersion.cmake
        DESTINATION ${_skiff_cmake_dir})
configure_file(${CMAKE_SOURCE_DIR}/cmake/skiff.pc.in ${CMAKE_BINARY_DIR}/skiff.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/skiff.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
