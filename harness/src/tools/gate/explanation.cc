#include "tools/gate/explanation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "tools/compare/markdown_text.h"
#include "tools/text_format.h"

namespace benchprof::gate {
namespace {

using encode::ProfileData;
using encode::ProfileLine;
using encode::ProfileSample;

// Where an amount is attributed: a function, and a line in it.
struct Site {
  std::string function;
  std::string file;
  int64_t line = 0;
  bool operator<(const Site& other) const {
    return std::tie(function, file, line) < std::tie(other.function, other.file, other.line);
  }
};

// Amounts per site: totals over the profile, not yet per iteration.
struct SiteAmounts {
  std::map<Site, double> amounts;
  std::map<Site, double> counts;  // samples, for the noise test (CPU)
  double total = 0;
  double total_count = 0;
};

bool IsOfBenchmark(const ProfileSample& sample, const std::string& benchmark) {
  for (const encode::ProfileLabel& label : sample.labels) {
    if (label.key == "benchmark") return label.str == benchmark;
  }
  return false;
}

// The index of the sample type named `type`, if the profile has it.
std::optional<size_t> ValueIndex(const ProfileData& profile, const std::string& type) {
  for (size_t i = 0; i < profile.sample_types.size(); ++i) {
    if (profile.sample_types[i].type == type) return i;
  }
  return std::nullopt;
}

Site SiteOf(const ProfileData& profile, const ProfileLine& line) {
  const encode::ProfileFunction& function = profile.functions.at(line.function_index);
  return Site{function.name, function.filename, line.line};
}

// The first frame, from the leaf, that is the program's own: the line that
// allocates. A stack entirely inside the machinery is attributed to its leaf.
std::optional<Site> AllocationSite(const ProfileData& profile, const ProfileSample& sample) {
  std::optional<Site> leaf;
  for (const size_t index : sample.location_indexes) {
    const encode::ProfileLocation& location = profile.locations.at(index);
    const std::string& mapping =
        location.mapping_index ? profile.mappings.at(*location.mapping_index).filename : "";
    for (const ProfileLine& line : location.lines) {
      const Site site = SiteOf(profile, line);
      if (!leaf) leaf = site;
      if (!IsAllocationMachinery(site.function, mapping)) return site;
    }
  }
  return leaf;
}

// The innermost frame: where the sampled instruction was.
std::optional<Site> LeafFunction(const ProfileData& profile, const ProfileSample& sample) {
  for (const size_t index : sample.location_indexes) {
    const encode::ProfileLocation& location = profile.locations.at(index);
    if (!location.lines.empty()) return SiteOf(profile, location.lines.front());
  }
  return std::nullopt;
}

template <typename KeyOf>
SiteAmounts Reduce(const ProfileData& profile, const std::string& benchmark,
                   std::optional<size_t> amount_index, std::optional<size_t> count_index,
                   KeyOf key_of) {
  SiteAmounts reduced;
  if (!amount_index) return reduced;
  for (const ProfileSample& sample : profile.samples) {
    if (!IsOfBenchmark(sample, benchmark)) continue;
    const double amount = static_cast<double>(sample.values.at(*amount_index));
    const double count = count_index ? static_cast<double>(sample.values.at(*count_index)) : 0;
    reduced.total += amount;
    reduced.total_count += count;
    const std::optional<Site> site = key_of(profile, sample);
    const Site key = site ? *site : Site{"[unknown]", "", 0};
    reduced.amounts[key] += amount;
    reduced.counts[key] += count;
  }
  return reduced;
}

double PerIteration(double amount, uint64_t iterations) {
  return iterations == 0 ? 0 : amount / static_cast<double>(iterations);
}

// The sites that grew, largest first, each kept when `keep` says so, with
// their shares of the total growth.
template <typename Keep>
std::vector<Cause> RankCauses(const std::map<Site, std::pair<double, double>>& per_iteration,
                              double total_growth, Keep keep) {
  std::vector<Cause> causes;
  for (const auto& [site, amounts] : per_iteration) {
    const double growth = amounts.second - amounts.first;
    if (growth <= 0 || !keep(site)) continue;
    causes.push_back(Cause{site.function, site.file, site.line, amounts.first, amounts.second,
                           growth / total_growth});
  }
  std::sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
    return std::tie(b.share, a.function) < std::tie(a.share, b.function);
  });
  size_t kept = 0;
  while (kept < causes.size() && kept < kMaxCauses && causes[kept].share >= kMinShare) ++kept;
  causes.resize(kept);
  return causes;
}

