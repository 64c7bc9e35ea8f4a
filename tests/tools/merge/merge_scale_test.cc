// What `benchprof merge` costs at the issue's scale, end to end through the
// command (read, merge, write): 16 CPU profiles of 10,000 distinct stacks
// each (target 2 s), and 16 result files of 1,000 benchmarks each (target
// 1 s). The times are printed; the targets are asserted as they stand.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "common/json_value.h"
#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"
#include "support/subprocess.h"
#include "support/synthetic_profile.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunProcess;
using testing::TempDir;

double SecondsOf(const std::vector<std::string>& argv, ProcessResult* result) {
  const auto start = std::chrono::steady_clock::now();
  *result = RunProcess(argv);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(MergeScaleTest, SixteenProfilesOfTenThousandStacks) {
  TempDir dir;
  std::vector<std::string> argv = {BENCHPROF_PATH, "merge", "-o", dir.File("cpu.pprof")};
  int64_t total = 0;
  size_t samples = 0;
  for (int shard = 0; shard < 16; ++shard) {
    encode::ProfileData profile = testing::SyntheticCpuProfile(10'000, 8);
    // Each shard its own benchmarks and its own load address.
    const uint64_t base = 0x550000000000 + static_cast<uint64_t>(shard) * 0x100000000;
    encode::ProfileMapping& exe = profile.mappings.emplace_back();
    exe.start = base;
    exe.limit = base + 0x1000000;
    exe.filename = "/build/bench";
    exe.build_id = "0123abcd";
    for (encode::ProfileLocation& location : profile.locations) {
      location.mapping_index = 0;
      location.address += base;
    }
    for (encode::ProfileSample& sample : profile.samples) {
      sample.labels[0].str += "/shard:" + std::to_string(shard);
      total += sample.values[1];
    }
    samples += profile.samples.size();
    const std::string path = dir.File("cpu." + std::to_string(shard) + ".pprof");
    ASSERT_TRUE(encode::WriteProfileFile(profile, path).ok());
    argv.push_back(path);
  }
  ProcessResult result;
  const double seconds = SecondsOf(argv, &result);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  std::printf("merging 16 profiles of 10,000 stacks (%zu samples): %.3f s\n", samples, seconds);
  StatusOr<encode::ProfileData> merged = encode::ReadProfile(ReadFile(dir.File("cpu.pprof")));
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->samples.size(), samples);
  EXPECT_EQ(merged->mappings.size(), 1u);
  EXPECT_EQ(merged->locations.size(), 2000u);  // the shards' code is one code
  int64_t merged_total = 0;
  for (const encode::ProfileSample& sample : merged->samples) merged_total += sample.values[1];
  EXPECT_EQ(merged_total, total);
  EXPECT_LE(seconds, 2.0);
}

TEST(MergeScaleTest, SixteenResultFilesOfAThousandBenchmarks) {
  TempDir dir;
  std::vector<std::string> argv = {BENCHPROF_PATH, "merge", "-o", dir.File("r.json")};
  for (int shard = 0; shard < 16; ++shard) {
    std::string text = R"({"context": {"executable": "/build/bench", "benchprof_shard": ")" +
                       std::to_string(shard) + R"(/16", "num_cpus": 2}, "benchmarks": [)";
    for (int k = 0; k < 1000; ++k) {
      if (k > 0) text += ",\n";
      const std::string name =
          "BM_Family" + std::to_string(k % 17) + "/" + std::to_string(k * 16 + shard);
      text +=
          R"({"name": ")" + name + R"(", "run_name": ")" + name +
          R"(", "run_type": "iteration", "repetitions": 1, "iterations": 1000000, "real_time": 1.2345678901234567e+02, "cpu_time": 1.2300000000000001e+02, "time_unit": "ns", "allocs/op": 2, "B/op": 37})";
    }
    text += "]}\n";
    const std::string path = dir.File("r." + std::to_string(shard) + ".json");
    std::FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
    argv.push_back(path);
  }
  ProcessResult result;
  const double seconds = SecondsOf(argv, &result);
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  std::printf("merging 16 result files of 1,000 benchmarks: %.3f s\n", seconds);
  StatusOr<json::Value> merged = json::Parse(ReadFile(dir.File("r.json")));
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  const json::Value::Array& rows = merged->Find("benchmarks")->as_array();
  ASSERT_EQ(rows.size(), 16'000u);
  // Back in the order of one run: instance k * 16 + shard.
  for (size_t i = 0; i < rows.size(); i += 997) {
    const std::string& name = rows[i].Find("name")->as_string();
    EXPECT_EQ(name.substr(name.find('/') + 1), std::to_string(i)) << name;
  }
  EXPECT_LE(seconds, 1.0);
}

}  // namespace
}  // namespace benchprof
