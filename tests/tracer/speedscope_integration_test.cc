// speedscope, one of the viewers the README names, reads a --trace file.
// The fixture's trace is loaded into speedscope's own page in headless
// Chromium, as speedscope's command line would load it; what speedscope then
// shows (one profile per thread that has spans, with its total time) is read
// back from the page and compared with the trace itself.
//
// ci/setup-debian installs Chromium, ci/setup-viewers installs speedscope.
// Without them the test skips, saying so, unless BENCHPROF_REQUIRE_VIEWERS
// is set (ci/test and ci/sanitize set it: in CI it must run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "common/json_value.h"
#include "support/subprocess.h"
#include "tracer/trace_json.h"

namespace benchprof {
namespace {

using testing::FileExists;
using testing::Num;
using testing::ReadFile;
using testing::RunProcess;
using testing::Str;
using testing::TempDir;

std::string Base64(const std::string& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t group = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) group |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) group |= static_cast<uint8_t>(bytes[i + 2]);
    out += kDigits[(group >> 18) & 63];
    out += kDigits[(group >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(group >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[group & 63] : '=';
  }
  return out;
}

// Per thread, the time covered by at least one span (B/E pair or X event),
// in microseconds: what speedscope weighs a thread's profile by.
std::map<int, double> CoveredMicros(const std::vector<json::Value>& events) {
  std::map<int, std::vector<std::pair<double, double>>> spans;
  std::map<int, std::vector<double>> open;
  for (const json::Value& event : events) {  // B/E are in time order per thread
    const int tid = static_cast<int>(Num(event, "tid"));
    const std::string ph = Str(event, "ph");
    if (ph == "X") spans[tid].emplace_back(Num(event, "ts"), Num(event, "ts") + Num(event, "dur"));
    if (ph == "B") open[tid].push_back(Num(event, "ts"));
    if (ph == "E" && !open[tid].empty()) {
      spans[tid].emplace_back(open[tid].back(), Num(event, "ts"));
      open[tid].pop_back();
    }
  }
  std::map<int, double> covered;
  for (auto& [tid, list] : spans) {
    std::sort(list.begin(), list.end());
    double total = 0, begin = list.front().first, end = list.front().second;
    for (const auto& [from, to] : list) {
      if (from > end) {
        total += end - begin;
        begin = from;
      }
      end = std::max(end, to);
    }
    covered[tid] = total + (end - begin);
  }
  return covered;
}

// "305.37ms" and the like, in microseconds.
double ParseMicros(const std::string& number, const std::string& unit) {
  const double value = std::stod(number);
  if (unit == "ns") return value / 1000;
  if (unit == "µs") return value;
  if (unit == "ms") return value * 1000;
  if (unit == "s") return value * 1'000'000;
  ADD_FAILURE() << "unknown unit " << unit;
  return -1;
}

struct ShownProfile {
  std::string thread_name;
  double total_micros;
  // Half a unit of the last digit shown: speedscope rounds to a few digits
  // ("4.06ms"), so the true total is within this of total_micros.
  double rounding_micros;
};

// Half a unit in the last place of `number` ("4.06" -> 0.005), in microseconds.
double RoundingMicros(const std::string& number, const std::string& unit) {
  const size_t point = number.find('.');
  const int decimals = point == std::string::npos ? 0 : static_cast<int>(number.size() - point - 1);
  return ParseMicros("0.5", unit) * std::pow(10.0, -decimals);
}

// The profiles speedscope lists on its page, by tid.
std::map<int, ShownProfile> ShownProfiles(const std::string& page) {
  const std::string text = std::regex_replace(page, std::regex("<[^>]*>"), "\n");
  // "<process> (pid 1), <thread name> (tid 2)", then its total: "305.37ms".
  const std::regex row(R"(\(pid \d+\), ([^\n]+) \(tid (\d+)\)\s*)"
                       R"(([0-9.]+)(ns|µs|ms|s)\b)");
  std::map<int, ShownProfile> shown;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it) {
    shown[std::stoi((*it)[2])] = ShownProfile{(*it)[1], ParseMicros((*it)[3], (*it)[4]),
                                              RoundingMicros((*it)[3], (*it)[4])};
  }
  return shown;
}

TEST(SpeedscopeTest, ShowsEveryThreadWithSpansAndItsTotalTime) {
  std::string missing;
  if (!FileExists(CHROMIUM_PATH)) missing = "no Chromium at " CHROMIUM_PATH " (ci/setup-debian)";
  if (!FileExists(SPEEDSCOPE_DIR "/dist/release/index.html")) {
    missing = "no speedscope in " SPEEDSCOPE_DIR " (ci/setup-viewers)";
  }
  if (!missing.empty()) {
    ASSERT_EQ(std::getenv("BENCHPROF_REQUIRE_VIEWERS"), nullptr) << missing;
    GTEST_SKIP() << missing;
  }
  TempDir dir;
  const std::string trace_path = dir.File("fixture.json");
  const testing::ProcessResult bench =
      RunProcess({TRACE_FIXTURE_BENCH_PATH, "--trace=" + trace_path});
  ASSERT_EQ(bench.exit_code, 0) << bench.stderr_text;
  const std::string trace = ReadFile(trace_path);

  // What speedscope's command line writes: a script that hands the file to
  // the page, named in the page's URL.
  const std::string loader = dir.File("load.js");
  std::ofstream(loader) << "speedscope.loadFileFromBase64(\"fixture.json\", \"" << Base64(trace)
                        << "\")";
  // `timeout`: a browser that hangs fails the test instead of stalling CI.
  const testing::ProcessResult browser = RunProcess(
      {"/usr/bin/timeout", "120", CHROMIUM_PATH, "--headless", "--no-sandbox", "--disable-gpu",
       "--user-data-dir=" + dir.File("profile"), "--virtual-time-budget=20000", "--dump-dom",
       "file://" SPEEDSCOPE_DIR "/dist/release/index.html#localProfilePath=" + loader});
  ASSERT_EQ(browser.exit_code, 0) << browser.stderr_text;
  ASSERT_NE(browser.stdout_text.find("<title>fixture.json - speedscope</title>"), std::string::npos)
      << "speedscope did not import the trace:\n"
      << browser.stdout_text.substr(0, 2000);

  StatusOr<json::Value> doc = json::Parse(trace);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const std::vector<json::Value> events = testing::TraceEvents(*doc);
  const std::map<int, std::string> names = testing::ThreadNames(events);
  const std::map<int, double> covered = CoveredMicros(events);
  const std::map<int, ShownProfile> shown = ShownProfiles(browser.stdout_text);

  std::vector<int> expected_tids, shown_tids;
  for (const auto& [tid, micros] : covered) expected_tids.push_back(tid);
  for (const auto& [tid, profile] : shown) shown_tids.push_back(tid);
  EXPECT_EQ(shown_tids, expected_tids);
  for (const auto& [tid, profile] : shown) {
    ASSERT_EQ(covered.count(tid), 1u) << tid;
    EXPECT_EQ(profile.thread_name, names.at(tid));
    // Plus one nanosecond, the trace's resolution: both sides sum doubles, so a
    // total on a rounding boundary (720.395 shown as 720.40) may land a hair
    // outside half a unit.
    EXPECT_NEAR(profile.total_micros, covered.at(tid), profile.rounding_micros + 0.001)
        << profile.thread_name;
  }
  // The threads the fixture is known to have.
  std::vector<std::string> shown_names;
  for (const auto& [tid, profile] : shown) shown_names.push_back(profile.thread_name);
  for (const char* expected : {"main", "busy", "consumer", "benchmark worker 1"}) {
    EXPECT_NE(std::find(shown_names.begin(), shown_names.end(), expected), shown_names.end())
        << expected;
  }
}

}  // namespace
}  // namespace benchprof
