// Replays every fuzz target's corpus (tests/fuzz/corpus/<target>/: the seeds
// and every input that once broke a reader), so each finding stays a
// regression test in the ordinary and sanitizer builds, without libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_targets.h"

namespace benchprof::fuzz {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class FuzzCorpusTest : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzCorpusTest, EveryInputIsReadOrRefusedWithoutBreakingAPromise) {
  const std::filesystem::path dir = std::filesystem::path(CORPUS_DIR) / GetParam().name;
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  // Seeds from tests/tools/testdata and generated profiles, at least.
  ASSERT_GE(inputs.size(), 3u) << dir;
  for (const std::filesystem::path& input : inputs) {
    SCOPED_TRACE(input.string());
    const std::string data = ReadFile(input);
    ASSERT_FALSE(data.empty() && input.filename().string().starts_with("seed")) << "empty seed";
    GetParam().run(data);  // a broken promise aborts, naming the check
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzCorpusTest, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace benchprof::fuzz
