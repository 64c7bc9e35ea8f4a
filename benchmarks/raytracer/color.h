// Color: an RGB triple of doubles, unclamped, as the book uses them.
//
// Colours are plain values in all three renderer implementations: the naive
// one's story is heap matrices and tuples, not colours.
//
// Example:
//   Color c = Color{1, 0.2, 0.4} * Color{0.9, 1, 0.1};  // (0.9, 0.2, 0.04)
//
// Thread-safety: thread-compatible value type.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_COLOR_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_COLOR_H_

namespace benchprof::raytracer {

struct Color {
  double r = 0;
  double g = 0;
  double b = 0;

  friend bool operator==(const Color&, const Color&) = default;
};

inline constexpr Color kBlack{0, 0, 0};
inline constexpr Color kWhite{1, 1, 1};

inline Color operator+(const Color& a, const Color& b) { return {a.r + b.r, a.g + b.g, a.b + b.b}; }
inline Color operator-(const Color& a, const Color& b) { return {a.r - b.r, a.g - b.g, a.b - b.b}; }
inline Color operator*(const Color& c, double s) { return {c.r * s, c.g * s, c.b * s}; }
// The Hadamard (component-wise) product: how a surface filters a light.
inline Color operator*(const Color& a, const Color& b) { return {a.r * b.r, a.g * b.g, a.b * b.b}; }
inline Color& operator+=(Color& a, const Color& b) { return a = a + b; }

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_COLOR_H_
