# Warning and sanitizer flags shared by every benchprof target.

if(BENCHPROF_SANITIZE)
  add_compile_options(-fsanitize=${BENCHPROF_SANITIZE} -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${BENCHPROF_SANITIZE})
  if(BENCHPROF_SANITIZE MATCHES "address|thread")
    # Those runtimes replace malloc themselves; two replacements cannot coexist.
    set(BENCHPROF_ALLOC_HOOKS OFF CACHE BOOL "" FORCE)
  endif()
  if(BENCHPROF_SANITIZE MATCHES "thread")
    # TSan intercepts the lock functions and must see every lock.
    set(BENCHPROF_CONTENTION_HOOKS OFF CACHE BOOL "" FORCE)
  endif()
endif()

if(BENCHPROF_FUZZ)
  # Coverage for libFuzzer in every object; the fuzz binaries link the
  # fuzzer's main (tests/fuzz).
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
endif()

# Applies the project's warnings to one of its own targets (never to users').
function(benchprof_target_defaults target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wimplicit-fallthrough -Wformat=2
    # The CPU profiler walks frame pointers where it can.
    -fno-omit-frame-pointer
    $<$<BOOL:${BENCHPROF_WERROR}>:-Werror>)
endfunction()
