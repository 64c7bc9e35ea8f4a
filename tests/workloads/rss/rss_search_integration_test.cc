// The rss-search CLI as a user runs it: the Go program's result line for
// every variant and mode, one-line errors and exit code 2 for bad command
// lines, and the corpus kept only when asked.

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::rss {
namespace {

using ::benchprof::testing::ListDirectory;
using ::benchprof::testing::ProcessResult;
using ::benchprof::testing::RunProcess;
using ::benchprof::testing::TempDir;

ProcessResult RssSearch(std::vector<std::string> args, const std::string& tmpdir = "") {
  args.insert(args.begin(), RSS_SEARCH_PATH);
  std::vector<std::string> env;
  if (!tmpdir.empty()) env.push_back("TMPDIR=" + tmpdir);
  return RunProcess(args, env);
}

// Interrupted while it writes or searches its corpus (here 100,000
// distinct documents, hundreds of MB), rss-search removes the corpus
// directory: it is registered with <benchprof/files.h>.
TEST(RssSearchCliTest, AnInterruptionRemovesTheCorpusDirectory) {
  TempDir tmpdir;
  // SIGTERM once the directory exists (a background job of a
  // non-interactive shell ignores SIGINT, and keeps ignoring it).
  const ProcessResult r =
      RunProcess({"/bin/sh", "-c",
                  "\"$1\" --distinct --documents=100000 & pid=$!; "
                  "while [ -z \"$(ls \"$TMPDIR\")\" ]; do sleep 0.01; done; sleep 0.2; "
                  "kill -TERM $pid; wait $pid; echo $?",
                  "sh", RSS_SEARCH_PATH},
                 {"TMPDIR=" + tmpdir.path()});
  EXPECT_EQ(r.stdout_text, "143\n") << r.stderr_text;
  // The search may first fail on a file removed under it.
  constexpr std::string_view kLine =
      "rss-search: interrupted by SIGTERM; temporary files removed\n";
  EXPECT_TRUE(r.stderr_text.ends_with(kLine)) << r.stderr_text;
  EXPECT_TRUE(ListDirectory(tmpdir.path()).empty());
}

TEST(RssSearchCliTest, Help) {
  const ProcessResult r = RssSearch({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("Usage: rss-search"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("--variant"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("pool_tasks"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("Exit codes:\n"
                               "  0  success\n"
                               "  1  a document failed (one line names the first)\n"
                               "  2  bad command line\n"),
            std::string::npos)
      << r.stdout_text;
}

TEST(RssSearchCliTest, EveryVariantPrintsTheGoProgramsLine) {
  for (const char* variant :
       {"sequential", "concurrent", "semaphore", "pool", "pool_tasks", "pipeline"}) {
    TempDir tmp;
    const ProcessResult r = RssSearch({"--variant", variant, "--documents=60"}, tmp.path());
    ASSERT_EQ(r.exit_code, 0) << variant << ": " << r.stderr_text;
    EXPECT_EQ(r.stdout_text.rfind("Searching 60 files, found president 420 times.\n", 0), 0u)
        << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("variant: " + std::string(variant)), std::string::npos);
    EXPECT_NE(r.stdout_text.find("newsfeed.xml read 60 times"), std::string::npos) << r.stdout_text;
    EXPECT_TRUE(std::regex_search(r.stdout_text, std::regex(R"(elapsed: [0-9.]+ s \()")))
        << r.stdout_text;
    // The temporary corpus is gone.
    EXPECT_TRUE(ListDirectory(tmp.path()).empty()) << variant;
  }
}

TEST(RssSearchCliTest, CountsTheSearchsAllocations) {
  if (!ALLOC_HOOKS_ENABLED) GTEST_SKIP() << "built without allocation hooks (sanitizer build)";
  const ProcessResult r = RssSearch({"--mode=memory", "--documents=20"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.stdout_text, m,
                                std::regex(R"(allocations: (\d+) \(([0-9.]+) per document\))")))
      << r.stdout_text;
  // Per document at least: the read buffer, the parser and an item vector,
  // and one string per title and description longer than 15 characters.
  EXPECT_GT(std::stod(m[2]), 80.0) << r.stdout_text;
  EXPECT_LT(std::stod(m[2]), 1000.0) << r.stdout_text;
}

TEST(RssSearchCliTest, MemoryDistinctAndKeptDirectory) {
  ProcessResult r = RssSearch({"--mode=memory", "--distinct", "--documents=30", "--topic=President",
                               "--variant=pool", "--workers=3"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind("Searching 30 files, found President 60 times.\n", 0), 0u)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("workers 3, mode memory (distinct documents)"), std::string::npos)
      << r.stdout_text;

  TempDir keep;
  r = RssSearch({"--distinct", "--documents=12", "--dir", keep.File("feeds")});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind("Searching 12 files, found president 84 times.\n", 0), 0u);
  EXPECT_EQ(ListDirectory(keep.File("feeds")).size(), 12u);
}

TEST(RssSearchCliTest, BadCommandLinesAreOneLineAndExitTwo) {
  const std::string kNoWorkers =
      " variant has no worker count (only semaphore, pool and pool_tasks)";
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--bogus"}, "unknown flag --bogus (see rss-search --help)"},
      {{"--variant=freq"},
       "--variant=freq: expected one of sequential, concurrent, semaphore, pool, pool_tasks, "
       "pipeline"},
      {{"--variant"}, "--variant: needs a value, as --variant=NAME"},
      {{"--documents=0"}, "--documents=0: expected a whole number from 1 to 100000"},
      {{"--documents=100001"}, "--documents=100001: expected a whole number from 1 to 100000"},
      {{"--documents=12x"}, "--documents=12x: expected a whole number from 1 to 100000"},
      {{"--documents="}, "--documents=: expected a whole number from 1 to 100000"},
      {{"--mode=tape"}, "--mode=tape: expected disk or memory"},
      {{"--topic="}, "--topic=: expected a word to search for"},
      {{"--dir="}, "--dir=: expected a directory name"},
      {{"--workers=0"}, "--workers=0: expected a whole number from 1 to 1024"},
      // A value taken from the next argument is used as it is.
      {{"--variant=pool", "--workers", "-1"},
       "--workers=-1: expected a whole number from 1 to 1024"},
      // The default variant, sequential, has no workers.
      {{"--workers=2"}, "--workers=2: the sequential" + kNoWorkers},
      {{"--variant=pipeline", "--workers=2"}, "--workers=2: the pipeline" + kNoWorkers},
      {{"--seed=-1"}, "--seed=-1: expected a whole number from 0 to 18446744073709551615"},
      {{"--seed=18446744073709551616"},
       "--seed=18446744073709551616: expected a whole number from 0 to 18446744073709551615"},
      {{"--distinct=maybe"}, "--distinct=maybe: expected true or false"},
      {{"--mode=memory", "--dir=/tmp/x"}, "--dir=/tmp/x: only with --mode=disk"},
      {{"feeds"},
       "unexpected argument 'feeds' (flags are spelled --name=value; see rss-search --help)"},
  };
  for (const auto& [args, message] : bad) {
    const ProcessResult r = RssSearch(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_TRUE(r.stdout_text.empty()) << args[0];
    EXPECT_EQ(r.stderr_text, "rss-search: " + message + "\n") << args[0];
  }
}

TEST(RssSearchCliTest, UnwritableDirectoryIsAnError) {
  const ProcessResult r = RssSearch({"--dir=/proc/rss-search-test", "--documents=2"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.stderr_text.rfind("rss-search: --dir=/proc/rss-search-test: ", 0), 0u)
      << r.stderr_text;
  EXPECT_TRUE(r.stdout_text.empty());
}

}  // namespace
}  // namespace benchprof::rss
