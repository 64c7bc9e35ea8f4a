#include "tools/trace_summary/trace_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace benchprof::trace_summary {
namespace {

// A count read from JSON as a double; a value past uint64's range (a
// malformed file) saturates instead of overflowing the conversion.
uint64_t CountFromDouble(double value) {
  if (!(value > 0)) return 0;
  if (value >= 0x1.0p64) return UINT64_MAX;
  return static_cast<uint64_t>(value);
}

constexpr std::string_view kDroppedEventsName = "benchprof: dropped events";

// "CPU <thread name> [<tid>]" (docs/trace-format.md) split into the name and
// the tid; the tid is -1 and the name the whole rest when there is no
// "[digits]" at the end.
std::pair<std::string_view, int64_t> ParseCpuCounterName(std::string_view name) {
  if (name.substr(0, 4) == "CPU ") name.remove_prefix(4);
  const size_t open = name.rfind(" [");
  if (open == std::string_view::npos || name.size() < open + 4 || name.back() != ']') {
    return {name, -1};
  }
  const std::string_view digits = name.substr(open + 2, name.size() - open - 3);
  int64_t tid = -1;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), tid);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return {name, -1};
  return {name.substr(0, open), tid};
}

// The bytes at `p`, `n` of them (1..8), as one word.
inline uint64_t LoadShort(const char* p, size_t n) {
  if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return static_cast<uint64_t>(hi) << 32 | lo;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | static_cast<uint8_t>(p[i]);
  return v;
}

// a == b for the short strings the summary compares per event (names, ids),
// without a call to memcmp.
inline bool SameBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  if (n > 8) {
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a.data(), 8);
    std::memcpy(&b0, b.data(), 8);
    std::memcpy(&a1, a.data() + n - 8, 8);
    std::memcpy(&b1, b.data() + n - 8, 8);
    return a0 == b0 && a1 == b1;
  }
  return n == 0 || LoadShort(a.data(), n) == LoadShort(b.data(), n);
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

namespace {

// The 1-based nearest rank of the `percent`-th percentile of `n` values:
// ceil(percent * n / 100) in integers, so that e.g. p90 of 10 values is
// exactly rank 9 (a double 0.9 * 10 could round up to rank 10).
uint64_t NearestRank(uint64_t n, int percent) {
  const uint64_t rank = (static_cast<uint64_t>(percent) * n + 99) / 100;
  return std::clamp<uint64_t>(rank, 1, n);
}

}  // namespace

int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, int percent) {
  return sorted[NearestRank(sorted.size(), percent) - 1];
}

DurationStats SummarizeDurations(std::vector<int64_t>& durations) {
  DurationStats stats;
  if (durations.empty()) return stats;
  const uint64_t n = durations.size();
  stats.count = n;
  // Saturating: a hostile file could hold millions of near-2^62 durations.
  for (const int64_t d : durations) {
    if (__builtin_add_overflow(stats.total_ns, d, &stats.total_ns)) {
      stats.total_ns = std::numeric_limits<int64_t>::max();
      break;
    }
  }
  const auto [min, max] = std::minmax_element(durations.begin(), durations.end());
  stats.min_ns = *min;
  stats.max_ns = *max;
  // The three ranks' values by selection, each in what the one before left
  // above it: the values a full sort puts there, in linear time (sorting a
  // trace's million regions was most of the summary's work after reading).
  auto from = durations.begin();
  int64_t* const out[] = {&stats.p50_ns, &stats.p90_ns, &stats.p99_ns};
  const int percents[] = {50, 90, 99};
  for (int i = 0; i < 3; ++i) {
    const auto at =
        durations.begin() + static_cast<std::ptrdiff_t>(NearestRank(n, percents[i]) - 1);
    if (at >= from) {
      std::nth_element(from, at, durations.end());
      from = at + 1;
    }
    *out[i] = *at;
  }
  return stats;
}

double TraceSummary::BusyShare(const ThreadUsage& thread) const {
  if (!has_interval || duration_ns() <= 0 || !thread.has_cpu) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return static_cast<double>(thread.busy_ns) / static_cast<double>(duration_ns());
}

double TraceSummary::IdleShare(const ThreadUsage& thread) const {
  if (std::isnan(BusyShare(thread))) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(duration_ns() - thread.busy_ns) / static_cast<double>(duration_ns());
}

