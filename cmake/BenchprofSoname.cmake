# benchprof_read_soname(LIBRARY OUT_VAR): the file name the dynamic loader
# knows LIBRARY (a path to a shared library, or a link to one) by: its
# SONAME, e.g. libpq.so.5. For the libraries benchprof loads with dlopen at
# run time instead of linking them (libunwind, libpq): the build needs their
# header and this name, not the library on the link line.
function(benchprof_read_soname library out_var)
  set(objdump "${CMAKE_OBJDUMP}")
  if(NOT objdump)
    find_program(BENCHPROF_OBJDUMP NAMES objdump llvm-objdump REQUIRED)
    set(objdump "${BENCHPROF_OBJDUMP}")
  endif()
  execute_process(COMMAND "${objdump}" -p "${library}"
    OUTPUT_VARIABLE headers RESULT_VARIABLE result ERROR_QUIET)
  string(REGEX MATCH "SONAME +([^ \t\r\n]+)" soname_line "${headers}")
  if(NOT result EQUAL 0 OR NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "cannot read the SONAME of ${library} with ${objdump}")
  endif()
  set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
