#include "tools/flamegraph/flame_html.h"

#include <charconv>
#include <cstdint>
#include <numeric>

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

// A JSON string that is safe inside <script>: no "</script>" can end it.
void AppendScriptString(std::string& out, std::string_view text) {
  std::string quoted;
  json::AppendQuoted(quoted, text);
  for (const char c : quoted) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
}

int64_t Gcd(const FlameTree& tree, bool base) {
  int64_t gcd = 0;
  for (const FlameNode& node : tree.nodes) {
    gcd = std::gcd(gcd, base ? node.base : node.value);
    if (gcd == 1) break;
  }
  return gcd == 0 ? 1 : gcd;
}

}  // namespace

void AppendHtmlEscaped(std::string& out, std::string_view text) {
  for (const char c : text) {
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

std::string HtmlPageStart(std::string_view title) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  AppendHtmlEscaped(html, title);
  html += "</title>\n<style>\n";
  html += PageStyle();
  html += "</style>\n<script>\n";
  html += FlameGraphScript();
  html += "</script>\n</head><body>\n";
  return html;
}

std::string HtmlPageEnd() { return "</body></html>\n"; }

std::string DescribeTotal(const FlameTree& tree) {
  const auto describe = [&](int64_t value) {
    const std::string& unit = tree.sample_type.unit;
    if (unit == "nanoseconds") return tools::FormatDuration(static_cast<double>(value));
    const std::string number = tools::FormatNumber(static_cast<double>(value));
    return unit == "bytes" ? number + "B" : unit == "count" ? number : number + " " + unit;
  };
  std::string text = tree.sample_type.type + " " + describe(tree.nodes[0].value) + " in " +
                     std::to_string(tree.samples) + " samples";
  if (tree.differential) {
    text += " (base " + describe(tree.nodes[0].base) + " in " + std::to_string(tree.base_samples) +
            " samples)";
  }
  return text;
}

void AppendFlameGraph(const FlameTree& tree, std::string& html) {
  html +=
      "<div class=\"fg\"><div class=\"fg-bar\"><input class=\"fg-search\" type=\"search\" "
      "placeholder=\"Search (regex)\" aria-label=\"Search functions (regex)\">"
      "<button class=\"fg-reset\" type=\"button\">Reset</button>"
      "<span class=\"fg-status\"></span></div>\n";
  if (tree.differential) {
    html +=
        "<div class=\"fg-legend\">Widths: head. Colour: change against the base, normalised to "
        "the head's total (red grew, blue shrank).</div>\n";
  }
  html += "<div class=\"fg-frames\"></div><div class=\"fg-info\"></div>\n";
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
  html += ",\n\"names\":[";
  for (size_t i = 0; i < tree.names.size(); ++i) {
    if (i != 0) html += ",\n";
    html += '[';
    AppendScriptString(html, tree.names[i].function);
    html += ',';
    AppendScriptString(html, tree.names[i].location);
    html += ']';
  }
  html += "],\n\"nodes\":[";
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const FlameNode& node = tree.nodes[i];
    if (i != 0) html += i % 16 == 0 ? ",\n" : ",";
    AppendInt(html, node.name);
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