double TraceSummary::MeanBusyThreads() const {
  if (!has_interval || duration_ns() <= 0) return std::numeric_limits<double>::quiet_NaN();
  double busy = 0;
  for (const ThreadUsage& t : threads) busy += static_cast<double>(t.busy_ns);
  return busy / static_cast<double>(duration_ns());
}

size_t TraceSummarizer::TaskKeyHash::operator()(TaskKeyView k) const {
  // Ids are short (a number in decimal or hex): a word or two of them.
  uint64_t h = static_cast<uint64_t>(k.pid) * 0x9E3779B97F4A7C15u ^ k.id.size();
  std::string_view id = k.id;
  while (id.size() > 8) {
    uint64_t word;
    std::memcpy(&word, id.data(), 8);
    h = (h ^ word) * 0xFF51AFD7ED558CCDu;
    id.remove_prefix(8);
  }
  if (!id.empty()) h = (h ^ LoadShort(id.data(), id.size())) * 0xFF51AFD7ED558CCDu;
  return static_cast<size_t>(h ^ h >> 29);
}

bool TraceSummarizer::TaskKeyEqual::operator()(TaskKeyView a, TaskKeyView b) const {
  return a.pid == b.pid && SameBytes(a.id, b.id);
}

int64_t TraceSummarizer::DurationTable::Intern(std::string_view name, uint32_t key) {
  // The key is a hint: the bytes are compared all the same, so that keys of
  // two readers fed to one summarizer cannot mix names up.
  if (key != 0 && key < by_key.size() && by_key[key] >= 0 &&
      SameBytes(names[static_cast<size_t>(by_key[key])], name)) {
    return by_key[key];
  }
  int32_t id;
  if (const auto it = index.find(name); it != index.end()) {
    id = static_cast<int32_t>(it->second);
  } else {
    id = static_cast<int32_t>(names.size());
    index.emplace(std::string(name), id);
    names.emplace_back(name);
    durations.emplace_back();
  }
  if (key != 0 && key < kMaxKeys) {
    if (key >= by_key.size()) by_key.resize(key + 1, -1);
    by_key[key] = id;
  }
  return id;
}

std::vector<NamedDurations> TraceSummarizer::DurationTable::Summarize() {
  std::vector<NamedDurations> out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (durations[i].empty()) continue;  // e.g. a task type whose tasks never ended
    out.push_back({names[i], SummarizeDurations(durations[i])});
    // The sorted copy is no longer needed; a 10-million-region trace frees
    // its 80 MB here rather than at the end.
    std::vector<int64_t>().swap(durations[i]);
  }
  std::sort(out.begin(), out.end(),
            [](const NamedDurations& a, const NamedDurations& b) { return a.name < b.name; });
  return out;
}

void TraceSummarizer::AddDuration(DurationTable& table, int64_t index, int64_t duration_ns) {
  if (index < 0) return;
  if (duration_ns < 0) {
    ++negative_durations_;
    return;
  }
  table.durations[static_cast<size_t>(index)].push_back(duration_ns);
}

