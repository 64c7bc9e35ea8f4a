#include "tools/flamegraph/flame_html.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/json_value.h"
#include "tools/flamegraph/flame_assets.h"
#include "tools/text_format.h"

namespace benchprof::flamegraph {

namespace {

void AppendInt(std::string& out, int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end.ptr);
}

int64_t Gcd(const FlameTree& tree, bool base) {
  int64_t gcd = 0;
  for (const FlameNode& node : tree.nodes) {
    gcd = std::gcd(gcd, base ? node.base : node.value);
    if (gcd == 1) break;
  }
  return gcd == 0 ? 1 : gcd;
}

// 1234567 as "1,234,567".
std::string Grouped(size_t n) {
  std::string digits = std::to_string(n);
  for (size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

}  // namespace

void AppendScriptString(std::string& out, std::string_view text) {
  std::string quoted;
  json::AppendQuoted(quoted, tools::OneLine(text));
  for (const char c : quoted) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
}

void AppendHtmlEscaped(std::string& out, std::string_view text) {
  for (const char c : tools::OneLine(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
}

std::string HtmlEscaped(std::string_view text) {
  std::string out;
  AppendHtmlEscaped(out, text);
  return out;
}

FlamePage::FlamePage(std::string_view title) {
  html_ =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  AppendHtmlEscaped(html_, title);
  html_ += "</title>\n<style>\n";
  html_ += PageStyle();
  html_ += "</style>\n<script>\n";
  html_ += FlameGraphScript();
  html_ += "</script>\n</head><body>\n";
}

uint32_t FlamePage::NameIndex(const FrameName& name) {
  std::string key = name.function;
  key += '\0';
  key += name.location;
  const auto [it, added] =
      name_index_.try_emplace(std::move(key), static_cast<uint32_t>(name_index_.size()));
  if (added) {
    if (it->second != 0) names_json_ += ",\n";
    names_json_ += '[';
    AppendScriptString(names_json_, name.function);
    names_json_ += ',';
    AppendScriptString(names_json_, name.location);
    names_json_ += ']';
  }
  return it->second;
}

std::string FlamePage::Finish() && {
  html_ += "<script type=\"application/json\" class=\"fg-names\">[";
  html_ += names_json_;
  html_ += "]</script>\n</body></html>\n";
  return std::move(html_);
}

std::string FormatSampleValue(std::string_view unit, double value) {
  if (unit == "nanoseconds") return tools::FormatDuration(value);
  const std::string number = tools::FormatNumber(value);
  if (unit == "bytes") return number + "B";
  if (unit == "count" || unit.empty()) return number;
  return number + " " + std::string(unit);
}

std::string DescribeTotal(const FlameTree& tree) {
  const auto describe = [&](int64_t value) {
    return FormatSampleValue(tree.sample_type.unit, static_cast<double>(value));
  };
  const auto stacks = [](uint64_t n) {
    return std::to_string(n) + (n == 1 ? " stack" : " stacks");
  };
  std::string text = tree.sample_type.type + " " + describe(tree.nodes[0].value) + " (" +
                     stacks(tree.samples) + ")";
  if (tree.differential) {
    text += ", base " + describe(tree.nodes[0].base) + " (" + stacks(tree.base_samples) + ")";
  }
  return text;
}

void FlamePage::AppendGraph(const FlameTree& tree, size_t max_frames) {
  const std::vector<bool> kept = WidestFrames(tree, max_frames);
  size_t kept_count = 0;
  for (const bool k : kept) kept_count += k;
  const size_t left_out = tree.nodes.size() - kept_count;
  std::string& html = html_;
  html +=
      "<div class=\"fg\"><div class=\"fg-bar\"><input class=\"fg-search\" type=\"search\" "
      "placeholder=\"Search (regex)\" aria-label=\"Search functions (regex)\">"
      "<button class=\"fg-reset\" type=\"button\">Reset</button>"
      "<span class=\"fg-status\"></span></div>\n";
  if (left_out > 0) {
    html += "<div class=\"fg-note\">" + Grouped(kept_count) + " of " + Grouped(tree.nodes.size()) +
            " frames shown, the widest (then the shallowest): " + Grouped(left_out) +
            " are left out, their samples counted in their callers' widths (--tagfocus draws a "
            "part of the profile).</div>\n";
  }
  if (tree.differential) {
    html +=
        "<div class=\"fg-legend\">Widths: head. Colour: change against the base, normalised to "
        "the head's total (red grew, blue shrank).</div>\n";
  }
  html +=
      "<div class=\"fg-frames\"></div><div class=\"fg-cut\"></div><div class=\"fg-info\"></div>\n";
  html += "<script type=\"application/json\" class=\"fg-data\">{\"type\":";
  AppendScriptString(html, tree.sample_type.type);
  html += ",\"unit\":";
  AppendScriptString(html, tree.sample_type.unit);
  const int64_t scale = Gcd(tree, false);
  const int64_t base_scale = tree.differential ? Gcd(tree, true) : 1;
  html += ",\"diff\":";
  html += tree.differential ? "1" : "0";
  html += ",\"scale\":";
  AppendInt(html, scale);
  html += ",\"bscale\":";
  AppendInt(html, base_scale);
  html += ",\"left_out\":";
  AppendInt(html, static_cast<int64_t>(left_out));
  // Only the names of frames kept go into the page's names.
  std::vector<uint32_t> page_names(tree.names.size(), UINT32_MAX);
  html += ",\n\"nodes\":[";
  size_t written = 0;
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    if (!kept[i]) continue;
    const FlameNode& node = tree.nodes[i];
    if (written != 0) html += written % 16 == 0 ? ",\n" : ",";
    ++written;
    if (page_names[node.name] == UINT32_MAX) {
      page_names[node.name] = NameIndex(tree.names[node.name]);
    }
    AppendInt(html, page_names[node.name]);
    html += ',';
    AppendInt(html, node.depth);
    html += ',';
    AppendInt(html, node.value / scale);
    if (tree.differential) {
      html += ',';
      AppendInt(html, node.base / base_scale);
    }
  }
  html += "]}</script></div>\n";
}

}  // namespace benchprof::flamegraph