// Both sides' amounts per iteration, site by site.
std::map<Site, std::pair<double, double>> Pair(const SiteAmounts& base, uint64_t base_iterations,
                                               const SiteAmounts& head, uint64_t head_iterations) {
  std::map<Site, std::pair<double, double>> paired;
  for (const auto& [site, amount] : base.amounts) {
    paired[site].first = PerIteration(amount, base_iterations);
  }
  for (const auto& [site, amount] : head.amounts) {
    paired[site].second = PerIteration(amount, head_iterations);
  }
  return paired;
}

std::string NoGrowth(const Explanation& e, const std::string& amount_unit) {
  return "the profiles show no growth to explain (" + tools::FormatNumber(e.base_total) + " -> " +
         tools::FormatNumber(e.head_total) + " " + amount_unit + " per iteration)";
}

std::string FormatAmount(const Explanation& e, double value) {
  return e.unit == "ns" ? tools::FormatDuration(value) : tools::FormatNumber(value);
}

std::string SignedAmount(const Explanation& e, double value) {
  return (value >= 0 ? "+" : "-") + FormatAmount(e, std::fabs(value));
}

std::string Where(const Cause& cause) {
  std::string where = tools::OneLine(cause.function);
  if (!cause.file.empty()) {
    where += "  " + tools::OneLine(cause.file);
    if (cause.line > 0) where += ":" + std::to_string(cause.line);
  }
  return where;
}

// "BM_Foo: allocs/op 2 -> 3 per iteration (how)", or without the amounts
// when nothing was measured.
std::string Heading(const Explanation& e, std::string_view arrow) {
  std::string heading = e.metric;
  if (e.base_total != 0 || e.head_total != 0) {
    heading += " " + FormatAmount(e, e.base_total) + std::string(arrow) +
               FormatAmount(e, e.head_total) + " per iteration";
  }
  if (!e.source.empty()) heading += " (" + e.source + ")";
  return heading;
}

// The growth not attributed to a listed cause, if worth a line.
double Rest(const Explanation& e) {
  double listed = 0;
  for (const Cause& cause : e.causes) listed += cause.head - cause.base;
  return (e.head_total - e.base_total) - listed;
}

}  // namespace

bool IsAllocationMachinery(const std::string& function, const std::string& mapping_file) {
  for (const char* prefix : {"std::", "__gnu_cxx::", "__cxxabiv1::", "operator new",
                             "operator delete", "__libc_", "__GI_"}) {
    if (function.starts_with(prefix)) return true;
  }
  for (const char* name :
       {"malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc", "posix_memalign",
        "memalign", "valloc", "pvalloc", "strdup", "strndup"}) {
    if (function == name) return true;
  }
  const size_t slash = mapping_file.rfind('/');
  const std::string base = mapping_file.substr(slash == std::string::npos ? 0 : slash + 1);
  for (const char* runtime : {"libc.so", "libstdc++.so", "libc++.so", "libc++abi.so", "ld-linux"}) {
    if (base.starts_with(runtime)) return true;
  }
  return false;
}

