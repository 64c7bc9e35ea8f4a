#include "profiles/callgrind_dump.h"

#include <errno.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

namespace benchprof::profiles {
namespace {

// The header ends where the first cost lines start; no header is longer.
constexpr size_t kHeaderLimit = 64 * 1024;

bool StartsWith(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

StatusOr<CallgrindDump> ParseCallgrindHeader(std::string_view text) {
  CallgrindDump dump;
  bool have_events = false;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (StartsWith(line, "desc: Trigger:")) {
      dump.trigger = std::string(Trim(line.substr(std::strlen("desc: Trigger:"))));
    } else if (StartsWith(line, "events:")) {
      const std::string_view events = Trim(line.substr(std::strlen("events:")));
      if (events.substr(0, events.find(' ')) != "Ir") {
        return Status::Error("the first event is not Ir (events: " + std::string(events) + ")");
      }
      have_events = true;
    } else if (StartsWith(line, "summary:") || StartsWith(line, "totals:")) {
      if (!have_events) return Status::Error("summary before the events line");
      const std::string_view value = Trim(line.substr(line.find(':') + 1));
      const std::string_view first = value.substr(0, value.find(' '));
      const auto [ptr, ec] =
          std::from_chars(first.data(), first.data() + first.size(), dump.instructions);
      if (ec != std::errc() || ptr != first.data() + first.size()) {
        return Status::Error("malformed summary line: " + std::string(line));
      }
      return dump;
    } else if (StartsWith(line, "fl=") || StartsWith(line, "fn=") || StartsWith(line, "ob=")) {
      break;
    }
  }
  return Status::Error("no summary line in the header");
}

std::string WithoutUncountedCalls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::string arc;  // cob=/cfi=/cfl=/cfn= lines waiting for their calls= line
  bool drop_next = false;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = end == std::string_view::npos ? text : text.substr(0, end + 1);
    text.remove_prefix(line.size());
    if (drop_next) {  // the cost line of a dropped arc
      drop_next = false;
      continue;
    }
    if (StartsWith(line, "cob=") || StartsWith(line, "cfi=") || StartsWith(line, "cfl=") ||
        StartsWith(line, "cfn=")) {
      arc.append(line);
      continue;
    }
    if (StartsWith(line, "calls=0 ") || StartsWith(line, "calls=0\n")) {
      arc.clear();
      drop_next = true;
      continue;
    }
    out.append(arc);
    arc.clear();
    out.append(line);
  }
  out.append(arc);
  return out;
}

StatusOr<CallgrindDump> ReadCallgrindDump(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "r"), &std::fclose);
  if (file == nullptr) return Status::Error(path + ": " + std::strerror(errno));
  std::string header(kHeaderLimit, '\0');
  const size_t n = std::fread(header.data(), 1, header.size(), file.get());
  if (std::ferror(file.get())) return Status::Error(path + ": " + std::strerror(errno));
  header.resize(n);
  StatusOr<CallgrindDump> dump = ParseCallgrindHeader(header);
  if (!dump.ok()) return dump.status().WithContext(path);
  return dump;
}

}  // namespace benchprof::profiles
