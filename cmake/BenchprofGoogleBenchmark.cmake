# Which Google Benchmark benchprof builds against, and whether it may.
#
# A benchmark::benchmark target that the parent project already defines
# (FetchContent, add_subdirectory) is used as it is; otherwise
# find_package(benchmark) finds an installed one (CMAKE_PREFIX_PATH picks a
# prefix). Its version selects the code paths for the library's API and
# flags (generated header <benchprof_benchmark_version.h>), so it must be
# known: from the package's version file, or the target's VERSION property,
# or, failing both, from BENCHPROF_BENCHMARK_VERSION set by the user.
#
# Sets BENCHPROF_BENCHMARK_VERSION (major.minor.patch),
# BENCHPROF_BENCHMARK_UNTESTED (ON when it is newer than the newest tested),
# BENCHPROF_BENCHMARK_SHARED (ON when libbenchmark is a shared library: the
# static one of Google Benchmark's default build hides its symbols, so no
# other shared library can call it), and the option BENCHPROF_INSTALL: an
# installed benchprof package needs an installed Google Benchmark, so it is
# off by default when the parent project builds Google Benchmark itself.

set(BENCHPROF_BENCHMARK_OLDEST 1.7.0)
set(BENCHPROF_BENCHMARK_NEWEST_TESTED 1.9.1)
option(BENCHPROF_ALLOW_UNTESTED_BENCHMARK
  "Build against a Google Benchmark newer than ${BENCHPROF_BENCHMARK_NEWEST_TESTED}, the newest benchprof is tested with"
  OFF)

set(_benchprof_gb_built_here OFF)
if(TARGET benchmark::benchmark)
  set(_benchprof_gb_source "the parent project's benchmark::benchmark target")
  get_target_property(_benchprof_gb_target benchmark::benchmark ALIASED_TARGET)
  if(NOT _benchprof_gb_target)
    set(_benchprof_gb_target benchmark::benchmark)
  endif()
  get_target_property(_benchprof_gb_version ${_benchprof_gb_target} VERSION)
  get_target_property(_benchprof_gb_imported ${_benchprof_gb_target} IMPORTED)
  if(NOT _benchprof_gb_imported)
    set(_benchprof_gb_built_here ON)
  endif()
else()
  find_package(benchmark REQUIRED)
  set(_benchprof_gb_target benchmark::benchmark)
  set(_benchprof_gb_source "${benchmark_DIR}")
  set(_benchprof_gb_version "${benchmark_VERSION}")
endif()

if(BENCHPROF_BENCHMARK_VERSION)
  set(_benchprof_gb_version "${BENCHPROF_BENCHMARK_VERSION}")
endif()
# A Git checkout's version may carry a commit count ("1.9.1.12"): keep three parts.
if(NOT _benchprof_gb_version MATCHES "^([0-9]+)\\.([0-9]+)\\.([0-9]+)")
  message(FATAL_ERROR
    "benchprof: cannot tell the version of Google Benchmark (${_benchprof_gb_source}); "
    "set -DBENCHPROF_BENCHMARK_VERSION=MAJOR.MINOR.PATCH")
endif()
set(BENCHPROF_BENCHMARK_VERSION "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
math(EXPR BENCHPROF_BENCHMARK_VERSION_NUMBER
  "${CMAKE_MATCH_1} * 10000 + ${CMAKE_MATCH_2} * 100 + ${CMAKE_MATCH_3}")

set(_benchprof_gb_range "${BENCHPROF_BENCHMARK_OLDEST} to ${BENCHPROF_BENCHMARK_NEWEST_TESTED}")
set(BENCHPROF_BENCHMARK_UNTESTED OFF)
if(BENCHPROF_BENCHMARK_VERSION VERSION_LESS BENCHPROF_BENCHMARK_OLDEST)
  message(FATAL_ERROR
    "benchprof: Google Benchmark ${BENCHPROF_BENCHMARK_VERSION} (${_benchprof_gb_source}) "
    "is older than supported (${_benchprof_gb_range})")
elseif(BENCHPROF_BENCHMARK_VERSION VERSION_GREATER BENCHPROF_BENCHMARK_NEWEST_TESTED)
  if(NOT BENCHPROF_ALLOW_UNTESTED_BENCHMARK)
    message(FATAL_ERROR
      "benchprof: Google Benchmark ${BENCHPROF_BENCHMARK_VERSION} (${_benchprof_gb_source}) "
      "is newer than tested (${_benchprof_gb_range}); "
      "-DBENCHPROF_ALLOW_UNTESTED_BENCHMARK=ON builds against it at your own risk")
  endif()
  set(BENCHPROF_BENCHMARK_UNTESTED ON)
  message(WARNING "benchprof: building against untested Google Benchmark ${BENCHPROF_BENCHMARK_VERSION}")
endif()
get_target_property(_benchprof_gb_type ${_benchprof_gb_target} TYPE)
if(_benchprof_gb_type STREQUAL "SHARED_LIBRARY")
  set(BENCHPROF_BENCHMARK_SHARED ON)
else()
  set(BENCHPROF_BENCHMARK_SHARED OFF)
endif()
string(TOLOWER "${_benchprof_gb_type}" _benchprof_gb_kind)  # "static_library"
string(REPLACE "_" " " _benchprof_gb_kind "${_benchprof_gb_kind}")
message(STATUS "benchprof: Google Benchmark ${BENCHPROF_BENCHMARK_VERSION}, ${_benchprof_gb_kind} (${_benchprof_gb_source})")

if(BENCHPROF_BENCHMARK_UNTESTED)
  set(BENCHPROF_BENCHMARK_UNTESTED_CXX true)
else()
  set(BENCHPROF_BENCHMARK_UNTESTED_CXX false)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/benchprof_benchmark_version.h.in
  ${PROJECT_BINARY_DIR}/generated/benchprof_benchmark_version.h @ONLY)

if(_benchprof_gb_built_here)
  option(BENCHPROF_INSTALL "Install benchprof as a CMake package" OFF)
else()
  option(BENCHPROF_INSTALL "Install benchprof as a CMake package" ON)
endif()
