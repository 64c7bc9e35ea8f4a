// ReadResultFiles streams a Google Benchmark JSON file into its document
// instead of reading its text first. Whatever a file holds — a result file,
// any prefix of one, NUL bytes anywhere, Go text, several files of mixed
// formats — reading it must give what AddResultText gives for its text:
// the same samples, or the same one-line message.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/subprocess.h"
#include "tools/results/result_reader.h"

namespace benchprof::results {
namespace {

const std::string kTestData = COMPARE_TESTDATA_DIR;

void Write(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

// All of a ResultSet that a comparison uses, as text.
std::string Describe(const StatusOr<ResultSet>& set) {
  if (!set.ok()) return "error: " + set.status().message();
  std::string out = std::string(FormatName(set->format)) + "\n";
  for (size_t i = 0; i < set->files.size(); ++i) {
    out += "file " + set->files[i] + " [" + set->gbench_versions[i] + "]\n";
  }
  for (const BenchmarkSamples& b : set->benchmarks) {
    out += b.name + " [" + b.time_metric + "]";
    for (const auto& [metric, values] : b.metrics) {
      out += " " + metric + ":";
      for (double v : values) out += " " + std::to_string(v);
    }
    out += "\n";
  }
  for (const auto& [name, info] : set->metrics) out += "metric " + name + " " + info.unit + "\n";
  for (const auto& [key, value] : set->config) out += "config " + key + "=" + value + "\n";
  for (const std::string& w : set->warnings) out += "warning " + w + "\n";
  for (const SkipInFile& s : set->skipped)
    out += "skipped " + s.file + ": " + DescribeSkip(s.skip) + "\n";
  return out;
}

// What AddResultText makes of the files' contents, in order.
std::string FromText(const std::vector<std::pair<std::string, std::string>>& files) {
  ResultSet set;
  for (const auto& [path, contents] : files) {
    if (Status s = AddResultText(path, contents, set); !s.ok()) return Describe(s);
  }
  return Describe(set);
}

// What ReadResultFiles makes of the same files on disk.
std::string FromFiles(const testing::TempDir& dir,
                      const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> paths;
  for (const auto& [path, contents] : files) {
    Write(dir.File(path), contents);
    paths.push_back(dir.File(path));
  }
  return Describe(ReadResultFiles(paths));
}

void ExpectSame(const testing::TempDir& dir,
                const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::pair<std::string, std::string>> full;
  for (const auto& [path, contents] : files) full.emplace_back(dir.File(path), contents);
  EXPECT_EQ(FromFiles(dir, files), FromText(full)) << files.front().second.substr(0, 80);
}

TEST(ResultFileStreamTest, ResultFilesReadAsTheirText) {
  testing::TempDir dir;
  const std::string base = testing::ReadFile(kTestData + "/base.json");
  const std::string head = testing::ReadFile(kTestData + "/head.json");
  ASSERT_FALSE(base.empty());
  ExpectSame(dir, {{"base.json", base}});
  ExpectSame(dir, {{"base.json", base}, {"head.json", head}});
  // Google Benchmark 1.7.1 and 1.9.1, with skipped and failed benchmarks.
  const std::string upgrade_base = testing::ReadFile(kTestData + "/upgrade_base_1.7.1.json");
  const std::string upgrade_head = testing::ReadFile(kTestData + "/upgrade_head_1.9.1.json");
  ExpectSame(dir, {{"upgrade_head.json", upgrade_head}});
  ExpectSame(dir, {{"upgrade_base.json", upgrade_base}, {"upgrade_head.json", upgrade_head}});
  ExpectSame(dir, {{"a.txt", "BenchmarkA 10 5 ns/op\n"}, {"base.json", base}});
  ExpectSame(dir, {{"base.json", base}, {"a.txt", "BenchmarkA 10 5 ns/op\n"}});
  ExpectSame(dir, {{"pad.json", std::string(5000, ' ') + base}});  // past the sniffed head
  ExpectSame(dir, {{"empty.json", ""}});
  ExpectSame(dir, {{"blank.json", std::string(5000, '\n')}});
}

TEST(ResultFileStreamTest, EveryPrefixReadsAsItsText) {
  testing::TempDir dir;
  const std::string base = testing::ReadFile(kTestData + "/base.json");
  for (size_t n = 0; n < base.size(); n += n < 64 ? 1 : 211) {
    ExpectSame(dir, {{"cut.json", base.substr(0, n)}});
  }
}

TEST(ResultFileStreamTest, NulBytesAreABinaryFileWhereverTheyAre) {
  testing::TempDir dir;
  const std::string base = testing::ReadFile(kTestData + "/base.json");
  // At the start of lines (the first ones are in the sniffed head, most
  // are not), and inside a string.
  for (size_t at = 0; at < base.size(); at += 331) {
    const size_t line = at == 0 ? 0 : base.find('\n', at) + 1;
    if (line == 0 && at != 0) break;
    std::string bad = base;
    bad.insert(bad.begin() + static_cast<std::ptrdiff_t>(line), '\0');
    ExpectSame(dir, {{"nul.json", bad}});
  }
  std::string in_string = base;
  in_string[base.rfind("BM_")] = '\0';
  ExpectSame(dir, {{"nul.json", in_string}});
}

}  // namespace
}  // namespace benchprof::results
