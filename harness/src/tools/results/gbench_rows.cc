// The "benchmarks" array of a Google Benchmark JSON file, row by row
// (gbench_rows.h).
#include "tools/results/gbench_rows.h"

#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include "tools/text_format.h"

namespace benchprof::results {
namespace {

// Members of a benchmark row that are not measurements. Any other numeric
// member is a user counter: 1.7.1 flattens counters into the row.
constexpr std::array<std::string_view, 23> kRowFields = {"name",
                                                         "family_index",
                                                         "per_family_instance_index",
                                                         "run_name",
                                                         "run_type",
                                                         "repetitions",
                                                         "repetition_index",
                                                         "threads",
                                                         "aggregate_name",
                                                         "aggregate_unit",
                                                         "error_occurred",
                                                         "error_message",
                                                         "skipped",
                                                         "skip_message",
                                                         "iterations",
                                                         "real_time",
                                                         "cpu_time",
                                                         "time_unit",
                                                         "cpu_coefficient",
                                                         "real_coefficient",
                                                         "big_o",
                                                         "rms",
                                                         "label"};

// kRowFields' members by index, for lookups that name them in code.
enum class Field {
  kName,
  kFamilyIndex,
  kPerFamilyInstanceIndex,
  kRunName,
  kRunType,
  kRepetitions,
  kRepetitionIndex,
  kThreads,
  kAggregateName,
  kAggregateUnit,
  kErrorOccurred,
  kErrorMessage,
  kSkipped,
  kSkipMessage,
  kIterations,
  kRealTime,
  kCpuTime,
  kTimeUnit,
  kCpuCoefficient,
  kRealCoefficient,
  kBigO,
  kRms,
  kLabel,
};
static_assert(static_cast<size_t>(Field::kLabel) + 1 == kRowFields.size());

std::string_view KeyName(Field field) { return kRowFields[static_cast<size_t>(field)]; }

// The index of `key` in kRowFields, or -1. Every row repeats these keys:
// the length and first byte rule out most candidates before a comparison.
int RowFieldIndex(std::string_view key) {
  if (key.empty()) return -1;
  for (size_t i = 0; i < kRowFields.size(); ++i) {
    const std::string_view field = kRowFields[i];
    if (field.size() == key.size() && field[0] == key[0] && field == key) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// A known field's value, as much of it as the checks below use: its kind,
// and a number, boolean or string. Reused from row to row (the string keeps
// its buffer), so reading a row allocates nothing once the first rows are
// read.
class FieldValue {
 public:
  // Reads the value whose first token `tokens` just returned (`first`).
  // Fails only on the JSON itself.
  Status Read(json::Tokenizer& tokens, json::Token first) {
    switch (first) {
      case json::Token::kString:
        kind_ = json::Kind::kString;
        text_.assign(tokens.string());
        return Status();
      case json::Token::kNumber:
        kind_ = json::Kind::kNumber;
        number_ = tokens.number();
        return Status();
      case json::Token::kTrue:
      case json::Token::kFalse:
        kind_ = json::Kind::kBool;
        boolean_ = first == json::Token::kTrue;
        return Status();
      case json::Token::kNull:
        kind_ = json::Kind::kNull;
        return Status();
      case json::Token::kBeginObject:
      case json::Token::kBeginArray:
        kind_ = first == json::Token::kBeginObject ? json::Kind::kObject : json::Kind::kArray;
        if (!tokens.SkipValue()) return tokens.status();
        return Status();
      default:
        return tokens.status().ok() ? Status::Error("expected a value") : tokens.status();
    }
  }

  // As json::Value's, for the checks written for both.
  json::Kind kind() const { return kind_; }
  bool is_string() const { return kind_ == json::Kind::kString; }
  bool is_number() const { return kind_ == json::Kind::kNumber; }
  bool is_bool() const { return kind_ == json::Kind::kBool; }
  const std::string& as_string() const { return text_; }
  double as_number() const { return number_; }
  bool as_bool() const { return boolean_; }

 private:
  json::Kind kind_ = json::Kind::kNull;
  double number_ = 0;
  bool boolean_ = false;
  std::string text_;
};

// The members of one row that the checks below look at, read from the
// token stream without building the row's document: each known field's
// value (the last if repeated, as json::Value::Find sees it) and every other
// numeric member, a counter (repeated: the first place, the last value).
// Other members are checked as JSON and dropped. Reused from row to row.
class RowMembers {
 public:
  // Reads the members of the object whose '{' `tokens` just returned,
  // through its '}'. Fails only on the JSON itself.
  Status Read(json::Tokenizer& tokens) {
    present_.fill(false);
    counter_count_ = 0;
    for (json::Token t = tokens.Next(); t != json::Token::kEndObject; t = tokens.Next()) {
      if (t != json::Token::kKey) return tokens.status();
      const int field = RowFieldIndex(tokens.string());
      if (field < 0) key_.assign(tokens.string());
      const json::Token first = tokens.Next();
      if (field >= 0) {
        if (Status s = fields_[field].Read(tokens, first); !s.ok()) return s;
        present_[field] = true;
      } else if (first == json::Token::kNumber) {
        AddCounter(tokens.number());
      } else if (!tokens.SkipValue()) {
        return tokens.status().ok() ? Status::Error("expected a value") : tokens.status();
      }
    }
    return Status();
  }

  // The known field, or nullptr if absent.
  const FieldValue* Find(Field field) const {
    const auto i = static_cast<size_t>(field);
    return present_[i] ? &fields_[i] : nullptr;
  }

  // The counters, in file order.
  void CopyCounters(std::vector<std::pair<std::string, double>>& out) const {
    out.assign(counters_.begin(), counters_.begin() + static_cast<std::ptrdiff_t>(counter_count_));
  }

 private:
  void AddCounter(double value) {
    for (size_t i = 0; i < counter_count_; ++i) {
      if (counters_[i].first == key_) {
        counters_[i].second = value;
        return;
      }
    }
    if (counter_count_ == counters_.size()) counters_.emplace_back();
    counters_[counter_count_].first.assign(key_);
    counters_[counter_count_].second = value;
    ++counter_count_;
  }

  std::array<FieldValue, kRowFields.size()> fields_;
  std::array<bool, kRowFields.size()> present_{};
  // The first counter_count_ are this row's; the rest keep their buffers.
  std::vector<std::pair<std::string, double>> counters_;
  size_t counter_count_ = 0;
  std::string key_;
};

std::string RowContext(size_t index, const std::string& name) {
  std::string s = "benchmarks[" + std::to_string(index) + "]";
  if (!name.empty()) s += " (" + name + ")";
  return s;
}

// Where a problem is, for its message ("context", "benchmarks[3] (BM_X)"),
// put into words only when there is a problem: a row's costs a string
// otherwise, hundreds of thousands of times per file.
class ErrorLocation {
 public:
  explicit ErrorLocation(std::string_view fixed) : fixed_(fixed) {}
  // A row; `name`, once its name is read, must outlive this.
  ErrorLocation(size_t row_index, const std::string* name)
      : is_row_(true), row_index_(row_index), name_(name) {}

  std::string str() const {
    if (!is_row_) return std::string(fixed_);
    return RowContext(row_index_, name_ != nullptr ? *name_ : std::string());
  }
  friend std::string operator+(const ErrorLocation& where, std::string_view rest) {
    return where.str().append(rest);
  }

 private:
  std::string_view fixed_;
  bool is_row_ = false;
  size_t row_index_ = 0;
  const std::string* name_ = nullptr;
};

template <typename Key>
Status WrongKind(const ErrorLocation& where, Key key, json::Kind kind, std::string_view expected) {
  return WrongKindError(where.str(), KeyName(key), kind, expected);
}

// Reads an optional string member of `row` into `out`.
template <typename Members, typename Key>
Status OptionalString(const Members& row, Key key, const ErrorLocation& where, std::string& out) {
  const auto* v = row.Find(key);
  if (v == nullptr) return Status();
  if (!v->is_string()) return WrongKind(where, key, v->kind(), "a string");
  out = v->as_string();
  return Status();
}

// Reads an optional number member; `present` says whether it was there.
template <typename Members, typename Key>
Status OptionalNumber(const Members& row, Key key, const ErrorLocation& where, double& out,
                      bool* present = nullptr) {
  const auto* v = row.Find(key);
  if (present != nullptr) *present = v != nullptr;
  if (v == nullptr) return Status();
  if (!v->is_number()) return WrongKind(where, key, v->kind(), "a number");
  out = v->as_number();
  return Status();
}

// The row's identity: its name (required), run name, run type, aggregate
// name, error state and label. Sets `where` to the row's context.
Status ReadIdentity(const RowMembers& value, size_t index, GbenchRow& row, ErrorLocation& where) {
  const FieldValue* name = value.Find(Field::kName);
  if (name == nullptr) return Status::Error(where + ": no \"name\"");
  if (!name->is_string()) return WrongKind(where, Field::kName, name->kind(), "a string");
  row.name = name->as_string();
  if (row.name.empty()) return Status::Error(where + ": empty \"name\"");
  where = ErrorLocation(index, &row.name);

  Status s = OptionalString(value, Field::kRunName, where, row.run_name);
  if (!s.ok()) return s;
  if (row.run_name.empty()) row.run_name = row.name;

  std::string run_type = "iteration";
  if (s = OptionalString(value, Field::kRunType, where, run_type); !s.ok()) return s;
  if (run_type == "aggregate") {
    row.aggregate = true;
  } else if (run_type != "iteration") {
    return Status::Error(where + ": unknown \"run_type\" \"" + run_type +
                         "\" (expected \"iteration\" or \"aggregate\")");
  }
  if (s = OptionalString(value, Field::kAggregateName, where, row.aggregate_name); !s.ok()) {
    return s;
  }
  // An aggregate taken for a repetition would join the samples (n = 9 + 5).
  if (!row.aggregate_name.empty() && !row.aggregate) {
    return Status::Error(where + ": \"aggregate_name\" \"" + row.aggregate_name +
                         "\" but \"run_type\" is not \"aggregate\"");
  }

  if (const FieldValue* e = value.Find(Field::kErrorOccurred); e != nullptr) {
    if (!e->is_bool()) return WrongKind(where, Field::kErrorOccurred, e->kind(), "true or false");
    row.error = e->as_bool();
  }
  if (s = OptionalString(value, Field::kErrorMessage, where, row.error_message); !s.ok()) {
    return s;
  }
  if (const FieldValue* skipped = value.Find(Field::kSkipped); skipped != nullptr) {
    if (!skipped->is_bool()) {
      return WrongKind(where, Field::kSkipped, skipped->kind(), "true or false");
    }
    row.skipped = skipped->as_bool();
  }
  if (s = OptionalString(value, Field::kSkipMessage, where, row.skip_message); !s.ok()) return s;
  return OptionalString(value, Field::kLabel, where, row.label);
}

// The iteration and thread counts.
Status ReadCounts(const RowMembers& value, const ErrorLocation& where, GbenchRow& row) {
  if (Status s = OptionalNumber(value, Field::kIterations, where, row.iterations); !s.ok()) {
    return s;
  }
  if (row.measured() && (!std::isfinite(row.iterations) || row.iterations < 0)) {
    return Status::Error(where + ": \"iterations\" must be a finite number >= 0");
  }
  // Google Benchmark counts in int64_t; Go text (convert's output) too.
  if (row.measured() && row.iterations >= 0x1p63) {
    return Status::Error(where +
                         ": \"iterations\" is beyond Google Benchmark's count (at most 2^63 - 1)");
  }
  double threads = 1;
  if (Status s = OptionalNumber(value, Field::kThreads, where, threads); !s.ok()) return s;
  if (!(threads >= 1 && threads <= 1e9) || threads != std::floor(threads)) {
    return Status::Error(where + ": \"threads\" must be a positive integer");
  }
  row.threads = static_cast<int64_t>(threads);
  return Status();
}

// real_time and cpu_time, in nanoseconds.
Status ReadTimes(const RowMembers& value, const ErrorLocation& where, GbenchRow& row) {
  std::string time_unit = "ns";
  if (Status s = OptionalString(value, Field::kTimeUnit, where, time_unit); !s.ok()) return s;
  const double scale = NanosecondsPerUnit(time_unit);
  if (scale == 0) {
    return Status::Error(where + ": unknown \"time_unit\" \"" + time_unit +
                         "\" (expected ns, us, ms or s)");
  }
  bool has_real = false, has_cpu = false;
  double real = 0, cpu = 0;
  if (Status s = OptionalNumber(value, Field::kRealTime, where, real, &has_real); !s.ok()) {
    return s;
  }
  if (Status s = OptionalNumber(value, Field::kCpuTime, where, cpu, &has_cpu); !s.ok()) return s;
  if (has_real != has_cpu) {
    return Status::Error(where + ": has \"" + (has_real ? "real_time" : "cpu_time") +
                         "\" but no \"" + (has_real ? "cpu_time" : "real_time") + "\"");
  }
  const bool is_aggregate_statistic =
      row.aggregate && row.aggregate_name != "mean" && row.aggregate_name != "median";
  if (has_real) {
    // Failed and skipped runs report zeros; stddev and cv may be anything,
    // even NaN.
    if (row.measured() && !is_aggregate_statistic) {
      for (auto [key, v] : {std::pair<const char*, double>{"real_time", real}, {"cpu_time", cpu}}) {
        if (!std::isfinite(v) || v < 0) {
          return Status::Error(where + ": \"" + key + "\" must be a finite number >= 0");
        }
      }
    }
    row.has_times = true;
    row.real_ns = real * scale;
    row.cpu_ns = cpu * scale;
  } else if (!row.aggregate && row.measured()) {
    return Status::Error(where + ": no \"real_time\" and \"cpu_time\"");
  }
  return Status();
}

// Fills `row`, a fresh GbenchRow, from the members of row `index`.
Status ParseRow(const RowMembers& value, size_t index, GbenchRow& row) {
  row.index = index;
  ErrorLocation where(index, nullptr);
  if (Status s = ReadIdentity(value, index, row, where); !s.ok()) return s;
  if (Status s = ReadCounts(value, where, row); !s.ok()) return s;
  if (Status s = ReadTimes(value, where, row); !s.ok()) return s;
  // Every other numeric member is a user counter.
  value.CopyCounters(row.counters);
  return Status();
}

}  // namespace

Status WrongKindError(std::string_view where, std::string_view key, json::Kind kind,
                      std::string_view expected) {
  return Status::Error(std::string(where) + ": \"" + std::string(key) + "\" is " +
                       (kind == json::Kind::kArray || kind == json::Kind::kObject ? "an " : "a ") +
                       std::string(json::KindName(kind)) + ", expected " + std::string(expected));
}

// The kind of value whose first token is `first` (a value's first token).
json::Kind KindOfFirstToken(json::Token first) {
  switch (first) {
    case json::Token::kBeginObject:
      return json::Kind::kObject;
    case json::Token::kBeginArray:
      return json::Kind::kArray;
    case json::Token::kString:
      return json::Kind::kString;
    case json::Token::kNumber:
      return json::Kind::kNumber;
    case json::Token::kTrue:
    case json::Token::kFalse:
      return json::Kind::kBool;
    default:
      return json::Kind::kNull;
  }
}

// The rows of the "benchmarks" array whose '[' `tokens` just returned, one
// at a time: only the current row's members are held (RowMembers). The first
// row's problem goes to `problem`, and the rest of the array is then only
// checked as JSON. Fails only on the JSON itself.
Status ReadRows(json::Tokenizer& tokens, std::vector<GbenchRow>& rows, Status& problem) {
  using json::Token;
  RowMembers members;
  size_t index = 0;
  for (Token t = tokens.Next(); t != Token::kEndArray; t = tokens.Next(), ++index) {
    if (t == Token::kError) return tokens.status();
    if (!problem.ok() || t != Token::kBeginObject) {
      if (!tokens.SkipValue()) return tokens.status();
      if (problem.ok()) {
        problem = Status::Error(RowContext(index, "") + ": expected an object, found " +
                                std::string(json::KindName(KindOfFirstToken(t))));
        rows.clear();
      }
      continue;
    }
    if (Status s = members.Read(tokens); !s.ok()) return s;
    rows.emplace_back();
    if (Status s = ParseRow(members, index, rows.back()); !s.ok()) {
      problem = s;
      rows.clear();
    }
  }
  return Status();
}

}  // namespace benchprof::results