void TraceSummarizer::AddTaskEvent(const TraceEvent& e) {
  const bool is_begin = e.phase == 'b';
  // The open tasks are usually a few (one per worker): a short list
  // searched in order costs less than a hash table's allocations.
  PendingTask* pending = nullptr;
  size_t few = 0;
  for (; few < few_tasks_.size(); ++few) {
    if (few_tasks_[few].pid == e.pid && SameBytes(few_tasks_[few].Id(), e.id)) {
      pending = &few_tasks_[few].task;
      break;
    }
  }
  auto many = pending_tasks_.end();
  if (pending == nullptr && !pending_tasks_.empty()) {
    many = pending_tasks_.find(TaskKeyView{e.pid, e.id});
    if (many != pending_tasks_.end()) pending = &many->second;
  }
  if (pending == nullptr) {
    const PendingTask task{
        *e.ts_ns, e.name.empty() && !is_begin ? -1 : tasks_.Intern(e.name, e.name_key), is_begin};
    if (few_tasks_.size() < kFewTasks && e.id.size() <= sizeof(OpenTask::id)) {
      OpenTask& open = few_tasks_.emplace_back();
      open.pid = e.pid;
      open.task = task;
      open.id_size = static_cast<uint8_t>(e.id.size());
      if (!e.id.empty()) std::memcpy(open.id, e.id.data(), e.id.size());  // data() may be null
    } else {
      pending_tasks_.emplace(TaskKey{e.pid, std::string(e.id)}, task);
    }
    return;
  }
  if (pending->is_begin == is_begin) {
    // A second begin (or end) for the same id: the first one lost its
    // partner. Keep the newer one, which may still be matched.
    ++(is_begin ? task_begins_unmatched_ : task_ends_unmatched_);
    *pending = PendingTask{
        *e.ts_ns, e.name.empty() && !is_begin ? -1 : tasks_.Intern(e.name, e.name_key), is_begin};
    return;
  }
  // The task type is the begin's name (an end may omit it).
  const int64_t type = is_begin ? tasks_.Intern(e.name, e.name_key) : pending->type;
  const int64_t begin_ns = is_begin ? *e.ts_ns : pending->ts_ns;
  const int64_t end_ns = is_begin ? pending->ts_ns : *e.ts_ns;
  AddDuration(tasks_, type, end_ns - begin_ns);
  if (many != pending_tasks_.end()) {
    pending_tasks_.erase(many);
  } else {
    if (few + 1 != few_tasks_.size()) few_tasks_[few] = few_tasks_.back();
    few_tasks_.pop_back();
  }
}

std::vector<TraceSummarizer::OpenSpan>& TraceSummarizer::StackOf(int64_t pid, int64_t tid) {
  if (last_stack_ == nullptr || last_thread_.first != pid || last_thread_.second != tid) {
    last_thread_ = {pid, tid};
    last_stack_ = &stacks_[last_thread_];
  }
  return *last_stack_;
}

void TraceSummarizer::Add(const TraceEvent& e) {
  if (e.phase == 'M') {
    if (e.name == "thread_name") thread_names_[{e.pid, e.tid}] = std::string(e.arg_name);
    return;
  }
  if (!e.ts_ns) return;  // the reader rejects these; a hand-made event may lack it
  const int64_t ts = *e.ts_ns;
  const int64_t end = ts + std::max<int64_t>(e.dur_ns.value_or(0), 0);
  if (!has_time_) {
    has_time_ = true;
    min_ts_ = ts;
    max_end_ = end;
  } else {
    min_ts_ = std::min(min_ts_, ts);
    max_end_ = std::max(max_end_, end);
  }

  switch (e.phase) {
    case 'B': {
      const int64_t region = e.category == "region" ? regions_.Intern(e.name, e.name_key) : -1;
      StackOf(e.pid, e.tid).push_back({ts, region});
      return;
    }
    case 'E': {
      // An E closes the most recent open B of its thread, whatever its name
      // (the Chrome format lets E omit name and category).
      std::vector<OpenSpan>& stack = StackOf(e.pid, e.tid);
      if (stack.empty()) {
        ++span_ends_unmatched_;
        return;
      }
      const OpenSpan open = stack.back();
      stack.pop_back();
      AddDuration(regions_, open.region, ts - open.ts_ns);
      return;
    }
    case 'X':
      if (e.category == "region" && e.dur_ns) {
        AddDuration(regions_, regions_.Intern(e.name), *e.dur_ns);
      } else if (e.category == "blocked" && e.dur_ns && *e.dur_ns > 0) {
        blocked_[{e.pid, e.tid}].emplace_back(ts, *e.dur_ns);
      }
      return;
    case 'b':
    case 'e':
      // args.kind "region" marks the task-track copy of a region, which is
      // counted once, from its B/E on the thread. Without args.kind (another
      // producer's async span) the pair counts as a task.
      if (e.kind != "region") AddTaskEvent(e);
      return;
    case 'C':
      if (e.busy && (e.category == "cpu" || e.name.substr(0, 4) == "CPU ")) {
        double busy = *e.busy;
        if (!(busy >= 0 && busy <= 1)) {
          ++busy_out_of_range_;
          busy = std::isnan(busy) ? 0 : std::clamp(busy, 0.0, 1.0);
        }
        auto& by_name = cpu_series_[e.pid];
        auto it = by_name.find(e.name);
        if (it == by_name.end()) it = by_name.emplace(std::string(e.name), 0).first;
        it->second.push_back({ts, busy});
      }
      return;
    case 'i':
    case 'I':
      if (e.name == kDroppedEventsName && e.count && *e.count > 0) {
        dropped_from_instants_ += CountFromDouble(*e.count);
      }
      return;
    default:
      return;
  }
}

