#include "tools/gate/callgrind_functions.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "common/whole_file.h"

namespace benchprof::gate {
namespace {

// Callgrind's name compression: "(id) name" defines id, "(id)" uses it.
// Files (fl, fi, fe, cfi, cfl) share one table, functions (fn, cfn) another.
class NameTable {
 public:
  // The name `spec` stands for; false if it uses an id never defined.
  bool Resolve(std::string_view spec, std::string* name) {
    // "(12)" or "(12) name"; a name may itself start with '(' ("(below
    // main)"), an id is digits only.
    const size_t close = spec.find(')');
    const bool compressed =
        !spec.empty() && spec.front() == '(' && close != std::string_view::npos && close > 1 &&
        spec.substr(1, close - 1).find_first_not_of("0123456789") == std::string_view::npos;
    if (!compressed) {
      *name = std::string(spec);
      return true;
    }
    const std::string id(spec.substr(1, close - 1));
    std::string_view rest = spec.substr(close + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (!rest.empty()) {
      names_[id] = std::string(rest);
      *name = std::string(rest);
      return true;
    }
    const auto found = names_.find(id);
    if (found == names_.end()) return false;
    *name = found->second;
    return true;
  }

 private:
  std::unordered_map<std::string, std::string> names_;
};

std::string_view NextWord(std::string_view& line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  size_t end = 0;
  while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
  const std::string_view word = line.substr(0, end);
  line.remove_prefix(end);
  return word;
}

bool ParseUnsigned(std::string_view text, uint64_t* value, int base = 10) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value, base);
  return error == std::errc() && end == text.data() + text.size();
}

// One position column of a cost line: absolute ("12", "0x4a"), relative to
// the column's last value ("+3", "-2"), or the same ("*").
bool ParsePosition(std::string_view word, int64_t* last) {
  if (word == "*") return true;
  if (word.front() == '+' || word.front() == '-') {
    uint64_t offset = 0;
    if (!ParseUnsigned(word.substr(1), &offset)) return false;
    *last += word.front() == '+' ? static_cast<int64_t>(offset) : -static_cast<int64_t>(offset);
    return true;
  }
  uint64_t value = 0;
  const bool hex = word.starts_with("0x");
  if (!ParseUnsigned(hex ? word.substr(2) : word, &value, hex ? 16 : 10)) return false;
  *last = static_cast<int64_t>(value);
  return true;
}

bool StartsCostLine(char c) { return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*'; }

struct LineKey {
  std::string file;
  int64_t line;
  bool operator<(const LineKey& other) const {
    return std::tie(file, line) < std::tie(other.file, other.line);
  }
};

struct FunctionCost {
  uint64_t self = 0;
  std::map<LineKey, uint64_t> lines;
};

}  // namespace

StatusOr<CallgrindProfile> ParseCallgrindFile(std::string_view text) {
  CallgrindProfile profile;
  NameTable files, functions;
  std::map<std::string, FunctionCost> costs;
  std::string file, line_file, function;
  size_t position_columns = 1;  // "positions: line"
  size_t line_column = 0;       // which position column is the line
  std::vector<int64_t> last_positions(1, 0);
  std::optional<size_t> ir_index;  // among the events
  bool next_is_call_cost = false;
  size_t line_number = 0;
  const auto error = [&](const std::string& problem) {
    return Status::Error("line " + std::to_string(line_number) + ": " + problem);
  };

  while (!text.empty()) {
    ++line_number;
    size_t end = text.find('\n');
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == text.size() ? end : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;

    if (StartsCostLine(line.front())) {
      if (!ir_index) return error("a cost line before an \"events:\" line with Ir");
      for (size_t column = 0; column < position_columns; ++column) {
        const std::string_view word = NextWord(line);
        if (word.empty() || !ParsePosition(word, &last_positions[column])) {
          return error("malformed position \"" + std::string(word) + "\"");
        }
      }
      uint64_t ir = 0;
      for (size_t event = 0;; ++event) {
        const std::string_view word = NextWord(line);
        if (word.empty()) break;
        uint64_t value = 0;
        if (!ParseUnsigned(word, &value)) {
          return error("malformed cost \"" + std::string(word) + "\"");
        }
        if (event == *ir_index) ir = value;
      }
      if (next_is_call_cost) {  // the callee's inclusive cost, not the caller's own
        next_is_call_cost = false;
        continue;
      }
      if (ir == 0) continue;
      if (function.empty()) return error("a cost line outside any function (no fn=)");
      FunctionCost& cost = costs[function];
      cost.self += ir;
      cost.lines[LineKey{line_file, last_positions[line_column]}] += ir;
      profile.total += ir;
      continue;
    }

    const size_t equals = line.find('=');
    const size_t colon = line.find(':');
    if (equals != std::string_view::npos && (colon == std::string_view::npos || equals < colon)) {
      const std::string_view key = line.substr(0, equals);
      const std::string_view value = line.substr(equals + 1);
      std::string name;
      if (key == "fn") {
        if (!functions.Resolve(value, &name))
          return error("undefined function id " + std::string(value));
        function = name;
        line_file = file;
      } else if (key == "fl") {
        if (!files.Resolve(value, &name)) return error("undefined file id " + std::string(value));
        file = line_file = name;
      } else if (key == "fi" || key == "fe") {
        if (!files.Resolve(value, &name)) return error("undefined file id " + std::string(value));
        line_file = name;
      } else if (key == "cfn") {
        if (!functions.Resolve(value, &name))
          return error("undefined function id " + std::string(value));
      } else if (key == "cfi" || key == "cfl") {
        if (!files.Resolve(value, &name)) return error("undefined file id " + std::string(value));
      } else if (key == "calls") {
        next_is_call_cost = true;
      } else if (key == "ob" || key == "cob" || key == "jump" || key == "jcnd") {
        // Objects do not name functions; jumps carry no instruction cost.
      } else {
        return error("unknown line \"" + std::string(line.substr(0, 40)) + "\"");
      }
      continue;
    }
    if (colon == std::string_view::npos) {
      return error("not a callgrind line: \"" + std::string(line.substr(0, 40)) + "\"");
    }
    const std::string_view key = line.substr(0, colon);
    std::string_view value = line.substr(colon + 1);
    if (key == "positions") {
      position_columns = 0;
      line_column = 0;
      bool has_line = false;
      for (std::string_view word = NextWord(value); !word.empty(); word = NextWord(value)) {
        if (word == "line") {
          line_column = position_columns;
          has_line = true;
        }
        ++position_columns;
      }
      if (position_columns == 0) return error("empty \"positions:\" line");
      if (!has_line) line_column = position_columns;  // no line column: lines stay 0
      last_positions.assign(position_columns + 1, 0);
    } else if (key == "events") {
      size_t index = 0;
      for (std::string_view word = NextWord(value); !word.empty();
           word = NextWord(value), ++index) {
        if (word == "Ir") ir_index = index;
      }
      if (!ir_index) return error("the events do not include Ir (instructions)");
    } else if (key == "desc") {
      std::string_view rest = value;
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.starts_with("Iterations:")) {
        std::string_view count = rest.substr(11);
        while (!count.empty() && count.front() == ' ') count.remove_prefix(1);
        if (!ParseUnsigned(count, &profile.iterations)) {
          return error("malformed iteration count \"" + std::string(count) + "\"");
        }
      }
    }
    // Other header lines (version, creator, cmd, summary, totals, ...) carry
    // nothing this reader needs.
  }
  if (!ir_index) return Status::Error("not a callgrind file: no \"events:\" line");

  profile.functions.reserve(costs.size());
  for (auto& [name, cost] : costs) {
    CallgrindFunction& out = profile.functions.emplace_back();
    out.name = name;
    out.self = cost.self;
    for (const auto& [key, self] : cost.lines) {
      if (self > out.hottest_line_self) {
        out.hottest_line_self = self;
        // "???" is callgrind's name for code without debug information; a
        // path as compiled ("/b/build/../src/x.cc") is shown as the file it
        // names.
        out.file = key.file == "???" ? ""
                                     : std::filesystem::path(key.file).lexically_normal().string();
        out.hottest_line = key.file == "???" ? 0 : key.line;
      }
    }
  }
  return profile;
}

StatusOr<CallgrindProfile> ReadCallgrindFile(const std::string& path) {
  // Far above a callgrind file of one benchmark run (a few MB).
  constexpr size_t kMaxCallgrindFile = size_t{1} << 30;
  StatusOr<std::string> text = ReadWholeFile(path, kMaxCallgrindFile);
  if (!text.ok()) return text.status();
  StatusOr<CallgrindProfile> profile = ParseCallgrindFile(*text);
  if (!profile.ok()) return profile.status().WithContext(path);
  return profile;
}

}  // namespace benchprof::gate
