// Decodes the PNG screenshots headless Chromium writes (8-bit RGB or RGBA,
// not interlaced) into pixels, so a test can tell a drawn page from a blank
// one. Test support only: no other PNG flavour is needed.
#ifndef BENCHPROF_TESTS_TOOLS_PNG_PIXELS_H_
#define BENCHPROF_TESTS_TOOLS_PNG_PIXELS_H_

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace benchprof::testing {

struct Pixels {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> rgb;  // 0xRRGGBB, row by row; empty if not decoded
};

inline Pixels DecodePng(const std::string& png) {
  Pixels out;
  const auto be32 = [&](size_t at) {
    return uint32_t{static_cast<uint8_t>(png[at])} << 24 |
           uint32_t{static_cast<uint8_t>(png[at + 1])} << 16 |
           uint32_t{static_cast<uint8_t>(png[at + 2])} << 8 | static_cast<uint8_t>(png[at + 3]);
  };
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return out;
  std::string idat;
  int channels = 0;
  for (size_t at = 8; at + 8 <= png.size();) {
    const uint32_t length = be32(at);
    const std::string type = png.substr(at + 4, 4);
    if (at + 12 + length > png.size()) return out;
    if (type == "IHDR") {
      out.width = be32(at + 8);
      out.height = be32(at + 12);
      const int depth = png[at + 16], color = png[at + 17], interlace = png[at + 20];
      if (depth != 8 || interlace != 0 || (color != 2 && color != 6)) return out;
      channels = color == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, length);
    }
    at += 12 + length;
  }
  if (channels == 0) return out;
  const size_t stride = size_t{out.width} * channels;
  std::vector<uint8_t> raw((stride + 1) * out.height);
  uLongf size = raw.size();
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) !=
          Z_OK ||
      size != raw.size()) {
    return out;
  }
  std::vector<uint8_t> prev(stride, 0), row(stride);
  out.rgb.reserve(size_t{out.width} * out.height);
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = &raw[y * (stride + 1) + 1];
    for (size_t x = 0; x < stride; ++x) {
      const int a = x >= static_cast<size_t>(channels) ? row[x - channels] : 0;
      const int b = prev[x];
      const int c = x >= static_cast<size_t>(channels) ? prev[x - channels] : 0;
      int predicted = 0;
      switch (filter) {
        case 1:
          predicted = a;
          break;
        case 2:
          predicted = b;
          break;
        case 3:
          predicted = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          break;
      }
      row[x] = static_cast<uint8_t>(in[x] + predicted);
    }
    for (uint32_t x = 0; x < out.width; ++x) {
      const uint8_t* px = &row[size_t{x} * channels];
      out.rgb.push_back(uint32_t{px[0]} << 16 | uint32_t{px[1]} << 8 | px[2]);
    }
    prev.swap(row);
  }
  return out;
}

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_TOOLS_PNG_PIXELS_H_
