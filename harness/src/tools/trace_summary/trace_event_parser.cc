#include "tools/trace_summary/trace_event_parser.h"

#include <charconv>
#include <cmath>
#include <utility>

#include "common/json_value.h"

namespace benchprof::trace_summary {

using json::Token;

enum class TraceEventParser::Field : uint8_t {
  kOther,
  kPh,
  kName,
  kCat,
  kTs,
  kDur,
  kPid,
  kTid,
  kId,
  kArgs
};
enum class TraceEventParser::ArgField : uint8_t { kOther, kBusy, kCount, kKind, kName };

namespace {

// The JSON kind of the value whose first token is `t`, for "is a string,
// expected a number".
json::Kind KindOf(Token t) {
  switch (t) {
    case Token::kBeginObject:
      return json::Kind::kObject;
    case Token::kBeginArray:
      return json::Kind::kArray;
    case Token::kString:
      return json::Kind::kString;
    case Token::kNumber:
      return json::Kind::kNumber;
    case Token::kTrue:
    case Token::kFalse:
      return json::Kind::kBool;
    default:
      return json::Kind::kNull;
  }
}

std::string WrongKind(std::string_view key, Token t, const char* expected) {
  return "\"" + std::string(key) + "\" is " + KindPhrase(t) + ", expected " + expected;
}

}  // namespace

std::string KindPhrase(Token first) {
  const json::Kind kind = KindOf(first);
  const char* article = kind == json::Kind::kNull                                   ? ""
                        : kind == json::Kind::kArray || kind == json::Kind::kObject ? "an "
                                                                                    : "a ";
  return article + std::string(json::KindName(kind));
}

Status TraceEventParser::Parse(json::Tokenizer& tokens, TraceEvent& event) {
  tokens_ = &tokens;
  event_ = &event;
  event = TraceEvent();
  event.line = tokens.line();
  has_phase_ = false;
  problem_.clear();
  name_.set = category_.set = id_.set = kind_.set = arg_name_.set = false;
  tokens.Hold();
  Status s = ReadMembers();
  if (s.ok() && problem_.empty()) {
    if (!has_phase_) {
      problem_ = "event without \"ph\"";
    } else if (event.phase != 'M' && !event.ts_ns) {
      // Metadata events carry no time; every other phase is placed by its "ts".
      problem_ = "event without \"ts\"";
    }
  }
  if (s.ok() && !problem_.empty()) s = Status::Error(problem_);
  if (s.ok()) {
    event.name = Resolve(name_);
    event.category = Resolve(category_);
    event.id = Resolve(id_);
    event.kind = Resolve(kind_);
    event.arg_name = Resolve(arg_name_);
  }
  // The views stay valid after the release: the buffer moves only in Next().
  tokens.Release();
  return s;
}

// After the event's kBeginObject: its members through its kEndObject. The
// field problems are noted and reported once the event is complete, so that
// a syntax error or the end of the input in the same event comes first.
Status TraceEventParser::ReadMembers() {
  for (;;) {
    Token t = tokens_->Next();
    if (t == Token::kEndObject) return Status();
    if (t == Token::kError) return tokens_->status();
    const Field field = FieldOf(tokens_->string());
    t = tokens_->Next();
    if (t == Token::kError) return tokens_->status();
    if (field == Field::kArgs && t == Token::kBeginObject) {
      if (Status s = ReadArgs(); !s.ok()) return s;
      continue;
    }
    DecodeMember(field, t);
    // A container nobody reads (a scalar is read already).
    if ((t == Token::kBeginArray || t == Token::kBeginObject) && !tokens_->SkipValue()) {
      return tokens_->status();
    }
  }
}

// After the kBeginObject of "args": its members, through its kEndObject.
Status TraceEventParser::ReadArgs() {
  for (;;) {
    Token t = tokens_->Next();
    if (t == Token::kEndObject) return Status();
    if (t == Token::kError) return tokens_->status();
    const std::string_view key = tokens_->string();
    ArgField field = ArgField::kOther;
    if (key == "busy") {
      field = ArgField::kBusy;
    } else if (key == "kind") {
      field = ArgField::kKind;
    } else if (key == "name") {
      field = ArgField::kName;
    } else if (key == "count") {
      field = ArgField::kCount;
    }
    t = tokens_->Next();
    if (t == Token::kError) return tokens_->status();
    DecodeArg(field, t);
    if ((t == Token::kBeginArray || t == Token::kBeginObject) && !tokens_->SkipValue()) {
      return tokens_->status();
    }
  }
}

// Inlined, as FieldOf(): they run for every member of every event.
[[gnu::always_inline]] inline void TraceEventParser::DecodeMember(Field field, Token value) {
  switch (field) {
    case Field::kPh:
      if (value != Token::kString) return KindProblem("ph", value, "a string");
      event_->phase = tokens_->string().size() == 1 ? tokens_->string()[0] : 0;
      has_phase_ = true;
      return;
    case Field::kName:
      return KeepString("name", value, name_);
    case Field::kCat:
      return KeepString("cat", value, category_);
    case Field::kTs:
      return MicrosToNanos("ts", value, event_->ts_ns);
    case Field::kDur:
      return MicrosToNanos("dur", value, event_->dur_ns);
    case Field::kPid:
      return ToInteger("pid", value, event_->pid);
    case Field::kTid:
      return ToInteger("tid", value, event_->tid);
    case Field::kId:
      if (value == Token::kNumber) return KeepNumericId();
      if (value != Token::kString) return KindProblem("id", value, "a string or a number");
      return KeepString("id", value, id_);
    case Field::kArgs:  // an object went to ReadArgs()
      return KindProblem("args", value, "an object");
    case Field::kOther:
      return;
  }
}

inline void TraceEventParser::DecodeArg(ArgField field, Token value) {
  switch (field) {
    case ArgField::kBusy:
    case ArgField::kCount: {
      const bool busy = field == ArgField::kBusy;
      if (value != Token::kNumber) {
        return KindProblem(busy ? "args.busy" : "args.count", value, "a number");
      }
      (busy ? event_->busy : event_->count) = tokens_->number();
      return;
    }
    case ArgField::kKind:
      return KeepString("args.kind", value, kind_);
    case ArgField::kName:
      return KeepString("args.name", value, arg_name_);
    case ArgField::kOther:
      return;
  }
}

inline void TraceEventParser::KeepString(const char* key, Token value, StringField& field) {
  if (value != Token::kString) return KindProblem(key, value, "a string");
  field.set = true;
  field.copied = tokens_->escaped();
  if (field.copied) {
    field.copy = tokens_->string();
  } else {
    field.span = tokens_->held_string();
  }
}

// A numeric "id" as its shortest decimal form, the way the summary groups ids.
void TraceEventParser::KeepNumericId() {
  char digits[32];
  const auto r = std::to_chars(digits, digits + sizeof digits, tokens_->number());
  id_.set = id_.copied = true;
  id_.copy.assign(digits, r.ptr);
}

// Microseconds with (usually) three decimals, as the format writes them, to
// integer nanoseconds. Integers keep durations exact and sortable; the
// rounding absorbs the binary representation of the decimals.
inline void TraceEventParser::MicrosToNanos(const char* key, Token value,
                                            std::optional<int64_t>& out) {
  const double ns = tokens_->number() * 1000.0;
  // 73 years (2^61 ns). The bound keeps llround defined and lets the summary
  // add a duration to a time and subtract such sums without overflowing an
  // int64_t, whatever the file says. NaN fails the comparison too.
  if (value == Token::kNumber && std::fabs(ns) <= 2.3e18) {
    out = std::llround(ns);
  } else {
    NumberProblem(key, value);
  }
}

inline void TraceEventParser::ToInteger(const char* key, Token value, int64_t& out) {
  const double v = tokens_->number();
  if (value == Token::kNumber && std::fabs(v) <= 9.2e18) {
    out = std::llround(v);
  } else {
    NumberProblem(key, value);
  }
}

// The problems are worded out of line: they are rare, and the hot paths
// stay small enough to inline.
void TraceEventParser::KindProblem(const char* key, Token value, const char* expected) {
  Problem(WrongKind(key, value, expected));
}

// `value` is not a number, or one out of range.
void TraceEventParser::NumberProblem(const char* key, Token value) {
  if (value != Token::kNumber) return KindProblem(key, value, "a number");
  Problem("\"" + std::string(key) + "\" is out of range");
}

void TraceEventParser::Problem(std::string problem) {
  if (problem_.empty()) problem_ = std::move(problem);
}

inline std::string_view TraceEventParser::Resolve(const StringField& field) const {
  if (!field.set) return {};
  return field.copied ? std::string_view(field.copy) : tokens_->held(field.span);
}

// Keys compare by length first: this runs for every member of every event.
[[gnu::always_inline]] inline TraceEventParser::Field TraceEventParser::FieldOf(
    std::string_view key) {
  switch (key.size()) {
    case 2:
      if (key == "ph") return Field::kPh;
      if (key == "ts") return Field::kTs;
      if (key == "id") return Field::kId;
      break;
    case 3:
      if (key == "cat") return Field::kCat;
      if (key == "dur") return Field::kDur;
      if (key == "pid") return Field::kPid;
      if (key == "tid") return Field::kTid;
      break;
    case 4:
      if (key == "name") return Field::kName;
      if (key == "args") return Field::kArgs;
      break;
  }
  return Field::kOther;
}

}  // namespace benchprof::trace_summary
