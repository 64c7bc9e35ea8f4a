#include "tools/history/testbed.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace benchprof::history {
namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// The value after the first line "key<sep>value" of the file, or "".
std::string FieldOf(const std::string& path, std::string_view key, char separator) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t sep = line.find(separator);
    if (sep == std::string::npos) continue;
    if (Trim(std::string_view(line).substr(0, sep)) == key) {
      return Trim(std::string_view(line).substr(sep + 1));
    }
  }
  return "";
}

std::string Unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

// "Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz" -> "xeon-e5-2690-v4": the
// words that tell models apart, for a readable name.
std::string ShortCpu(const std::string& model) {
  std::string lowered;
  for (char c : model.substr(0, model.find('@'))) {
    lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (std::string_view mark : {"(r)", "(tm)"}) {
    for (size_t at; (at = lowered.find(mark)) != std::string::npos;) lowered.erase(at, mark.size());
  }
  std::istringstream words(lowered);
  std::string word, out;
  while (words >> word) {
    if (word == "intel" || word == "amd" || word == "cpu" || word == "processor" ||
        word == "core") {
      continue;
    }
    std::string clean;
    for (char c : word) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') clean += c;
    }
    if (clean.empty()) continue;
    if (!out.empty()) out += '-';
    out += clean;
  }
  if (out.size() > 24) out.resize(24);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "cpu" : out;
}

}  // namespace

std::string Fnv1a64Hex(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[i] = kDigits[hash & 0xf];
  return out;
}

Facts ReadMachineFacts(const MachineFiles& files) {
  Facts facts;
  if (std::string model = FieldOf(files.cpuinfo, "model name", ':'); !model.empty()) {
    facts.emplace_back("cpu_model", model);
  }
  const long cores = files.cores > 0 ? files.cores : ::sysconf(_SC_NPROCESSORS_ONLN);
  if (cores > 0) facts.emplace_back("cores", std::to_string(cores));
  // "MemTotal:  16314464 kB": rounded to GiB, as the kernel's reserve makes
  // the exact figure differ between boots and kernels.
  if (std::string mem = FieldOf(files.meminfo, "MemTotal", ':'); !mem.empty()) {
    const double kib = std::strtod(mem.c_str(), nullptr);
    if (kib > 0) {
      facts.emplace_back("memory",
                         std::to_string(std::llround(kib / (1024.0 * 1024.0))) + " GiB");
    }
  }
  const std::string os_id = Unquote(FieldOf(files.os_release, "ID", '='));
  const std::string os_version = Unquote(FieldOf(files.os_release, "VERSION_ID", '='));
  if (!os_id.empty()) facts.emplace_back("os", os_id + (os_version.empty() ? "" : " " + os_version));
  std::string release = files.kernel_release;
  if (release.empty()) {
    struct utsname u;
    if (::uname(&u) == 0) release = u.release;
  }
  // "6.1.0-18-amd64" -> "6.1": patch releases do not make another testbed.
  if (const size_t dot = release.find('.'); dot != std::string::npos) {
    size_t end = dot + 1;
    while (end < release.size() && std::isdigit(static_cast<unsigned char>(release[end]))) ++end;
    facts.emplace_back("kernel", release.substr(0, end));
  }
  std::sort(facts.begin(), facts.end());
  return facts;
}

TestbedIdentity MakeTestbed(const Facts& machine,
                            const std::vector<std::pair<std::string, std::string>>& context,
                            const std::string& name) {
  TestbedIdentity t;
  t.facts = machine;
  std::string gbench, build_type, compiler;
  for (const auto& [key, value] : context) {
    if (key == "library_version" && gbench.empty()) {
      gbench = value.starts_with("v") ? value.substr(1) : value;
    } else if (key == "google_benchmark_version" && gbench.empty()) {
      gbench = value;
    } else if (key == "library_build_type") {
      build_type = value;
    } else if (key == "compiler") {
      compiler = value;
    }
  }
  if (!gbench.empty()) t.facts.emplace_back("gbench_version", gbench);
  if (!build_type.empty()) t.facts.emplace_back("build_type", build_type);
  if (!compiler.empty()) t.facts.emplace_back("compiler", compiler);
  std::sort(t.facts.begin(), t.facts.end());
  // Keys and values separated by bytes that neither holds, so that no two
  // fact lists hash the same text.
  std::string text;
  for (const auto& [key, value] : t.facts) text += key + '\x1f' + value + '\x1e';
  t.fingerprint = Fnv1a64Hex(text);
  if (!name.empty()) {
    t.name = name;
  } else {
    std::string cores = "?", cpu = "cpu";
    for (const auto& [key, value] : t.facts) {
      if (key == "cores") cores = value;
      if (key == "cpu_model") cpu = ShortCpu(value);
    }
    t.name = cores + "c-" + cpu + "-" + t.fingerprint.substr(0, 8);
  }
  return t;
}

}  // namespace benchprof::history