Explanation ExplainAllocations(const ProfileData& base, const ProfileData& head,
                               const std::string& benchmark, uint64_t base_iterations,
                               uint64_t head_iterations, AllocationMetric metric) {
  const std::string type = metric == AllocationMetric::kObjects ? "alloc_objects" : "alloc_space";
  Explanation e;
  e.benchmark = benchmark;
  e.metric = metric == AllocationMetric::kObjects ? "allocs/op" : "B/op";
  e.unit = metric == AllocationMetric::kObjects ? "allocations" : "bytes";
  e.source = "heap profiles at rate 1, every allocation of " + std::to_string(base_iterations) +
             " base and " + std::to_string(head_iterations) + " head iterations";
  const SiteAmounts base_sites =
      Reduce(base, benchmark, ValueIndex(base, type), std::nullopt, AllocationSite);
  const SiteAmounts head_sites =
      Reduce(head, benchmark, ValueIndex(head, type), std::nullopt, AllocationSite);
  e.base_total = PerIteration(base_sites.total, base_iterations);
  e.head_total = PerIteration(head_sites.total, head_iterations);
  const double growth = e.head_total - e.base_total;
  if (growth <= 0) {
    e.unexplained = NoGrowth(e, e.unit);
    return e;
  }
  e.causes = RankCauses(Pair(base_sites, base_iterations, head_sites, head_iterations), growth,
                        [](const Site&) { return true; });
  return e;
}

Explanation ExplainInstructions(const CallgrindProfile& base, const CallgrindProfile& head,
                                const std::string& benchmark) {
  Explanation e;
  e.benchmark = benchmark;
  e.metric = "instructions/op";
  e.unit = "instructions";
  e.source = "callgrind, each function's own instructions";
  e.base_total = PerIteration(static_cast<double>(base.total), base.iterations);
  e.head_total = PerIteration(static_cast<double>(head.total), head.iterations);
  if (base.iterations == 0 || head.iterations == 0) {
    e.unexplained = "a callgrind file has no iteration count (not written by bench --instructions)";
    return e;
  }
  const double growth = e.head_total - e.base_total;
  if (growth <= 0) {
    e.unexplained = NoGrowth(e, e.unit);
    return e;
  }
  // Functions are matched by name across the builds; the line shown is the
  // head's costliest.
  std::map<Site, std::pair<double, double>> paired;
  std::map<std::string, Site> head_sites;
  for (const CallgrindFunction& f : head.functions) {
    head_sites[f.name] = Site{f.name, f.file, f.hottest_line};
  }
  for (const CallgrindFunction& f : base.functions) {
    const auto in_head = head_sites.find(f.name);
    const Site site =
        in_head != head_sites.end() ? in_head->second : Site{f.name, f.file, f.hottest_line};
    paired[site].first = PerIteration(static_cast<double>(f.self), base.iterations);
  }
  for (const CallgrindFunction& f : head.functions) {
    paired[head_sites[f.name]].second = PerIteration(static_cast<double>(f.self), head.iterations);
  }
  e.causes = RankCauses(paired, growth, [](const Site&) { return true; });
  return e;
}

