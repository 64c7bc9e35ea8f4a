# Installs the harness as a CMake package:
#   find_package(benchprof REQUIRED)
#   target_link_libraries(my_bench PRIVATE benchprof::main)

include(CMakePackageConfigHelpers)

set(BENCHPROF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/benchprof)

install(EXPORT benchprofTargets
  NAMESPACE benchprof::
  DESTINATION ${BENCHPROF_CMAKE_DIR})

configure_package_config_file(cmake/benchprofConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/benchprofConfig.cmake
  INSTALL_DESTINATION ${BENCHPROF_CMAKE_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/benchprofConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/benchprofConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/benchprofConfigVersion.cmake
  DESTINATION ${BENCHPROF_CMAKE_DIR})
