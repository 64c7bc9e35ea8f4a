// The PPM and PNG writers: exact bytes for PPM, a libpng round trip for PNG,
// and one-line errors without leftovers for bad paths.

#include "raytracer/image_writer.h"

#include <gtest/gtest.h>
#include <png.h>

#include <string>
#include <vector>

#include "raytracer/canvas.h"
#include "raytracer/ppm_writer.h"
#include "support/subprocess.h"

namespace benchprof::raytracer {
namespace {

using ::benchprof::testing::FileExists;
using ::benchprof::testing::ListDirectory;
using ::benchprof::testing::ReadFile;
using ::benchprof::testing::TempDir;

Canvas SmallCanvas() {
  Canvas canvas(3, 2);
  canvas.Set(0, 0, {1.5, 0, -0.5});
  canvas.Set(1, 0, {0, 0.5, 0});
  canvas.Set(2, 1, {0.2, 0.4, 1});
  return canvas;
}

const std::vector<uint8_t> kSmallCanvasBytes = {255, 0, 0, 0, 128, 0, 0,  0,   0,
                                                0,   0, 0, 0, 0,   0, 51, 102, 255};

TEST(PpmWriterTest, HeaderThenRgbBytes) {
  const std::string ppm = EncodePpm(SmallCanvas());
  const std::string header = "P6\n3 2\n255\n";
  ASSERT_EQ(ppm.substr(0, header.size()), header);
  const std::string pixels = ppm.substr(header.size());
  EXPECT_EQ(std::vector<uint8_t>(pixels.begin(), pixels.end()), kSmallCanvasBytes);
}

TEST(ImageWriterTest, WritesPpm) {
  TempDir dir;
  std::string error;
  ASSERT_TRUE(WriteImageFile(SmallCanvas(), dir.File("a.ppm"), &error)) << error;
  EXPECT_EQ(ReadFile(dir.File("a.ppm")), EncodePpm(SmallCanvas()));
  EXPECT_EQ(ListDirectory(dir.path()).size(), 1u);
}

TEST(ImageWriterTest, PngRoundTripsThroughLibpng) {
  TempDir dir;
  std::string error;
  ASSERT_TRUE(WriteImageFile(SmallCanvas(), dir.File("a.png"), &error)) << error;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_file(&image, dir.File("a.png").c_str()));
  EXPECT_EQ(image.width, 3u);
  EXPECT_EQ(image.height, 2u);
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  ASSERT_TRUE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr));
  EXPECT_EQ(pixels, kSmallCanvasBytes);
  EXPECT_EQ(ListDirectory(dir.path()).size(), 1u);
}

TEST(ImageWriterTest, BadPathsFailWithOneLineAndNoLeftovers) {
  TempDir dir;
  std::string error;
  EXPECT_FALSE(WriteImageFile(SmallCanvas(), dir.File("a.jpg"), &error));
  EXPECT_NE(error.find("a.jpg"), std::string::npos);
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(WriteImageFile(SmallCanvas(), dir.File("missing/a.png"), &error));
  EXPECT_NE(error.find("missing/a.png"), std::string::npos);
  EXPECT_TRUE(ListDirectory(dir.path()).empty());
  EXPECT_FALSE(FileExists(dir.File("a.jpg")));
}

TEST(ImageWriterTest, FormatForPath) {
  EXPECT_EQ(FormatForPath("x.png"), ImageFormat::kPng);
  EXPECT_EQ(FormatForPath("dir/x.ppm"), ImageFormat::kPpm);
  EXPECT_EQ(FormatForPath("x.PNG"), std::nullopt);
  EXPECT_EQ(FormatForPath("png"), std::nullopt);
}

}  // namespace
}  // namespace benchprof::raytracer
