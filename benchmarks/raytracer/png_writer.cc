#include "raytracer/png_writer.h"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <vector>

namespace benchprof::raytracer {
namespace {

// libpng reports errors through a callback that must not return: keep the
// message and jump back to WritePng's setjmp.
struct ErrorState {
  std::jmp_buf jump;
  char message[256];
};

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
  auto* state = static_cast<ErrorState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof(state->message), "%s", message);
  std::longjmp(state->jump, 1);
}

void OnWarning(png_structp, png_const_charp) {}

// The only function with a setjmp: it holds no C++ objects, so the jump from
// OnError skips no destructor and clobbers nothing it reads afterwards.
bool WriteRows(png_bytep* rows, png_uint_32 width, png_uint_32 height, std::FILE* out,
               ErrorState* state) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, &OnError, &OnWarning);
  if (png == nullptr) {
    std::snprintf(state->message, sizeof(state->message), "cannot initialise libpng");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    std::snprintf(state->message, sizeof(state->message), "cannot initialise libpng");
    png_destroy_write_struct(&png, nullptr);
    return false;
  }
  if (setjmp(state->jump) != 0) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, out);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

bool WritePng(const Canvas& canvas, std::FILE* out, std::string* error) {
  std::vector<png_byte> pixels(static_cast<size_t>(canvas.width()) * canvas.height() * 3);
  std::vector<png_bytep> rows(static_cast<size_t>(canvas.height()));
  for (int y = 0; y < canvas.height(); ++y) {
    png_bytep row = &pixels[static_cast<size_t>(y) * canvas.width() * 3];
    rows[static_cast<size_t>(y)] = row;
    for (int x = 0; x < canvas.width(); ++x) {
      const Color& c = canvas.At(x, y);
      row[x * 3] = ToByte(c.r);
      row[x * 3 + 1] = ToByte(c.g);
      row[x * 3 + 2] = ToByte(c.b);
    }
  }
  ErrorState state{};
  if (!WriteRows(rows.data(), static_cast<png_uint_32>(canvas.width()),
                 static_cast<png_uint_32>(canvas.height()), out, &state)) {
    *error = state.message;
    return false;
  }
  return true;
}

}  // namespace benchprof::raytracer
