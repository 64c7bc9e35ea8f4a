// `go tool pprof` (Go 1.19's vendored google/pprof) as the oracle for the
// profiles WriteProfileFile produces: it must accept them and show the
// values, labels, addresses, names, source lines and mappings we embedded.
//
// The mappings name files that do not exist and set every has_* flag, as a
// self-symbolizing producer does: pprof then never tries to symbolize them
// (a mapping with has_functions, has_filenames or has_line_numbers is
// skipped), so embedded names show even without -symbolize=none. One test
// checks exactly that; the others pass -symbolize=none anyway so that no
// pprof heuristic can change what they compare.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "encode/pprof_writer.h"
#include "encode/profile_data.h"
#include "support/go_pprof.h"
#include "support/subprocess.h"

namespace benchprof::encode {

using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileMapping;
using encode::WriteProfileFile;

namespace {

constexpr int64_t kPeriod = 10'000'000;

ProfileMapping SymbolizedMapping(uint64_t start, uint64_t limit, uint64_t offset, std::string file,
                                 std::string build_id) {
  ProfileMapping m;
  m.start = start;
  m.limit = limit;
  m.file_offset = offset;
  m.filename = std::move(file);
  m.build_id = std::move(build_id);
  m.has_functions = m.has_filenames = m.has_line_numbers = m.has_inline_frames = true;
  return m;
}

// Go's CPU header. 10 samples: Square (inlined into BM_Foo) 6, BM_Bar
// `bar_samples`, memcpy (called by BM_Foo) `memcpy_samples`.
ProfileData CpuProfile(int64_t bar_samples = 2, int64_t memcpy_samples = 2) {
  ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = kPeriod;
  p.time_nanos = 1'700'000'000'000'000'000;
  p.duration_nanos = 2'000'000'000;
  p.comments = {"benchprof synthetic CPU profile"};
  p.mappings = {SymbolizedMapping(0x555555554000, 0x555555600000, 0x1000, "/nonexistent/prog",
                                  "0123456789abcdef0123456789abcdef01234567"),
                SymbolizedMapping(0x7ffff7c00000, 0x7ffff7d80000, 0x28000, "/nonexistent/libc.so.6",
                                  "fedcba9876543210")};
  p.functions = {
      {"BM_Foo", "_Z6BM_FooRN9benchmark5StateE", "/src/bench/foo.cc", 40},
      {"Square", "_Z6Squarel", "/src/bench/foo.cc", 12},
      {"BM_Bar", "_Z6BM_BarRN9benchmark5StateE", "/src/bench/bar.cc", 7},
      {"main", "main", "/src/bench/main.cc", 3},
      {"memcpy", "memcpy", "/build/glibc/memcpy.S", 0},
  };
  p.locations = {
      {0x555555555123, 0, {{1, 13}, {0, 45}}},  // Square inlined into BM_Foo
      {0x555555555200, 0, {{2, 9}}},
      {0x555555555300, 0, {{3, 5}}},
      {0x7ffff7c31234, 1, {{4, 99}}},
  };
  const ProfileLabel foo{"benchmark", "BM_Foo/8/threads:2", 0, ""};
  const ProfileLabel two_threads{"threads", "", 2, "threads"};
  p.samples = {
      {{0, 2}, {6, 6 * kPeriod}, {foo, two_threads}},
      {{1, 2},
       {bar_samples, bar_samples * kPeriod},
       {{"benchmark", "BM_Bar", 0, ""}, {"threads", "", 1, "threads"}}},
      {{3, 0, 2}, {memcpy_samples, memcpy_samples * kPeriod}, {foo, two_threads}},
  };
  return p;
}

// Go's allocs header: Grow allocates 3x what Shrink does.
ProfileData HeapProfile() {
  ProfileData p;
  p.sample_types = {{"alloc_objects", "count"},
                    {"alloc_space", "bytes"},
                    {"inuse_objects", "count"},
                    {"inuse_space", "bytes"}};
  p.period_type = {"space", "bytes"};
  p.period = 524288;
  p.default_sample_type = "alloc_space";
  p.mappings = {SymbolizedMapping(0x400000, 0x480000, 0, "/nonexistent/heap_bench", "aa55")};
  p.functions = {{"operator new", "_Znwm", "", 0},
                 {"Grow", "_Z4Growv", "/src/grow.cc", 20},
                 {"Shrink", "_Z6Shrinkv", "/src/grow.cc", 40}};
  p.locations = {{0x401000, 0, {{0, 0}}}, {0x402000, 0, {{1, 25}}}, {0x403000, 0, {{2, 45}}}};
  const ProfileLabel size{"bytes", "", 64, "bytes"};
  p.samples = {{{0, 1}, {300, 300 * 64, 30, 30 * 64}, {size}},
               {{0, 2}, {100, 100 * 64, 0, 0}, {size}}};
  return p;
}

// What `-raw` prints, split into its sections.
struct RawOutput {
  struct Sample {
    std::vector<int64_t> values;
    std::vector<int> location_ids;
    std::vector<std::string> labels;  // e.g. "benchmark:[BM_Foo]"
  };
  std::vector<std::string> header;  // lines before "Samples:"
  std::vector<Sample> samples;
  std::map<int, std::vector<std::string>> locations;  // id -> frames, first with address
  std::vector<std::string> mappings;

