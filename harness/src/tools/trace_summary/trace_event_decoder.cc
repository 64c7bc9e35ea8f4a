#include "tools/trace_summary/trace_event_decoder.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace benchprof::trace_summary {
namespace {

// One member's value as decoding needs it: its kind, and the string or
// number it holds (containers carry only their kind).
struct FieldValue {
  json::Kind kind = json::Kind::kNull;
  std::string_view string;
  double number = 0;
};

FieldValue ToField(const json::Value& v) {
  FieldValue f;
  f.kind = v.kind();
  if (v.is_string()) f.string = v.as_string();
  if (v.is_number()) f.number = v.as_number();
  return f;
}

Status WrongKind(std::string_view key, const FieldValue& value, const char* expected) {
  const json::Kind kind = value.kind;
  const char* article = kind == json::Kind::kNull                                   ? ""
                        : kind == json::Kind::kArray || kind == json::Kind::kObject ? "an "
                                                                                    : "a ";
  return Status::Error("\"" + std::string(key) + "\" is " + article +
                       std::string(json::KindName(kind)) + ", expected " + expected);
}

// Microseconds with (usually) three decimals, as the format writes them, to
// integer nanoseconds. Integers keep durations exact and sortable; the
// rounding absorbs the binary representation of the decimals.
Status MicrosToNanos(std::string_view key, const FieldValue& value, std::optional<int64_t>& out) {
  if (value.kind != json::Kind::kNumber) return WrongKind(key, value, "a number");
  const double ns = value.number * 1000.0;
  // 73 years (2^61 ns). The bound keeps llround defined and lets the
  // summary add a duration to a time and subtract such sums without
  // overflowing an int64_t, whatever the file says.
  if (!std::isfinite(ns) || std::fabs(ns) > 2.3e18) {
    return Status::Error("\"" + std::string(key) + "\" is out of range");
  }
  out = std::llround(ns);
  return Status();
}

Status ToInteger(std::string_view key, const FieldValue& value, int64_t& out) {
  if (value.kind != json::Kind::kNumber) return WrongKind(key, value, "a number");
  if (!std::isfinite(value.number) || std::fabs(value.number) > 9.2e18) {
    return Status::Error("\"" + std::string(key) + "\" is out of range");
  }
  out = std::llround(value.number);
  return Status();
}

// The field rules, shared by both paths so that they cannot disagree. Keys
// compare as string_views, which compilers turn into a length check and an
// inline compare: this runs for every member of every event.
class EventBuilder {
 public:
  EventBuilder(TraceEvent& event, std::string& id_digits) : e_(event), id_digits_(id_digits) {}

  // A top-level member. For "args" only its kind is checked; its members
  // come through Arg().
  Status Member(std::string_view key, const FieldValue& value) {
    if (key == "ph") {
      if (value.kind != json::Kind::kString) return WrongKind(key, value, "a string");
      e_.phase = value.string.size() == 1 ? value.string[0] : 0;
      has_phase_ = true;
    } else if (key == "name" || key == "cat") {
      if (value.kind != json::Kind::kString) return WrongKind(key, value, "a string");
      (key == "name" ? e_.name : e_.category) = value.string;
    } else if (key == "ts") {
      return MicrosToNanos(key, value, e_.ts_ns);
    } else if (key == "dur") {
      return MicrosToNanos(key, value, e_.dur_ns);
    } else if (key == "pid") {
      return ToInteger(key, value, e_.pid);
    } else if (key == "tid") {
      return ToInteger(key, value, e_.tid);
    } else if (key == "id") {
      if (value.kind == json::Kind::kString) {
        e_.id = value.string;
      } else if (value.kind == json::Kind::kNumber) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, value.number);
        id_digits_.assign(buf, r.ptr);
        e_.id = id_digits_;
      } else {
        return WrongKind(key, value, "a string or a number");
      }
    } else if (key == "args") {
      if (value.kind != json::Kind::kObject) return WrongKind(key, value, "an object");
    }
    return Status();
  }

  // A member of "args".
  Status Arg(std::string_view key, const FieldValue& value) {
    if (key == "busy" || key == "count") {
      if (value.kind != json::Kind::kNumber) {
        return WrongKind("args." + std::string(key), value, "a number");
      }
      (key == "busy" ? e_.busy : e_.count) = value.number;
    } else if (key == "kind" || key == "name") {
      if (value.kind != json::Kind::kString) {
        return WrongKind("args." + std::string(key), value, "a string");
      }
      (key == "kind" ? e_.kind : e_.arg_name) = value.string;
    }
    return Status();
  }

  Status Finish() const {
    if (!has_phase_) return Status::Error("event without \"ph\"");
    // Metadata events carry no time; every other phase is placed by its "ts".
    if (e_.phase != 'M' && !e_.ts_ns) return Status::Error("event without \"ts\"");
    return Status();
  }

 private:
  TraceEvent& e_;
  std::string& id_digits_;
  bool has_phase_ = false;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The in-place scan: one object whose members are strings without escapes
