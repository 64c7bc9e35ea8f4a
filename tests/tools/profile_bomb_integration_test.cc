// Profiles built to exhaust memory, and allocation failures, through the
// benchprof binary: `flamegraph`, `report` and `compare --format=html` refuse
// a profile over one of the reader's limits (encode/pprof_reader.h) with one
// line naming the file and the limit and exit code 3, leave no temporary
// beside the output, and stay far below 2 GB of memory; and when memory runs
// out on a profile within the limits (an address-space limit, ulimit -v),
// they end with one line "... out of memory while ..." and exit 3, no
// temporary left.
//
// The bombs are built here, a megabyte or less each: gzip members of a few
// kilobytes, each a million repeats of one string-table entry, repeated.
// Every child runs under a 4 GB address-space limit, so a reader that lost
// its limits fails the test instead of taking the machine's memory.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "encode/pprof_writer.h"
#include "support/sanitizer_build.h"
#include "support/subprocess.h"
#include "support/synthetic_profile.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::TempDir;

constexpr long kGuardKb = 4'000'000;   // the children's address space
constexpr long kMaxRssKb = 2'000'000;  // what a refused bomb may cost

// `data` as one gzip member, compressed as hard as zlib can (gzip -9).
std::string GzipMember(const std::string& data) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&s, data.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = static_cast<uInt>(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

// A gzip file whose members unpack to a profile's string table: the empty
// string 0, then `count` times `entry` (a whole string_table field), made of
// members of a million entries each.
void WriteStringBomb(const std::string& path, const std::string& entry, size_t count) {
  constexpr size_t kPerMember = 1'000'000;
  std::string chunk;
  for (size_t i = 0; i < kPerMember; ++i) chunk += entry;
  const std::string first = GzipMember(std::string("\x32\x00", 2) + chunk);
  const std::string member = GzipMember(chunk);
  std::ofstream out(path, std::ios::binary);
  out << first;
  for (size_t written = kPerMember; written < count; written += kPerMember) out << member;
}

// The issue's bomb: 350 million one-byte strings, 1.05 GB unpacked, in 1 MB.
void WriteIssueBomb(const std::string& path) {
  WriteStringBomb(path,
                  std::string("\x32\x01"
                              "a",
                              3),
                  350'000'000);
}

// `argv` under `ulimit -v kb`: the shell sets the limit and becomes the
// command, so the child measured is the command itself. Not in sanitizer
// builds, whose shadow memory alone passes any such limit (a bomb's memory
// is then not checked, only what the commands say and leave).
ProcessResult RunWithAddressSpace(long kb, const std::vector<std::string>& argv) {
  if (testing::kSanitizerBuild) return testing::RunProcess(argv);
  std::vector<std::string> shell = {"/bin/sh", "-c",
                                    "ulimit -v " + std::to_string(kb) + " && exec \"$@\"", "sh"};
  shell.insert(shell.end(), argv.begin(), argv.end());
  return testing::RunProcess(shell);
}

size_t Lines(const std::string& text) {
  size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

// The entries of `dir` whose names say they are our temporaries.
std::vector<std::string> Temporaries(const TempDir& dir) {
  std::vector<std::string> found;
  for (const std::string& name : testing::ListDirectory(dir.path())) {
    if (name.find(".tmp-") != std::string::npos) found.push_back(name);
  }
  return found;
}

// The three commands that draw profiles, each reading `profile` (as the head
// too, for compare) and writing out.html in `dir`. The result files are the
// compare tests'; BM_AlgorithmOne regresses between them.
std::vector<std::vector<std::string>> DrawingCommands(const TempDir& dir,
                                                      const std::string& profile) {
  const std::string out = dir.File("out.html");
  return {
      {BENCHPROF_PATH, "flamegraph", profile, "-o", out},
      {BENCHPROF_PATH, "report", COMPARE_TESTDATA_DIR "/head.json", "--cpuprofile=" + profile, "-o",
       out},
      {BENCHPROF_PATH, "compare", "--format=html", "--base-cpuprofile=" + profile,
       "--head-cpuprofile=" + profile, COMPARE_TESTDATA_DIR "/base.json",
       COMPARE_TESTDATA_DIR "/head.json", "-o", out},
  };
}

// Runs every drawing command on the bomb at `path`: exit 3, one line naming
// the file and `limit` (how the limit is worded), nothing left in the
// directory, the memory bounded.
void ExpectRefused(const TempDir& dir, const std::string& path, const std::string& limit) {
  for (const auto& argv : DrawingCommands(dir, path)) {
    const std::string command = "benchprof " + argv[1];
    const ProcessResult r = RunWithAddressSpace(kGuardKb, argv);
    std::printf("%s on %s: exit %d, peak RSS %ld MB\n", command.c_str(), path.c_str(), r.exit_code,
                r.max_rss_kb / 1000);
    EXPECT_EQ(r.exit_code, 3) << command << ": " << r.stderr_text;
    EXPECT_EQ(Lines(r.stderr_text), 1u) << command << ": " << r.stderr_text;
    EXPECT_EQ(r.stderr_text.rfind(command + ": " + path + ": ", 0), 0u) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(limit), std::string::npos) << command << ": " << r.stderr_text;
    if (!testing::kSanitizerBuild) {
      EXPECT_LT(r.max_rss_kb, kMaxRssKb) << command;
    }
    EXPECT_TRUE(Temporaries(dir).empty()) << command << " left " << Temporaries(dir)[0];
    EXPECT_FALSE(testing::FileExists(dir.File("out.html"))) << command;
  }
}

// 350 million one-byte strings in 1 MB of gzip: refused once 256 MiB are
// unpacked. Before the readers had limits, each command took 15.7 GB and
// aborted with std::bad_alloc (exit 134), leaving .out.html.tmp-PID-*.
TEST(ProfileBombTest, TheIssuesGzipBombIsRefusedByTheUnpackedSize) {
  TempDir dir;
  WriteIssueBomb(dir.File("bomb.pprof"));
  std::ifstream bomb(dir.File("bomb.pprof"), std::ios::binary | std::ios::ate);
  std::printf("bomb: %lld bytes of gzip\n", static_cast<long long>(bomb.tellg()));
  ExpectRefused(dir, dir.File("bomb.pprof"),
                "data decompresses to more than 256 MiB, over the limit");
}

// 80 million empty strings unpack to 160 MB, within the size limit: the
// count of strings refuses them before protobuf allocates 48 bytes for each
// (about 4 GB).
TEST(ProfileBombTest, EightyMillionStringsAreRefusedByTheirCount) {
  TempDir dir;
  WriteStringBomb(dir.File("strings.pprof"), std::string("\x32\x00", 2), 80'000'000);
  ExpectRefused(dir, dir.File("strings.pprof"),
                "more than 4000000 strings in the string table, over the reader's limit");
}

// A profile within every limit (10,000 distinct stacks) drawn by each
// command under address-space limits from 16 MB (what the program needs
// to start, with its libraries) up: each run either draws
// the page or ends with one line saying it ran out of memory and exit 3;
// never a crash, a second line or a temporary. Both happen over the range,
// so the failing path was taken.
TEST(ProfileBombTest, RunningOutOfMemoryIsOneLineAndNoTemporary) {
  if (testing::kSanitizerBuild) {
    GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v stops them at start";
  }
  TempDir dir;
  encode::ProfileData profile = testing::SyntheticCpuProfile(10'000);
  for (encode::ProfileSample& sample : profile.samples) {
    sample.labels = {{"benchmark", "BM_AlgorithmOne", 0, ""}};
  }
  ASSERT_TRUE(encode::WriteProfileFile(profile, dir.File("big.pprof")).ok());
  for (const auto& argv : DrawingCommands(dir, dir.File("big.pprof"))) {
    const std::string command = "benchprof " + argv[1];
    int drawn = 0, out_of_memory = 0;
    std::set<std::string> phases;  // what they were doing: "reading", "drawing", "running"
    for (long kb = 16'000; kb <= 256'000; kb = kb * 5 / 4) {
      const ProcessResult r = RunWithAddressSpace(kb, argv);
      const std::string where = command + " under ulimit -v " + std::to_string(kb);
      EXPECT_TRUE(Temporaries(dir).empty()) << where << " left " << Temporaries(dir)[0];
      if (r.exit_code == 3) {
        ++out_of_memory;
        EXPECT_EQ(r.stderr_text.rfind(command + ": out of memory while ", 0), 0u)
            << where << ": " << r.stderr_text;
        EXPECT_EQ(Lines(r.stderr_text), 1u) << where << ": " << r.stderr_text;
        EXPECT_FALSE(testing::FileExists(dir.File("out.html"))) << where;
        const size_t phase = r.stderr_text.find(" while ") + 7;
        phases.insert(
            r.stderr_text.substr(phase, r.stderr_text.find_first_of(" ;\n", phase) - phase));
      } else {
        ++drawn;
        // compare exits 1: the head regresses.
        EXPECT_EQ(r.exit_code, argv[1] == "compare" ? 1 : 0) << where << ": " << r.stderr_text;
        EXPECT_TRUE(testing::FileExists(dir.File("out.html"))) << where;
        std::remove(dir.File("out.html").c_str());
      }
    }
    std::string while_;
    for (const std::string& phase : phases) while_ += " " + phase;
    std::printf("%s: %d runs out of memory (while:%s), %d drawn\n", command.c_str(), out_of_memory,
                while_.c_str(), drawn);
    EXPECT_GT(out_of_memory, 0) << command;
    EXPECT_GT(drawn, 0) << command;
  }
}

}  // namespace
}  // namespace benchprof
