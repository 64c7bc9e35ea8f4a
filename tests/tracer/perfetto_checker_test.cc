// The Perfetto checker (tests/support/perfetto_checker.h) must be able to
// fail: a valid hand-made trace passes, and each rule broken by hand is
// reported, naming the rule.
#include "support/perfetto_checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "perfetto_trace.pb.h"

namespace benchprof::testing {
namespace {

namespace pb = perfetto::protos;

constexpr uint64_t kThreadTrack = 10;

// A valid trace: a process and a thread track, one sequence with an
// incremental clock, a slice "work" from 100 to 150 ns, a flow with two
// ends (two instants).
pb::Trace ValidTrace() {
  pb::Trace trace;
  pb::TracePacket* process = trace.add_packet();
  process->mutable_track_descriptor()->set_uuid(1);
  process->mutable_track_descriptor()->mutable_process()->set_pid(7);
  pb::TracePacket* thread = trace.add_packet();
  thread->mutable_track_descriptor()->set_uuid(kThreadTrack);
  thread->mutable_track_descriptor()->set_parent_uuid(1);
  thread->mutable_track_descriptor()->mutable_thread()->set_pid(7);
  thread->mutable_track_descriptor()->mutable_thread()->set_tid(8);

  pb::TracePacket* first = trace.add_packet();
  first->set_trusted_packet_sequence_id(1);
  first->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
  first->mutable_trace_packet_defaults()->set_timestamp_clock_id(64);
  first->mutable_trace_packet_defaults()->mutable_track_event_defaults()->set_track_uuid(
      kThreadTrack);
  pb::ClockSnapshot::Clock* boot = first->mutable_clock_snapshot()->add_clocks();
  boot->set_clock_id(6);
  boot->set_timestamp(100);
  pb::ClockSnapshot::Clock* incremental = first->mutable_clock_snapshot()->add_clocks();
  incremental->set_clock_id(64);
  incremental->set_timestamp(100);
  incremental->set_is_incremental(true);

  const auto event = [&](uint64_t delta, pb::TrackEvent::Type type) {
    pb::TracePacket* p = trace.add_packet();
    p->set_trusted_packet_sequence_id(1);
    p->set_sequence_flags(pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
    p->set_timestamp(delta);
    p->mutable_track_event()->set_type(type);
    return p;
  };
  pb::TracePacket* begin = event(0, pb::TrackEvent::TYPE_SLICE_BEGIN);
  begin->mutable_track_event()->set_name_iid(1);
  begin->mutable_track_event()->add_category_iids(1);
  begin->mutable_interned_data()->add_event_names()->set_iid(1);
  begin->mutable_interned_data()->mutable_event_names(0)->set_name("work");
  begin->mutable_interned_data()->add_event_categories()->set_iid(1);
  begin->mutable_interned_data()->mutable_event_categories(0)->set_name("region");
  event(50, pb::TrackEvent::TYPE_SLICE_END);
  event(10, pb::TrackEvent::TYPE_INSTANT)->mutable_track_event()->add_flow_ids(99);
  event(10, pb::TrackEvent::TYPE_INSTANT)->mutable_track_event()->add_terminating_flow_ids(99);
  return trace;
}

PerfettoCheck Check(const pb::Trace& trace) { return CheckPerfettoTrace(trace.SerializeAsString()); }

// The first problem the checker reports once `breakage` has been applied.
std::string FirstProblem(const std::function<void(pb::Trace&)>& breakage) {
  pb::Trace trace = ValidTrace();
  breakage(trace);
  const PerfettoCheck check = Check(trace);
  return check.problems.empty() ? "" : check.problems.front();
}

TEST(PerfettoCheckerTest, ValidTracePasses) {
  const PerfettoCheck check = Check(ValidTrace());
  EXPECT_TRUE(check.problems.empty()) << check.problems.front();
  EXPECT_EQ(check.slice_begins, 1u);
  EXPECT_EQ(check.slice_ends, 1u);
  EXPECT_EQ(check.instants, 2u);
  EXPECT_EQ(check.flows, 1u);
  EXPECT_EQ(check.descriptors, 2u);
  EXPECT_EQ(check.thread_slice_begins, 1u);
}

TEST(PerfettoCheckerTest, SequenceThatDoesNotStartCleared) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) { t.mutable_packet(2)->clear_sequence_flags(); }),
            "packet 2: the first packet of sequence 1 does not clear its incremental state");
}

TEST(PerfettoCheckerTest, EventWithoutNeedsIncrementalState) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) { t.mutable_packet(4)->clear_sequence_flags(); }),
            "packet 4: a track event without SEQ_NEEDS_INCREMENTAL_STATE");
}

TEST(PerfettoCheckerTest, UndefinedInternedIds) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(3)->mutable_track_event()->set_name_iid(2);
            }),
            "packet 3: event name iid 2 is not defined on sequence 1");
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(3)->mutable_interned_data()->clear_event_categories();
            }),
            "packet 3: category iid 1 is not defined on sequence 1");
}

TEST(PerfettoCheckerTest, InternedIdsEndAtTheNextClear) {
  pb::Trace trace = ValidTrace();
  trace.mutable_packet(4)->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED |
                                              pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
  trace.mutable_packet(5)->mutable_track_event()->set_name_iid(1);
  const PerfettoCheck check = Check(trace);
  // The clear also dropped the incremental clock and the default track.
  EXPECT_NE(std::find(check.problems.begin(), check.problems.end(),
                      "packet 5: event name iid 1 is not defined on sequence 1"),
            check.problems.end())
      << ::testing::PrintToString(check.problems);
  EXPECT_NE(std::find(check.problems.begin(), check.problems.end(),
                      "packet 4: track 0 has no descriptor before it"),
            check.problems.end())
      << ::testing::PrintToString(check.problems);
}

TEST(PerfettoCheckerTest, TrackWithoutDescriptor) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(5)->mutable_track_event()->set_track_uuid(77);
            }),
            "packet 5: track 77 has no descriptor before it");
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(1)->mutable_track_descriptor()->set_parent_uuid(5);
            }),
            "packet 1: track 10's parent 5 has no descriptor before it");
}

TEST(PerfettoCheckerTest, TimeGoingBack) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(5)->set_timestamp(20);
              t.mutable_packet(5)->set_timestamp_clock_id(6);  // absolute: 20 < 150
            }),
            "packet 5: time goes back on sequence 1 (20 ns after 150 ns)");
}

TEST(PerfettoCheckerTest, UnbalancedSlices) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(4)->mutable_track_event()->set_type(pb::TrackEvent::TYPE_INSTANT);
            }),
            "track 10: 1 slices never end");
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(3)->mutable_track_event()->set_type(pb::TrackEvent::TYPE_INSTANT);
            }),
            "track 10: a slice ends at 150 ns with none open");
}

TEST(PerfettoCheckerTest, FlowWithOneEnd) {
  EXPECT_EQ(FirstProblem([](pb::Trace& t) {
              t.mutable_packet(6)->mutable_track_event()->clear_terminating_flow_ids();
            }),
            "flow 99 has one end");
}

TEST(PerfettoCheckerTest, NotATrace) {
  const PerfettoCheck check = CheckPerfettoTrace("\x0A\x05\x01");
  ASSERT_FALSE(check.problems.empty());
  EXPECT_EQ(check.problems.front(), "the file is not a Trace message");
}

}  // namespace
}  // namespace benchprof::testing