void TraceSummarizer::ReadOtherData(const TraceFileInfo& info, TraceSummary& s) const {
  s.dropped_events = dropped_from_instants_;
  if (const json::Value* dropped = info.other_data.Find("dropped_events");
      dropped != nullptr && dropped->is_number() && dropped->as_number() >= 0) {
    s.dropped_events = CountFromDouble(dropped->as_number());
  }
  if (const json::Value* v = info.other_data.Find("window_ns");
      v != nullptr && v->is_number() && v->as_number() > 0 && v->as_number() < 9e18) {
    s.window_ns = static_cast<int64_t>(v->as_number());
    if (const json::Value* d = info.other_data.Find("discarded_events");
        d != nullptr && d->is_number() && d->as_number() >= 0) {
      s.discarded_events = CountFromDouble(d->as_number());
    }
  }
  if (const json::Value* v = info.other_data.Find("producer"); v != nullptr && v->is_string()) {
    s.producer = v->as_string();
  }
  if (const json::Value* v = info.other_data.Find("clock"); v != nullptr && v->is_string()) {
    s.clock = v->as_string();
  }
  if (const json::Value* v = info.other_data.Find("cpus");
      v != nullptr && v->is_number() && v->as_number() >= 1 && v->as_number() <= 1e6) {
    s.cpus = static_cast<uint32_t>(v->as_number());
  }
}

// Threads: one per CPU counter series, named by thread_name metadata when
// there is one for its tid, then threads that only have a name or only
// blocked slices.
std::vector<ThreadUsage> TraceSummarizer::Threads() {
  std::vector<ThreadUsage> threads;
  std::map<std::pair<int64_t, int64_t>, bool> listed;
  for (auto& [pid, by_name] : cpu_series_) {
    for (auto& [counter, samples] : by_name) {
      const auto [counter_name, tid] = ParseCpuCounterName(counter);
      ThreadUsage t;
      t.pid = pid;
      t.tid = tid;
      const auto named = thread_names_.find({pid, tid});
      t.name = tid >= 0 && named != thread_names_.end() ? named->second : std::string(counter_name);
      t.has_cpu = true;
      t.samples = samples.size();
      t.busy_ns = BusyNanos(samples);
      threads.push_back(std::move(t));
      listed[{pid, tid}] = true;
    }
  }
  const auto add_unlisted = [&](std::pair<int64_t, int64_t> key) {
    if (!listed.emplace(key, true).second) return;
    ThreadUsage t;
    t.pid = key.first;
    t.tid = key.second;
    const auto named = thread_names_.find(key);
    if (named != thread_names_.end()) t.name = named->second;
    threads.push_back(std::move(t));
  };
  for (const auto& [key, name] : thread_names_) add_unlisted(key);
  for (const auto& [key, slices] : blocked_) add_unlisted(key);
  for (ThreadUsage& t : threads) {
    const auto blocked = blocked_.find({t.pid, t.tid});
    if (blocked == blocked_.end()) continue;
    for (const auto& [begin, duration] : blocked->second) {
      const int64_t from = std::max(begin, busy_from_ns_);
      if (begin + duration > from) t.blocked_ns += begin + duration - from;
    }
  }
  std::sort(threads.begin(), threads.end(), [](const ThreadUsage& a, const ThreadUsage& b) {
    if (a.has_cpu != b.has_cpu) return a.has_cpu;
    if (a.busy_ns != b.busy_ns) return a.busy_ns > b.busy_ns;
    if (a.name != b.name) return a.name < b.name;
    if (a.tid != b.tid) return a.tid < b.tid;
    return a.pid < b.pid;
  });
  return threads;
}

int64_t TraceSummarizer::BusyNanos(std::vector<CounterSample>& samples) const {
  // Samples of one series need not be in file order (the format orders
  // only B/E/i/b/e/n per thread), so sort; stable keeps the file's order
  // for equal times, where the later sample wins.
  std::stable_sort(
      samples.begin(), samples.end(),
      [](const CounterSample& a, const CounterSample& b) { return a.ts_ns < b.ts_ns; });
  // Each sample holds from its ts to the next one's; the last holds to the
  // end of the interval (the writer makes it 0; in a cut-off trace it is
  // the last known state). Before the first sample the thread counts as
  // idle.
  double busy_ns = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const int64_t until = i + 1 < samples.size() ? samples[i + 1].ts_ns : max_end_;
    const int64_t from = std::max(samples[i].ts_ns, busy_from_ns_);
    if (until > from) busy_ns += samples[i].busy * static_cast<double>(until - from);
  }
  return std::llround(busy_ns);
}

