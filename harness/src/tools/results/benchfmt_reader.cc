#include "tools/results/benchfmt_reader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace benchprof::results {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// A configuration line: `key:` then at least one space or tab and the value,
// or nothing (which deletes the key). benchfmt requires the key's first rune
// to be lower case and no upper case or space in it; here that is checked on
// ASCII, and any non-ASCII byte is accepted as part of the key.
bool ParseConfigLine(std::string_view line, std::string& key, std::string& value) {
  if (line.empty() || !(line[0] >= 'a' && line[0] <= 'z')) return false;
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  for (size_t i = 0; i < colon; ++i) {
    const char c = line[i];
    if (IsSpace(c) || (c >= 'A' && c <= 'Z')) return false;
  }
  const std::string_view rest = line.substr(colon + 1);
  if (!rest.empty() && !IsSpace(rest[0])) return false;
  key.assign(line.substr(0, colon));
  value.assign(Trim(rest));
  return true;
}

bool ParseInt(std::string_view s, int64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Go's strconv.ParseFloat accepts what strtod does, less hex floats; NaN and
// Inf parse, and the comparison rejects them later where they matter.
// Longer is not a number anyone wrote: Go (and convert) print values of
// 1000 and more with every integer digit, up to 309 for the largest double.
constexpr size_t kMaxNumberChars = 400;

bool ParseFloat(std::string_view s, double& out) {
  if (s.empty() || s.size() > kMaxNumberChars) return false;
  const std::string copy(s);
  char* end = nullptr;
  out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && copy.find_first_of("xX") == std::string::npos;
}

Status LineError(int line, const std::string& problem) {
  return Status::Error("line " + std::to_string(line) + ": " + problem);
}

// A result line split into `fields` (more than one): the name, the
// iteration count, then (value, unit) pairs.
StatusOr<GoBenchResult> ParseResultLine(const std::vector<std::string_view>& fields,
                                        int line_number) {
  GoBenchResult r;
  r.line = line_number;
  r.name.assign(fields[0].substr(9));
  if (r.name.empty()) return LineError(line_number, "empty benchmark name");
  if (!ParseInt(fields[1], r.iterations) || r.iterations < 0) {
    return LineError(line_number, "iteration count \"" + std::string(fields[1]) +
                                      "\" is not a non-negative integer");
  }
  if (fields.size() == 2) return LineError(line_number, "missing measurements");
  for (size_t i = 2; i < fields.size(); i += 2) {
    double v = 0;
    if (!ParseFloat(fields[i], v)) {
      return LineError(line_number,
                       "measurement \"" + std::string(fields[i]) + "\" is not a number");
    }
    if (i + 1 >= fields.size()) {
      return LineError(line_number, "missing unit after " + std::string(fields[i]));
    }
    r.values.emplace_back(std::string(fields[i + 1]), v);
  }
  return r;
}

// A `Unit <unit> key=value...` line: records better= and assume= in `units`.
Status ParseUnitLine(std::string_view line, int line_number,
                     std::map<std::string, GoUnitInfo>& units) {
  const std::vector<std::string_view> fields = Fields(line);
  if (fields.size() < 2) return LineError(line_number, "Unit line without a unit");
  GoUnitInfo& info = units[std::string(fields[1])];
  for (size_t i = 2; i < fields.size(); ++i) {
    const size_t eq = fields[i].find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return LineError(line_number,
                       "Unit metadata \"" + std::string(fields[i]) + "\" is not key=value");
    }
    const std::string_view key = fields[i].substr(0, eq);
    const std::string value(fields[i].substr(eq + 1));
    if (key == "better") {
      if (value != "higher" && value != "lower") {
        return LineError(line_number, "better=" + value + ": expected higher or lower");
      }
      info.better = value;
    } else if (key == "assume") {
      if (value != "exact" && value != "nothing") {
        return LineError(line_number, "assume=" + value + ": expected exact or nothing");
      }
      info.assume = value;
    }
    // Other keys are free-form in benchfmt; they do not affect comparison.
  }
  return Status();
}

// Applies `key: value` to the configuration in force: an empty value
// deletes the key, a known key keeps its place.
void SetConfig(std::vector<std::pair<std::string, std::string>>& config, const std::string& key,
               const std::string& value) {
  for (auto it = config.begin(); it != config.end(); ++it) {
    if (it->first == key) {
      if (value.empty()) {
        config.erase(it);
      } else {
        it->second = value;
      }
      return;
    }
  }
  if (!value.empty()) config.emplace_back(key, value);
}

// The lines of a text, numbered from 1, without their "\n" or "\r\n".
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // The next line, or false at the end of the text.
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    terminated_ = end < text_.size();
    pos_ = end + 1;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }

  // The number of the line Next() returned last.
  int number() const { return number_; }

  // Whether the line Next() returned last ended with a newline (only the
  // last line of a text can lack one).
  bool terminated() const { return terminated_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
  bool terminated_ = true;
};

}  // namespace

StatusOr<GoBenchText> ParseGoBenchText(std::string_view text) {
  GoBenchText out;
  std::vector<std::pair<std::string, std::string>> config;  // in force now
  bool config_captured = false;
  LineReader lines(text);
  for (std::string_view line; lines.Next(line);) {
    if (line.starts_with("Benchmark")) {
      const std::vector<std::string_view> fields = Fields(line);
      if (fields.size() == 1) continue;  // `go test -v` prints the name alone first
      StatusOr<GoBenchResult> result = ParseResultLine(fields, lines.number());
      if (!result.ok()) return result.status();
      // `go test` and `benchprof convert` end every line: a last result
      // line without its newline was cut short, perhaps inside its last
      // unit ("339 allo" for allocs/op), which would read as a metric of
      // its own.
      if (!lines.terminated()) {
        return LineError(lines.number(), "the text ends inside this result line (after \"" +
                                             std::string(fields.back()) +
                                             "\", no newline): the file looks cut short");
      }
      if (!config_captured) {
        out.config = config;
        config_captured = true;
      }
      out.results.push_back(std::move(result).value());
    } else if (line.starts_with("Unit") && line.size() > 4 && IsSpace(line[4])) {
      if (Status s = ParseUnitLine(line, lines.number(), out.units); !s.ok()) return s;
    } else if (std::string key, value; ParseConfigLine(line, key, value)) {
      SetConfig(config, key, value);
    }
  }
  return out;
}

}  // namespace benchprof::results
