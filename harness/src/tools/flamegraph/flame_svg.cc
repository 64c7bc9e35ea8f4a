#include "tools/flamegraph/flame_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/utf8.h"
#include "tools/flamegraph/flame_assets.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/text_format.h"

namespace benchprof::flamegraph {

namespace {

constexpr int kRowHeight = 17;  // a frame and the gap below it
constexpr int kFrameHeight = 16;
constexpr int kFramesTop = 44;      // below the title, the subtitle and the controls
constexpr double kCharWidth = 7.3;  // a 12 px monospace character (the script assumes the same)
constexpr int64_t kFramesWidth100 = (kSvgWidth - 2 * kSvgMargin) * 100;  // hundredths of a pixel

// `text` as valid UTF-8 that XML allows: each byte that starts no
// well-formed sequence, each control character and U+FFFE/U+FFFF become
// U+FFFD.
std::string XmlText(std::string_view text) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80 ? (lead >= 0x20 ? 1 : 0) : Utf8SequenceLength(text, i);
    const std::string_view sequence = text.substr(i, length);
    if (length == 0 || sequence == "\xEF\xBF\xBE" || sequence == "\xEF\xBF\xBF") {
      out += kReplacement;
      i += std::max<size_t>(length, 1);
    } else {
      out.append(sequence);
      i += length;
    }
  }
  return out;
}

void AppendXml(std::string& out, std::string_view text) { AppendHtmlEscaped(out, XmlText(text)); }

// `name` (valid UTF-8) cut to `fit` characters, ending in "..", or "" when
// fewer than 3 fit.
std::string FitName(const std::string& name, double width_px) {
  const double fit = std::floor((width_px - 6) / kCharWidth);
  if (fit < 3) return "";
  const auto chars = static_cast<size_t>(fit);
  if (tools::DisplayWidth(name) <= chars) return name;
  size_t end = 0;
  for (size_t kept = 0; end < name.size(); ++end) {
    if ((static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) continue;
    if (kept++ == chars - 2) break;
  }
  return name.substr(0, end) + "..";
}

void AppendHundredths(std::string& out, int64_t hundredths) {
  out += tools::StringPrintf("%lld.%02lld", static_cast<long long>(hundredths / 100),
                             static_cast<long long>(hundredths % 100));
}

std::string Hex(int r, int g, int b) { return tools::StringPrintf("#%02x%02x%02x", r, g, b); }

// The colour the HTML page's script gives the frame (flame_assets.cc):
// a warm hue from a hash of the function's name, or in a differential
// tree red for growth, blue for shrinkage and grey for no change, the more
// saturated the larger the change against the largest.
std::string FrameFill(const FlameTree& tree, size_t i, double max_change) {
  if (tree.differential) {
    const double a = max_change == 0 ? 0 : NormalisedChange(tree, i) / max_change;
    const int c = static_cast<int>(std::lround(235 - 190 * std::min(1.0, std::fabs(a))));
    if (a > 0) return Hex(255, c, c);
    if (a < 0) return Hex(c, c, 255);
    return Hex(235, 235, 235);
  }
  uint32_t h = 0;
  for (const char c : tree.names[tree.nodes[i].name].function) {
    h = h * 31 + static_cast<unsigned char>(c);
  }
  const double hue = h % 55;
  const double saturation = (70 + (h >> 8) % 20) / 100.0;
  const double lightness = (58 + (h >> 16) % 12) / 100.0;
  // hsl to rgb for a hue below 60 degrees: red is the largest, blue the least.
  const double chroma = (1 - std::fabs(2 * lightness - 1)) * saturation;
  const double second = chroma * (1 - std::fabs(std::fmod(hue / 60, 2) - 1));
  const double least = lightness - chroma / 2;
  const auto byte = [](double v) { return static_cast<int>(std::lround(v * 255)); };
  return Hex(byte(chroma + least), byte(second + least), byte(least));
}

std::string Percent(double part, int64_t whole) {
  return whole == 0 ? "-" : tools::StringPrintf("%.2f%%", 100 * part / static_cast<double>(whole));
}

// The third line of a frame's title: its value and share, and in a
// differential tree its base and change.
std::string ValueLine(const FlameTree& tree, size_t i) {
  const FlameNode& node = tree.nodes[i];
  const std::string& unit = tree.sample_type.unit;
  const int64_t total = tree.nodes[0].value;
  std::string line = FormatSampleValue(unit, static_cast<double>(node.value)) + ", " +
                     Percent(static_cast<double>(node.value), total) + " of all";
  if (tree.differential) {
    const double change = NormalisedChange(tree, i);
    const std::string sign = change > 0 ? "+" : "";
    line += "; base " + FormatSampleValue(unit, static_cast<double>(node.base)) + ", normalised " +
            FormatSampleValue(unit, static_cast<double>(node.value) - change) + "; change " + sign +
            FormatSampleValue(unit, change) + " (" + sign + Percent(change, total) + " of all)";
  }
  return line;
}

}  // namespace

bool IsSvgPath(std::string_view path) {
  constexpr std::string_view kSuffix = ".svg";
  if (path.size() < kSuffix.size()) return false;
  const std::string_view end = path.substr(path.size() - kSuffix.size());
  return std::equal(end.begin(), end.end(), kSuffix.begin(), [](char a, char b) {
    return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
  });
}