Explanation ExplainTime(const ProfileData& base, const ProfileData& head,
                        const std::string& benchmark, uint64_t base_iterations,
                        uint64_t head_iterations) {
  Explanation e;
  e.benchmark = benchmark;
  e.metric = "time";
  e.unit = "ns";
  const SiteAmounts base_sites =
      Reduce(base, benchmark, ValueIndex(base, "cpu"), ValueIndex(base, "samples"), LeafFunction);
  const SiteAmounts head_sites =
      Reduce(head, benchmark, ValueIndex(head, "cpu"), ValueIndex(head, "samples"), LeafFunction);
  e.source =
      "CPU profiles, each function's own time: " + tools::FormatNumber(base_sites.total_count) +
      " base samples over " + std::to_string(base_iterations) + " iterations, " +
      tools::FormatNumber(head_sites.total_count) + " head samples over " +
      std::to_string(head_iterations);
  e.base_total = PerIteration(base_sites.total, base_iterations);
  e.head_total = PerIteration(head_sites.total, head_iterations);
  if (base_iterations == 0 || head_iterations == 0) {
    e.unexplained = "not enough samples to explain: a side ran no iteration under the profiler";
    return e;
  }
  // Sample counts are Poisson: the change of a count per iteration stands
  // out when it exceeds three standard deviations of that change.
  const double ib = static_cast<double>(base_iterations), ih = static_cast<double>(head_iterations);
  const auto z_of = [&](double base_count, double head_count) {
    const double change = head_count / ih - base_count / ib;
    const double variance = head_count / (ih * ih) + base_count / (ib * ib);
    return variance > 0 ? change / std::sqrt(variance) : 0.0;
  };
  constexpr double kZ = 3;
  const double growth = e.head_total - e.base_total;
  const double z_total = z_of(base_sites.total_count, head_sites.total_count);
  if (growth <= 0 || z_total < kZ) {
    e.unexplained =
        "not enough samples to explain: the CPU profiles show " + SignedAmount(e, growth) +
        " per iteration, within sampling noise (z = " + tools::StringPrintf("%.1f", z_total) +
        ", 3 needed)";
    return e;
  }
  // Attributed by function, its lines merged; the line shown is the head's
  // busiest (the base's, for a function the head no longer runs).
  struct FunctionTotals {
    double base = 0, head = 0, base_count = 0, head_count = 0;
    Site line;
    double line_amount = -1;
    bool line_from_head = false;
  };
  std::map<std::string, FunctionTotals> functions;
  for (const bool is_head : {false, true}) {
    const SiteAmounts& sites = is_head ? head_sites : base_sites;
    for (const auto& [site, amount] : sites.amounts) {
      FunctionTotals& f = functions[site.function];
      (is_head ? f.head : f.base) += amount;
      (is_head ? f.head_count : f.base_count) += sites.counts.at(site);
      if ((is_head && !f.line_from_head) || amount > f.line_amount) {
        f.line = site;
        f.line_amount = amount;
        f.line_from_head = is_head;
      }
    }
  }
  std::map<Site, std::pair<double, double>> paired;
  std::map<Site, double> z_by_site;
  for (const auto& [name, f] : functions) {
    paired[f.line] = {PerIteration(f.base, base_iterations), PerIteration(f.head, head_iterations)};
    z_by_site[f.line] = z_of(f.base_count, f.head_count);
  }
  e.causes = RankCauses(paired, growth, [&](const Site& site) { return z_by_site.at(site) >= kZ; });
  if (e.causes.empty()) {
    e.unexplained = "not enough samples to explain: the total grew " + SignedAmount(e, growth) +
                    " per iteration, but no single function's change stands out of sampling "
                    "noise";
  }
  return e;
}

std::string RenderExplanationText(const Explanation& e) {
  std::string text = tools::OneLine(e.benchmark) + ": " + Heading(e, " -> ") + "\n";
  if (!e.unexplained.empty()) return text + "  " + e.unexplained;
  for (const Cause& cause : e.causes) {
    text +=
        tools::StringPrintf("  %10s  %5.1f%%  ", SignedAmount(e, cause.head - cause.base).c_str(),
                            100 * cause.share) +
        Where(cause) + "  (" + FormatAmount(e, cause.base) + " -> " + FormatAmount(e, cause.head) +
        ")\n";
  }
  const double rest = Rest(e);
  if (std::fabs(rest) >= kMinShare * (e.head_total - e.base_total)) {
    text += tools::StringPrintf("  %10s  %5.1f%%  ", SignedAmount(e, rest).c_str(),
                                100 * rest / (e.head_total - e.base_total)) +
            "elsewhere\n";
  }
  text.pop_back();
  return text;
}

std::string RenderExplanationMarkdown(const Explanation& e) {
  using compare::MarkdownCodeSpan;
  std::string md = MarkdownCodeSpan(tools::OneLine(e.benchmark), false) + ": " +
                   compare::MarkdownEscape(Heading(e, " → ")) + "\n\n";
  // It may quote a path or a binary's words: code, as any input text.
  if (!e.unexplained.empty())
    return md + MarkdownCodeSpan(tools::OneLine(e.unexplained), false) + "\n";
  md += "| change | share | where | base → head |\n| ---: | ---: | --- | --- |\n";
  for (const Cause& cause : e.causes) {
    md += "| " + SignedAmount(e, cause.head - cause.base) + " | " +
          tools::StringPrintf("%.1f%%", 100 * cause.share) + " | " +
          MarkdownCodeSpan(Where(cause), true) + " | " + FormatAmount(e, cause.base) + " → " +
          FormatAmount(e, cause.head) + " |\n";
  }
  return md;
}

}  // namespace benchprof::gate