  // The frames of sample `s`'s `i`th location.
  std::vector<std::string> Frames(const Sample& s, size_t i) const {
    if (i >= s.location_ids.size()) return {};
    const auto it = locations.find(s.location_ids[i]);
    return it == locations.end() ? std::vector<std::string>{} : it->second;
  }

  // The sample whose labels include `label` and whose first value is `count`.
  const Sample* Find(int64_t count, const std::string& label) const {
    for (const Sample& s : samples) {
      for (const std::string& l : s.labels) {
        if (!s.values.empty() && s.values[0] == count && l == label) return &s;
      }
    }
    return nullptr;
  }
};

std::string Trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  const size_t end = s.find_last_not_of(" \t");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Parses whitespace-separated integers; false if any word is not one.
bool Integers(const std::string& s, std::vector<int64_t>* out) {
  out->clear();
  for (const std::string& w : Words(s)) {
    int64_t v = 0;
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (error != std::errc() || end != w.data() + w.size()) return false;
    out->push_back(v);
  }
  return true;
}

// (std::regex would be shorter, but GCC 12 warns about its own headers
// under -O2 with sanitizers, and the warnings are errors here.)
RawOutput ParseRaw(const std::string& text) {
  RawOutput out;
  enum { kHeader, kSamples, kLocations, kMappings } section = kHeader;
  std::istringstream lines(text);
  int last_location = -1;
  for (std::string line; std::getline(lines, line);) {
    const std::string trimmed = Trim(line);
    const size_t colon = trimmed.find(':');
    std::vector<int64_t> before, after;
    const bool numbered =
        colon != std::string::npos && colon > 0 && Integers(trimmed.substr(0, colon), &before);
    if (line == "Samples:") {
      section = kSamples;
    } else if (line == "Locations") {
      section = kLocations;
    } else if (line == "Mappings") {
      section = kMappings;
    } else if (section == kHeader) {
      out.header.push_back(line);
    } else if (section == kSamples && numbered && Integers(trimmed.substr(colon + 1), &after)) {
      RawOutput::Sample& s = out.samples.emplace_back();
      s.values = before;
      s.location_ids.assign(after.begin(), after.end());
    } else if (section == kSamples && !out.samples.empty() && colon != std::string::npos) {
      out.samples.back().labels.push_back(trimmed);
    } else if (section == kLocations && numbered && before.size() == 1) {
      last_location = static_cast<int>(before[0]);
      out.locations[last_location].push_back(Trim(trimmed.substr(colon + 1)));
    } else if (section == kLocations && last_location >= 0 && !trimmed.empty()) {
      out.locations[last_location].push_back(trimmed);  // an outer inline frame
    } else if (section == kMappings && !trimmed.empty()) {
      out.mappings.push_back(trimmed);
    }
  }
  return out;
}

// The rows of `-top` output by name ("Square (inline)"): flat, flat%, cum,
// cum% (sum% depends on the order of ties, so it is left out).
std::map<std::string, std::vector<std::string>> ParseTop(const std::string& text) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream lines(text);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> w = Words(line);
    if (!in_table) {
      in_table = !w.empty() && w[0] == "flat" && w.size() >= 2 && w[1] == "flat%";
      continue;
    }
    if (w.size() < 6) continue;
    std::string name = w[5];
    for (size_t i = 6; i < w.size(); ++i) name += " " + w[i];
    rows[name] = {w[0], w[1], w[3], w[4]};
  }
  return rows;
}