void TraceSummarizer::CountUnmatched(TraceSummary& s) const {
  s.unmatched.span_ends = span_ends_unmatched_;
  for (const auto& [thread, stack] : stacks_) s.unmatched.span_begins += stack.size();
  s.unmatched.task_begins = task_begins_unmatched_;
  s.unmatched.task_ends = task_ends_unmatched_;
  for (const auto& [key, pending] : pending_tasks_) {
    ++(pending.is_begin ? s.unmatched.task_begins : s.unmatched.task_ends);
  }
  for (const OpenTask& open : few_tasks_) {
    ++(open.task.is_begin ? s.unmatched.task_begins : s.unmatched.task_ends);
  }
}

namespace {

// One line per problem the summary must not hide.
std::vector<std::string> Warnings(const TraceSummary& s) {
  std::vector<std::string> warnings;
  if (s.truncated) {
    warnings.push_back(s.truncation + ": the trace was cut short (was the bench process " +
                       "killed?); summarizing the " +
                       Plural(s.events, "complete event", "complete events"));
  }
  if (s.dropped_events > 0) {
    warnings.push_back(Plural(s.dropped_events, "event was", "events were") +
                       " dropped because the recorder's buffers were full: counts, "
                       "durations and busy shares may be incomplete");
  }
  // A flight recorder's window cuts spans and tasks that began before it:
  // their ends are expected, not a problem.
  UnmatchedCounts u = s.unmatched;
  if (s.window_ns > 0) u.span_ends = u.task_ends = 0;
  if (u.total() > 0) {
    std::vector<std::string> parts;
    if (u.span_begins > 0)
      parts.push_back(Plural(u.span_begins, "span begin", "span begins") + " (B) without an end");
    if (u.span_ends > 0)
      parts.push_back(Plural(u.span_ends, "span end", "span ends") + " (E) without a begin");
    if (u.task_begins > 0)
      parts.push_back(Plural(u.task_begins, "task begin", "task begins") + " (b) without an end");
    if (u.task_ends > 0)
      parts.push_back(Plural(u.task_ends, "task end", "task ends") + " (e) without a begin");
    std::string line = "unmatched events, left out of the durations: ";
    for (size_t i = 0; i < parts.size(); ++i) line += (i > 0 ? ", " : "") + parts[i];
    warnings.push_back(line);
  }
  if (s.negative_durations > 0) {
    warnings.push_back(
        s.negative_durations == 1
            ? std::string("1 span ends before it begins; it is left out of the durations")
            : std::to_string(s.negative_durations) +
                  " spans end before they begin; they are left out of the durations");
  }
  if (s.busy_out_of_range > 0) {
    warnings.push_back(Plural(s.busy_out_of_range, "CPU sample has", "CPU samples have") +
                       " args.busy outside 0..1, clamped");
  }
  return warnings;
}

}  // namespace

TraceSummary TraceSummarizer::Finish(const std::string& file, const TraceFileInfo& info) && {
  TraceSummary s;
  s.file = file;
  s.layout = info.layout;
  s.events = info.events;
  s.truncated = info.truncated;
  s.truncation = info.truncation;
  s.has_interval = has_time_;
  s.start_ns = min_ts_;
  s.end_ns = max_end_;
  ReadOtherData(info, s);
  if (s.window_ns > 0 && s.has_interval && s.end_ns - s.start_ns > s.window_ns) {
    s.start_ns = s.end_ns - s.window_ns;
    busy_from_ns_ = s.start_ns;
  }
  s.threads = Threads();
  s.tasks = tasks_.Summarize();
  s.regions = regions_.Summarize();
  CountUnmatched(s);
  s.negative_durations = negative_durations_;
  s.busy_out_of_range = busy_out_of_range_;
  s.warnings = Warnings(s);
  return s;
}

}  // namespace benchprof::trace_summary
