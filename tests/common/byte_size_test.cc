// Sizes as --trace_window_bytes reads them (common/byte_size.h).
#include "common/byte_size.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace benchprof {
namespace {

TEST(ByteSizeTest, ParsesBytesAndBinaryUnits) {
  EXPECT_EQ(ParseByteSize("0"), 0u);
  EXPECT_EQ(ParseByteSize("65536"), 65536u);
  EXPECT_EQ(ParseByteSize("100B"), 100u);
  EXPECT_EQ(ParseByteSize("512KiB"), 512u * 1024);
  EXPECT_EQ(ParseByteSize("64MiB"), 64u << 20);
  EXPECT_EQ(ParseByteSize("3GiB"), uint64_t{3} << 30);
  EXPECT_EQ(ParseByteSize("17179869183GiB"), uint64_t{17179869183} << 30);
}

TEST(ByteSizeTest, RefusesOtherSpellingsAndOverflow) {
  for (const char* bad : {"", "MiB", "-1", "1.5MiB", "64M", "64mib", "64 MiB", "64MB", "0x10",
                          "17179869184GiB", "18446744073709551616"}) {
    EXPECT_EQ(ParseByteSize(bad), std::nullopt) << bad;
  }
}

TEST(ByteSizeTest, FormatsInTheLargestWholeUnit) {
  EXPECT_EQ(FormatByteSize(0), "0 B");
  EXPECT_EQ(FormatByteSize(100), "100 B");
  EXPECT_EQ(FormatByteSize(1536 * 1024), "1536 KiB");
  EXPECT_EQ(FormatByteSize(64u << 20), "64 MiB");
  EXPECT_EQ(FormatByteSize(uint64_t{2} << 30), "2 GiB");
  EXPECT_EQ(FormatByteSize(1025), "1025 B");
}

}  // namespace
}  // namespace benchprof