// True if some line of `text`, without surrounding blanks, is `expected`.
bool HasLine(const std::string& text, const std::string& expected) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (Trim(line) == expected) return true;
  }
  return false;
}

using Row = std::vector<std::string>;

class GoToolPprofTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(GO_PATH).empty()) {
      GTEST_SKIP() << "go tool pprof is missing: install golang-go (ci/setup-debian does)";
    }
  }

  // Writes `profile` as `name` in the temp dir and returns its path.
  std::string Write(const ProfileData& profile, const std::string& name) {
    const std::string path = dir_.File(name);
    const Status written = WriteProfileFile(profile, path);
    EXPECT_TRUE(written.ok()) << written.message();
    return path;
  }

  // Runs `go tool pprof args...` and returns its standard output, failing
  // the test if it does not exit 0.
  std::string Pprof(const std::vector<std::string>& args) {
    const testing::ProcessResult r = testing::RunGoPprof(GO_PATH, args, dir_);
    EXPECT_EQ(r.exit_code, 0) << "go tool pprof failed:\n" << r.stderr_text;
    return r.stdout_text;
  }

  testing::TempDir dir_;
};

TEST_F(GoToolPprofTest, RawShowsValuesLabelsLocationsAndMappings) {
  const std::string path = Write(CpuProfile(), "cpu.pb.gz");
  const std::string text = Pprof({"-raw", "-symbolize=none", path});
  const RawOutput raw = ParseRaw(text);
  SCOPED_TRACE(text);

  EXPECT_TRUE(HasLine(text, "PeriodType: cpu nanoseconds"));
  EXPECT_TRUE(HasLine(text, "Period: 10000000"));
  EXPECT_TRUE(HasLine(text, "Comment: benchprof synthetic CPU profile"));
  EXPECT_TRUE(HasLine(text, "samples/count cpu/nanoseconds"));
  ASSERT_EQ(raw.samples.size(), 3u);

  const RawOutput::Sample* foo = raw.Find(6, "benchmark:[BM_Foo/8/threads:2]");
  ASSERT_NE(foo, nullptr);
  EXPECT_EQ(foo->values, (std::vector<int64_t>{6, 60000000}));
  EXPECT_EQ(foo->labels,
            (std::vector<std::string>{"benchmark:[BM_Foo/8/threads:2]", "threads:[2 threads]"}));
  ASSERT_EQ(foo->location_ids.size(), 2u);
  // Leaf first; the inlined callee before the function it was inlined into.
  EXPECT_EQ(
      raw.Frames(*foo, 0),
      (std::vector<std::string>{"0x555555555123 M=1 Square /src/bench/foo.cc:13 s=12(_Z6Squarel)",
                                "BM_Foo /src/bench/foo.cc:45 s=40(_Z6BM_FooRN9benchmark5StateE)"}));
  EXPECT_EQ(raw.Frames(*foo, 1),
            (std::vector<std::string>{"0x555555555300 M=1 main /src/bench/main.cc:5 s=3"}));

  const RawOutput::Sample* bar = raw.Find(2, "benchmark:[BM_Bar]");
  ASSERT_NE(bar, nullptr);
  EXPECT_EQ(bar->values, (std::vector<int64_t>{2, 20000000}));
  EXPECT_EQ(bar->labels[1], "threads:[1 threads]");
  EXPECT_EQ(
      raw.Frames(*bar, 0),
      (std::vector<std::string>{
          "0x555555555200 M=1 BM_Bar /src/bench/bar.cc:9 s=7(_Z6BM_BarRN9benchmark5StateE)"}));

  const RawOutput::Sample* copy = raw.Find(2, "benchmark:[BM_Foo/8/threads:2]");
  ASSERT_NE(copy, nullptr);
  ASSERT_EQ(copy->location_ids.size(), 3u);
  EXPECT_EQ(raw.Frames(*copy, 0),
            (std::vector<std::string>{"0x7ffff7c31234 M=2 memcpy /build/glibc/memcpy.S:99 s=0"}));
  EXPECT_EQ(copy->location_ids[1], foo->location_ids[0]);
  EXPECT_EQ(copy->location_ids[2], foo->location_ids[1]);

  EXPECT_EQ(raw.mappings, (std::vector<std::string>{
                              "1: 0x555555554000/0x555555600000/0x1000 /nonexistent/prog "
                              "0123456789abcdef0123456789abcdef01234567 [FN][FL][LN][IN]",
                              "2: 0x7ffff7c00000/0x7ffff7d80000/0x28000 /nonexistent/libc.so.6 "
                              "fedcba9876543210 [FN][FL][LN][IN]"}));
}