// or control characters, numbers (RFC 8259 grammar), true, false or null,
// and one level of object under "args". Returns false, having decided
// nothing, for anything else — including a field of the wrong type — and
// the caller then asks json::Parse. Accepting only valid JSON is the one
// thing it must get right: a false positive would hide a syntax error.
class FlatEventScanner {
 public:
  FlatEventScanner(std::string_view text, EventBuilder& builder)
      : p_(text.data()), end_(text.data() + text.size()), builder_(builder) {}

  bool Run() {
    SkipWhitespace();
    if (p_ == end_ || *p_ != '{' || !Object(false)) return false;
    SkipWhitespace();
    return p_ == end_ && builder_.Finish().ok();
  }

 private:
  void SkipWhitespace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  // At '"'.
  bool String(std::string_view& out) {
    const char* start = ++p_;
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(start, static_cast<size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (c == '\\' || c < 0x20) return false;
      ++p_;
    }
    return false;
  }

  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  bool Digits() {
    if (p_ == end_ || !IsDigit(*p_)) return false;
    while (p_ < end_ && IsDigit(*p_)) ++p_;
    return true;
  }

  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool Number(double& out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (!Digits()) {
      return false;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (!Digits()) return false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!Digits()) return false;
    }
    // "01" or "1.5.3" are one invalid token to json::Parse; here the scan
    // stops early and the next byte is not a delimiter, so Object() fails.
    const auto r = std::from_chars(start, p_, out);
    return r.ec == std::errc() && r.ptr == p_;  // out of range: let json::Parse say so
  }

  bool Scalar(FieldValue& v) {
    switch (*p_) {
      case '"':
        v.kind = json::Kind::kString;
        return String(v.string);
      case 't':
        v.kind = json::Kind::kBool;
        return Literal("true");
      case 'f':
        v.kind = json::Kind::kBool;
        return Literal("false");
      case 'n':
        v.kind = json::Kind::kNull;
        return Literal("null");
      default:
        v.kind = json::Kind::kNumber;
        return (*p_ == '-' || IsDigit(*p_)) && Number(v.number);
    }
  }

  // At '{'. `in_args`: the object is the value of "args".
  bool Object(bool in_args) {
    ++p_;
    SkipWhitespace();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      SkipWhitespace();
      std::string_view key;
      if (p_ == end_ || *p_ != '"' || !String(key)) return false;
      SkipWhitespace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      SkipWhitespace();
      if (p_ == end_) return false;
      if (*p_ == '{') {
        if (in_args || key != "args") return false;
        FieldValue object;
        object.kind = json::Kind::kObject;
        if (!builder_.Member(key, object).ok() || !Object(true)) return false;
      } else {
        FieldValue v;
        if (*p_ == '[' || !Scalar(v)) return false;
        if (!(in_args ? builder_.Arg(key, v) : builder_.Member(key, v)).ok()) return false;
      }
      SkipWhitespace();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
    }
  }

  const char* p_;
  const char* const end_;
  EventBuilder& builder_;
};

}  // namespace

Status TraceEventDecoder::Decode(std::string_view text, TraceEvent& event) {
  const uint64_t line = event.line;
  if (fast_path_) {
    event = TraceEvent();
    event.line = line;
    EventBuilder builder(event, id_digits_);
    if (FlatEventScanner(text, builder).Run()) return Status();
  }
  ++slow_decodes_;
  event = TraceEvent();
  event.line = line;
  StatusOr<json::Value> parsed = json::Parse(text);
  if (!parsed.ok()) return parsed.status();
  parsed_ = std::move(*parsed);
  if (!parsed_.is_object()) return Status::Error("line 1, column 1: expected an event object");
  EventBuilder builder(event, id_digits_);
  for (const auto& [key, value] : parsed_.members()) {
    if (Status s = builder.Member(key, ToField(value)); !s.ok()) return s;
    if (key == "args") {
      for (const auto& [arg_key, arg_value] : value.members()) {
        if (Status s = builder.Arg(arg_key, ToField(arg_value)); !s.ok()) return s;
      }
    }
  }
  return builder.Finish();
}

}  // namespace benchprof::trace_summary
