# libunwind's file name as the dynamic loader knows it (its SONAME, e.g.
# libunwind.so.8): benchprof loads it with dlopen at run time instead of
# linking it (harness/src/collect/stack_capture.cc says why), so the build
# needs its header and this name, not its library on the link line.
# Sets BENCHPROF_LIBUNWIND_SONAME.
find_library(BENCHPROF_LIBUNWIND_LIBRARY NAMES unwind HINTS ${LIBUNWIND_LIBRARY_DIRS} REQUIRED)
set(_benchprof_objdump "${CMAKE_OBJDUMP}")
if(NOT _benchprof_objdump)
  find_program(_benchprof_objdump NAMES objdump llvm-objdump REQUIRED)
endif()
execute_process(COMMAND "${_benchprof_objdump}" -p "${BENCHPROF_LIBUNWIND_LIBRARY}"
  OUTPUT_VARIABLE _benchprof_unwind_headers RESULT_VARIABLE _benchprof_objdump_result
  ERROR_QUIET)
string(REGEX MATCH "SONAME +([^ \t\r\n]+)" _benchprof_soname_line "${_benchprof_unwind_headers}")
if(NOT _benchprof_objdump_result EQUAL 0 OR NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "cannot read the SONAME of ${BENCHPROF_LIBUNWIND_LIBRARY} with ${_benchprof_objdump}")
endif()
set(BENCHPROF_LIBUNWIND_SONAME "${CMAKE_MATCH_1}")
message(STATUS "libunwind, loaded at run time: ${BENCHPROF_LIBUNWIND_SONAME}")