std::string FlameGraphSvg(const FlameTree& tree, std::string_view title,
                          std::string_view subtitle) {
  const int64_t total = tree.nodes[0].value;
  double max_change = 0;
  for (size_t i = 0; tree.differential && i < tree.nodes.size(); ++i) {
    max_change = std::max(max_change, std::fabs(NormalisedChange(tree, i)));
  }
  const double min_value =
      kSvgMinFramePx * static_cast<double>(total) / static_cast<double>(kFramesWidth100 / 100);
  const std::vector<bool> widest = WidestFrames(tree, kSvgMaxFrames);
  const auto x100 = [&](int64_t value) {
    const double share = total == 0 ? 0 : static_cast<double>(value) / static_cast<double>(total);
    return kSvgMargin * 100 + std::llround(share * static_cast<double>(kFramesWidth100));
  };
  std::vector<std::string> names(tree.names.size());
  for (size_t i = 0; i < names.size(); ++i) names[i] = XmlText(tree.names[i].function);

  std::string frames;
  // Per depth on the current path: where the next child starts (in value)
  // and whether the frame was written.
  struct Open {
    int64_t next = 0;
    bool written = true;
  };
  std::vector<Open> path;
  uint32_t max_depth = 0;
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const FlameNode& node = tree.nodes[i];
    path.resize(node.depth);
    int64_t start = 0;
    bool written = true;
    if (node.depth > 0) {
      Open& parent = path.back();
      start = parent.next;
      parent.next += node.value;
      written = parent.written && widest[i] && static_cast<double>(node.value) >= min_value &&
                node.value > 0;
    }
    path.push_back({start, written});
    if (!written) continue;
    max_depth = std::max(max_depth, node.depth);
    const int64_t left = x100(start);
    const int64_t width = i == 0 ? kFramesWidth100 : x100(start + node.value) - left;
    const int y = kFramesTop + static_cast<int>(node.depth) * kRowHeight;
    frames += "<g class=\"f\" data-v=\"" + std::to_string(node.value);
    if (tree.differential) frames += "\" data-b=\"" + std::to_string(node.base);
    frames += "\"><title>";
    AppendHtmlEscaped(frames, names[node.name]);
    frames += '\n';
    AppendXml(frames, tree.names[node.name].location);
    frames += '\n';
    AppendXml(frames, ValueLine(tree, i));
    frames += "</title><rect x=\"";
    AppendHundredths(frames, left);
    frames += "\" y=\"" + std::to_string(y) + "\" width=\"";
    AppendHundredths(frames, width);
    frames += "\" height=\"" + std::to_string(kFrameHeight) + "\" fill=\"" +
              FrameFill(tree, i, max_change) + "\"/>";
    const std::string label = FitName(names[node.name], static_cast<double>(width) / 100);
    if (!label.empty()) {
      frames += "<text x=\"";
      AppendHundredths(frames, left + 300);
      frames += "\" y=\"" + std::to_string(y + 12) + "\">";
      AppendHtmlEscaped(frames, label);
      frames += "</text>";
    }
    frames += "</g>\n";
  }

  const int details_y = kFramesTop + static_cast<int>(max_depth + 1) * kRowHeight + 16;
  const int height = details_y + 8;
  const std::string width = std::to_string(kSvgWidth);
  const std::string right = std::to_string(kSvgWidth - kSvgMargin);
  const std::string margin = std::to_string(kSvgMargin);
  std::string svg =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
      width + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + width + " " +
      std::to_string(height) +
      "\" font-family=\"ui-monospace,Menlo,Consolas,monospace\" font-size=\"12\">\n<title>";
  AppendXml(svg, title);
  svg +=
      "</title>\n<style>.f{cursor:pointer}.f:hover rect{stroke:#000;stroke-width:.5}"
      ".f text{pointer-events:none}.a{opacity:.6}.c{cursor:pointer;fill:#06c}"
      "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
      "<text x=\"" +
      std::to_string(kSvgWidth / 2) +
      "\" y=\"18\" text-anchor=\"middle\" "
      "font-size=\"15\">";
  AppendXml(svg, title);
  svg += "</text>\n<text x=\"" + std::to_string(kSvgWidth / 2) +
         "\" y=\"34\" text-anchor=\"middle\" fill=\"#555\">";
  AppendXml(svg, subtitle);
  svg += "</text>\n<text id=\"fg-reset\" class=\"c\" x=\"" + margin +
         "\" y=\"18\" display=\"none\">Reset zoom</text>\n"
         "<text id=\"fg-search\" class=\"c\" x=\"" +
         right +
         "\" y=\"18\" text-anchor=\"end\">Search</text>\n"
         "<text id=\"fg-matched\" x=\"" +
         right + "\" y=\"34\" text-anchor=\"end\"></text>\n";
  svg += "<g id=\"fg-frames\">\n";
  svg += frames;
  svg +=
      "</g>\n<text id=\"fg-details\" x=\"" + margin + "\" y=\"" + std::to_string(details_y) + "\">";
  svg += tree.differential
             ? "Widths: head. Colour: the change against the base scaled to the head&#39;s total "
               "(red grew, blue shrank, grey unchanged)."
             : "Click a frame to zoom, the root to zoom out; Ctrl-F or Search to search.";
  svg += "</text>\n<script type=\"text/ecmascript\"><![CDATA[\n";
  svg += SvgScript();
  svg += "]]></script>\n</svg>\n";
  return svg;
}

}  // namespace benchprof::flamegraph
