// The A/A experiment, on this machine: 20 runs of the Elvis
// benchmarks recorded as the history of one commit, then 20 more runs of
// the same binary gated one by one with `benchprof history gate`: none may
// be a regression, once a flagged run is measured again (a neighbour on
// the VM can slow a whole run; docs/history.md's advice). Each gated run is three processes of the benchmark
// (three result files, pooled as one run): on this VM one process in 20 or
// so runs BM_AlgorithmTwo some 10% slower throughout (its memory layout),
// which one process's repetitions cannot tell from a regression (seen in
// CI: +9.5%, every repetition); of three, one slow process moves neither
// the median nor its interval. The same runs compared pairwise with
// `benchprof compare` (each against the previous run) show what a gate
// without history flags on the same machine: the count is printed, not
// asserted. Then the Elvis benchmarks with one std::string copy planted in
// algTwo (elvis_planted_bench): the history gate exits 1 and names
// allocs/op of BM_AlgorithmTwo.
//
// Short repetitions (--benchmark_min_time=0.02) make the runs noisier than a
// real suite's, which makes the experiment harder on the gate, not easier.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/subprocess.h"

namespace benchprof {
namespace {

using testing::ProcessResult;
using testing::RunProcess;
using testing::TempDir;

constexpr int kRecordedRuns = 20;
constexpr int kGatedRuns = 20;
constexpr char kCommit[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

class HistoryAATest : public ::testing::Test {
 protected:
  // One process of `binary`'s Elvis benchmarks, `repetitions` each, into `out`.
  void RunElvis(const std::string& binary, const std::string& out, int repetitions = 10) {
    const ProcessResult r = RunProcess(
        {binary, "--benchmark_filter=BM_Algorithm",
         "--benchmark_repetitions=" + std::to_string(repetitions), "--benchmem",
         "--benchmark_min_time=0.02", "--benchmark_out=" + out, "--benchmark_out_format=json"});
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  }

  // A gated run: three processes of `binary`, five repetitions each, their
  // files named `name`.0.json to .2.json.
  std::vector<std::string> RunElvisThrice(const std::string& binary, const std::string& name) {
    std::vector<std::string> files;
    for (int p = 0; p < 3; ++p) {
      files.push_back(dir_.File(name + "." + std::to_string(p) + ".json"));
      RunElvis(binary, files.back(), 5);
    }
    return files;
  }

  ProcessResult History(std::vector<std::string> args) {
    args.insert(args.begin(), {BENCHPROF_PATH, "history"});
    args.insert(args.begin() + 3, "--db=" + db_);
    return RunProcess(args);
  }

  ProcessResult Gate(const std::vector<std::string>& results) {
    std::vector<std::string> args = {"gate", "--commit=" + std::string(kCommit),
                                     "--base-branch=main"};
    args.insert(args.end(), results.begin(), results.end());
    return History(args);
  }

  TempDir dir_;
  const std::string db_ = dir_.File("history.sqlite");
};

TEST_F(HistoryAATest, NoFalseRegressionAndThePlantedAllocationIsNamed) {
  for (int i = 0; i < kRecordedRuns; ++i) {
    const std::string out = dir_.File("recorded" + std::to_string(i) + ".json");
    ASSERT_NO_FATAL_FAILURE(RunElvis(BENCH_PATH, out));
    const ProcessResult r = History({"record", "--commit=" + std::string(kCommit),
                                     "--branch=main", "--subject=A/A", out});
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  }

  int history_regressions = 0, history_inconclusive = 0, pairwise_regressions = 0;
  int flagged_before_measuring_again = 0;
  std::vector<std::string> previous;
  for (int i = 0; i < kGatedRuns; ++i) {
    const std::vector<std::string> out = RunElvisThrice(BENCH_PATH, "gated" + std::to_string(i));
    ASSERT_FALSE(HasFatalFailure());
    ProcessResult gate = Gate(out);
    if (gate.exit_code == 1) {
      // A neighbour busy for a whole run slows its three processes alike
      // (seen in CI: +39% and +75% on BM_AlgorithmTwo in 2 runs of 20). As
      // docs/history.md advises, a flagged run is measured again and gated
      // once more before it counts.
      ++flagged_before_measuring_again;
      const std::vector<std::string> again =
          RunElvisThrice(BENCH_PATH, "gated" + std::to_string(i) + "-again");
      ASSERT_FALSE(HasFatalFailure());
      gate = Gate(again);
    }
    ASSERT_TRUE(gate.exit_code == 0 || gate.exit_code == 1 || gate.exit_code == 2)
        << gate.stderr_text;
    history_regressions += gate.exit_code == 1;
    history_inconclusive += gate.exit_code == 2;
    EXPECT_NE(gate.exit_code, 1) << "A/A run " << i << " gated as a regression:\n"
                                 << gate.stdout_text;
    if (!previous.empty()) {
      // A pairwise gate: this run's first process against the previous
      // run's first process.
      const ProcessResult pair =
          RunProcess({BENCHPROF_PATH, "compare", previous.front(), out.front()});
      ASSERT_TRUE(pair.exit_code >= 0 && pair.exit_code <= 2) << pair.stderr_text;
      pairwise_regressions += pair.exit_code == 1;
    }
    previous = out;
  }
  EXPECT_EQ(history_inconclusive, 0);
  std::printf("A/A: history gate flagged %d of %d runs (%d before they were measured again; "
              "inconclusive: %d); compare against the previous run flagged %d of %d pairs\n",
              history_regressions, kGatedRuns, flagged_before_measuring_again,
              history_inconclusive, pairwise_regressions, kGatedRuns - 1);

  const std::vector<std::string> planted = RunElvisThrice(PLANTED_BENCH_PATH, "planted");
  ASSERT_FALSE(HasFatalFailure());
  const ProcessResult gate = Gate(planted);
  EXPECT_EQ(gate.exit_code, 1) << gate.stdout_text << gate.stderr_text;
  EXPECT_NE(gate.stdout_text.find("allocs/op"), std::string::npos) << gate.stdout_text;
  EXPECT_NE(gate.stdout_text.find("BM_AlgorithmTwo"), std::string::npos) << gate.stdout_text;
  std::printf("planted copy in algTwo:\n%s", gate.stdout_text.c_str());
}

}  // namespace
}  // namespace benchprof
