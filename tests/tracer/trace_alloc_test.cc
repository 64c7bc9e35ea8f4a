// The trace API never allocates: not when no trace is recorded, not when it
// is compiled out, and not while recording (after a thread's first event,
// and in fact not on the first either). The counting allocator of --benchmem
// is linked in and the calling thread is made a timed runner, so any heap
// allocation by any thread in the counted stretch shows.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "benchprof/trace.h"
#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "support/subprocess.h"
#include "tracer/chrome_json_writer.h"
#include "tracer/trace_disabled_calls.h"
#include "tracer/trace_recorder.h"

namespace benchprof {
namespace {

using collect::AllocTotals;

// Keeps an allocation from being optimised away.
int* Escape(int* pointer) {
  asm volatile("" : : "g"(pointer) : "memory");
  return pointer;
}

// What `body` allocates (any thread) while the calling thread is timed.
template <typename Body>
AllocTotals CountTimed(Body body) {
  collect::BecomeRunner();
  const AllocTotals before = collect::TotalAllocations();
  collect::EnterTimedRegion();
  body();
  collect::LeaveTimedRegion();
  return collect::TotalAllocations() - before;
}

void Annotate(int rounds) {
  for (int i = 0; i < rounds; ++i) {
    Task task = NewTask("request");
    Task child = NewTask(task, "step");
    {
      Region region = StartRegion(task, "Region");
      WithRegion("Nested", [] {});
      Log(task, "category", "a message that is copied into the trace");
      Log("category", "another");
    }
  }
}

class TraceAllocTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(collect::kAllocHooksEnabled);
    // The counter itself must work, or a zero proves nothing.
    const AllocTotals probe = CountTimed([] { delete Escape(new int(3)); });
    ASSERT_EQ(probe.allocs, 1u);
  }

  // Starts a trace like the session does: the recorder's threads are kept
  // out of the timed scope.
  void StartTrace() {
    tracer::RecorderOptions options;
    options.sample_period = std::chrono::microseconds(200);
    options.process_counters = [] {
      const AllocTotals totals = collect::TotalAllocations();
      return tracer::ProcessCounters{totals.bytes, totals.allocs};
    };
    options.on_internal_thread_start = [] { collect::BecomeRunner(); };
    ASSERT_TRUE(tracer::StartRecording(
                    std::make_unique<tracer::ChromeJsonWriter>(dir_.File("t.json")), options)
                    .ok());
  }
  void StopTrace() { ASSERT_TRUE(tracer::StopRecording().ok()); }

  testing::TempDir dir_;
};

TEST_F(TraceAllocTest, NotRecordingAllocatesNothing) {
  ASSERT_FALSE(TraceIsRecording());
  const AllocTotals counted = CountTimed([] { Annotate(1000); });
  EXPECT_EQ(counted.allocs, 0u);
  EXPECT_EQ(counted.bytes, 0u);
}

TEST_F(TraceAllocTest, CompiledOutAllocatesNothingAndRecordsNothingEvenWhileTracing) {
  StartTrace();
  bool said_recording = true;
  const AllocTotals counted =
      CountTimed([&] { said_recording = testing::AnnotateWithTracingCompiledOut(1000); });
  StopTrace();
  EXPECT_EQ(counted.allocs, 0u);
  EXPECT_FALSE(said_recording);
  EXPECT_EQ(testing::ReadFile(dir_.File("t.json")).find("CompiledOut"), std::string::npos);
}

TEST_F(TraceAllocTest, RecordingAllocatesNothingAfterTheFirstEvent) {
  StartTrace();
  { Region first = StartRegion("First"); }  // this thread's slot and first chunk
  // Enough to fill and hand over several chunks, and to let the writer and
  // the sampler (which allocate, out of scope) run meanwhile.
  const AllocTotals counted = CountTimed([] {
    Annotate(20000);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  StopTrace();
  EXPECT_EQ(counted.allocs, 0u);
  EXPECT_EQ(counted.bytes, 0u);
  EXPECT_NE(testing::ReadFile(dir_.File("t.json")).find("\"Nested\""), std::string::npos);
}

TEST_F(TraceAllocTest, EvenAThreadsFirstEventAllocatesNothing) {
  StartTrace();
  std::atomic<bool> go{false};
  // Created outside the counted stretch (creating a thread allocates); its
  // first annotation (which takes its first chunk) and its exit (which hands
  // the chunk over) happen inside it.
  std::thread fresh([&] {
    while (!go.load()) std::this_thread::yield();
    Annotate(100);
  });
  const AllocTotals counted = CountTimed([&] {
    go.store(true);
    fresh.join();
  });
  StopTrace();
  EXPECT_EQ(counted.allocs, 0u);
}

}  // namespace
}  // namespace benchprof