TEST_F(GoToolPprofTest, EmbeddedNamesShowWithDefaultSymbolization) {
  const std::string path = Write(CpuProfile(), "cpu.pb.gz");
  const std::string text = Pprof({"-raw", path});
  const RawOutput raw = ParseRaw(text);
  SCOPED_TRACE(text);
  const RawOutput::Sample* foo = raw.Find(6, "benchmark:[BM_Foo/8/threads:2]");
  ASSERT_NE(foo, nullptr);
  EXPECT_EQ(
      raw.Frames(*foo, 0),
      (std::vector<std::string>{"0x555555555123 M=1 Square /src/bench/foo.cc:13 s=12(_Z6Squarel)",
                                "BM_Foo /src/bench/foo.cc:45 s=40(_Z6BM_FooRN9benchmark5StateE)"}));
}

TEST_F(GoToolPprofTest, TopShowsFlatValuesAndInlinedFrames) {
  const std::string path = Write(CpuProfile(), "cpu.pb.gz");
  const std::string text = Pprof({"-top", "-symbolize=none", path});
  SCOPED_TRACE(text);
  EXPECT_TRUE(HasLine(text, "File: prog"));
  EXPECT_TRUE(HasLine(text, "Build ID: 0123456789abcdef0123456789abcdef01234567"));
  EXPECT_TRUE(HasLine(text, "Type: cpu"));
  EXPECT_TRUE(HasLine(text, "Duration: 2s, Total samples = 100ms ( 5.00%)"));
  auto top = ParseTop(text);
  EXPECT_EQ(top.size(), 5u);
  // Square : BM_Bar = 6 : 2 samples of 10ms each.
  EXPECT_EQ(top["Square (inline)"], (Row{"60ms", "60.00%", "80ms", "80.00%"}));
  EXPECT_EQ(top["BM_Bar"], (Row{"20ms", "20.00%", "20ms", "20.00%"}));
  EXPECT_EQ(top["memcpy"], (Row{"20ms", "20.00%", "20ms", "20.00%"}));
  // BM_Foo is the out-of-line frame Square was inlined into: no flat time.
  EXPECT_EQ(top["BM_Foo"], (Row{"0", "0%", "80ms", "80.00%"}));
  EXPECT_EQ(top["main"], (Row{"0", "0%", "100ms", "100%"}));
}

