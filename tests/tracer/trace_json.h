// Reading a --trace file in tests: parse it and check the properties every
// trace must have (docs/trace-format.md), independently of the writer.
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TESTS_TRACER_TRACE_JSON_H_
#define BENCHPROF_TESTS_TRACER_TRACE_JSON_H_

#include <map>
#include <string>
#include <vector>

#include "common/json_value.h"

namespace benchprof::testing {

// The trace's events; fails the calling test (and returns empty) if `text`
// is not a trace-event JSON object.
std::vector<json::Value> TraceEvents(const json::Value& doc);

// Empty if every thread's B/E events nest (each E closes the latest open B
// of its thread, with the same name, and none stays open) and every thread's
// B, E, i, b, e, n events are in non-decreasing `ts` order; otherwise what is
// wrong.
std::string NestingProblems(const std::vector<json::Value>& events);

// Thread names by tid, from the thread_name metadata.
std::map<int, std::string> ThreadNames(const std::vector<json::Value>& events);

// Per CPU counter ("CPU <name> [<tid>]"), by the tid in brackets: the share
// of the counter's own interval (first to last event) the thread was busy.
std::map<int, double> BusyShares(const std::vector<json::Value>& events);

// A string field of an event, "" if absent.
std::string Str(const json::Value& event, const char* key);
// A numeric field, -1 if absent.
double Num(const json::Value& event, const char* key);
// An argument (args.<key>), or nullptr.
const json::Value* Arg(const json::Value& event, const char* key);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_TRACER_TRACE_JSON_H_
