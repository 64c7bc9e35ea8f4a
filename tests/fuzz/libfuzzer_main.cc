// One libFuzzer binary per target: FUZZ_TARGET names the body (the
// function of fuzz_targets.h), set by tests/fuzz/CMakeLists.txt.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  benchprof::fuzz::FUZZ_TARGET(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