TEST_F(GoToolPprofTest, TagfocusSelectsSamplesByLabel) {
  const std::string path = Write(CpuProfile(), "cpu.pb.gz");
  const std::string foo = Pprof({"-top", "-symbolize=none", "-tagfocus=benchmark=BM_Foo", path});
  EXPECT_TRUE(HasLine(foo, "Showing nodes accounting for 80ms, 80.00% of 100ms total")) << foo;
  auto top = ParseTop(foo);
  EXPECT_EQ(top["Square (inline)"], (Row{"60ms", "60.00%", "80ms", "80.00%"})) << foo;
  EXPECT_EQ(top["memcpy"], (Row{"20ms", "20.00%", "20ms", "20.00%"})) << foo;
  EXPECT_EQ(top.count("BM_Bar"), 0u) << foo;

  const std::string bar = Pprof({"-top", "-symbolize=none", "-tagfocus=benchmark=BM_Bar", path});
  EXPECT_TRUE(HasLine(bar, "Showing nodes accounting for 20ms, 20.00% of 100ms total")) << bar;
  top = ParseTop(bar);
  EXPECT_EQ(top["BM_Bar"], (Row{"20ms", "20.00%", "20ms", "20.00%"})) << bar;
  EXPECT_EQ(top.count("Square (inline)") + top.count("memcpy"), 0u) << bar;

  // The numeric label with its unit works as a range filter.
  const std::string threads = Pprof({"-top", "-symbolize=none", "-tagfocus=threads=2", path});
  EXPECT_TRUE(HasLine(threads, "Showing nodes accounting for 80ms, 80.00% of 100ms total"))
      << threads;
  EXPECT_EQ(ParseTop(threads).count("BM_Bar"), 0u) << threads;
}

TEST_F(GoToolPprofTest, DiffBaseShowsTheDifference) {
  const std::string old_path =
      Write(CpuProfile(/*bar_samples=*/2, /*memcpy_samples=*/2), "old.pb.gz");
  const std::string new_path =
      Write(CpuProfile(/*bar_samples=*/6, /*memcpy_samples=*/1), "new.pb.gz");
  const std::string text = Pprof({"-top", "-symbolize=none", "-diff_base=" + old_path, new_path});
  SCOPED_TRACE(text);
  // Percentages are of the base's total (100ms).
  EXPECT_TRUE(HasLine(text, "Showing nodes accounting for 30ms, 30.00% of 100ms total"));
  auto top = ParseTop(text);
  EXPECT_EQ(top["BM_Bar"], (Row{"40ms", "40.00%", "40ms", "40.00%"}));
  EXPECT_EQ(top["memcpy"], (Row{"-10ms", "10.00%", "-10ms", "10.00%"}));
  // Square's own samples are unchanged; it loses memcpy's as their caller.
  EXPECT_EQ(top["Square (inline)"], (Row{"0", "0%", "-10ms", "10.00%"}));
}

TEST_F(GoToolPprofTest, HeapProfileDefaultsToAllocSpace) {
  const std::string path = Write(HeapProfile(), "heap.pb.gz");
  const std::string text = Pprof({"-raw", "-symbolize=none", path});
  SCOPED_TRACE(text);
  EXPECT_TRUE(HasLine(text,
                      "alloc_objects/count alloc_space/bytes[dflt] "
                      "inuse_objects/count inuse_space/bytes"));
  const RawOutput raw = ParseRaw(text);
  const RawOutput::Sample* grow = raw.Find(300, "bytes:[64 bytes]");
  ASSERT_NE(grow, nullptr);
  EXPECT_EQ(grow->values, (std::vector<int64_t>{300, 19200, 30, 1920}));
  EXPECT_EQ(raw.Frames(*grow, 0),
            (std::vector<std::string>{"0x401000 M=1 operator new :0 s=0(_Znwm)"}));

  const std::string alloc = Pprof({"-top", "-symbolize=none", path});
  EXPECT_TRUE(HasLine(alloc, "Type: alloc_space"));
  auto top = ParseTop(alloc);
  EXPECT_EQ(top["operator new"], (Row{"25kB", "100%", "25kB", "100%"}));
  EXPECT_EQ(top["Grow"], (Row{"0", "0%", "18.75kB", "75.00%"}));
  EXPECT_EQ(top["Shrink"], (Row{"0", "0%", "6.25kB", "25.00%"}));

  const std::string inuse = Pprof({"-top", "-symbolize=none", "-sample_index=inuse_space", path});
  EXPECT_TRUE(HasLine(inuse, "Type: inuse_space"));
  top = ParseTop(inuse);
  EXPECT_EQ(top["operator new"], (Row{"1.88kB", "100%", "1.88kB", "100%"}));
  EXPECT_EQ(top.count("Shrink"), 0u);
}

}  // namespace
}  // namespace benchprof::encode
