// The pprof reader's limits (encode/pprof_reader.h, ProfileLimits), each
// lowered to 9: a profile holding 10 of the thing is refused with one line
// naming the limit, and the same profile is read when the limit is 10, so
// each limit is exact and refuses nothing below it. Profiles are written here as
// protobuf wire bytes, so the tests can hold what no writer makes (unknown
// fields, groups). Also: the default limits read what the workloads write
// (a generated profile of 10,000 stacks), and ReadProfileFile names the file.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>

#include "encode/gzip.h"
#include "encode/pprof_reader.h"
#include "encode/pprof_writer.h"
#include "support/subprocess.h"
#include "support/synthetic_profile.h"
#include "tools/flamegraph/profile_input.h"

namespace benchprof {
namespace {

using encode::ProfileLimits;
using encode::ReadProfile;

std::string Varint(uint64_t v) {
  std::string out;
  for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7f) | 0x80);
  out += static_cast<char>(v);
  return out;
}

// A varint field.
std::string Field(uint64_t field, uint64_t value) { return Varint(field << 3) + Varint(value); }

// A length-delimited field.
std::string Bytes(uint64_t field, const std::string& payload) {
  return Varint(field << 3 | 2) + Varint(payload.size()) + payload;
}

// How many of each thing a profile holds; every default is 1 (or none).
struct Shape {
  int extra_strings = 0;
  int sample_types = 1;
  int comments = 0;
  int mappings = 0;
  int functions = 1;
  int locations = 1;
  int lines = 1;  // per location
  int samples = 1;
  int depth = 1;        // location ids per sample
  int labels = 0;       // per sample
  int unknown = 0;      // fields the format does not have, at the top level
  int name_length = 1;  // of the functions' name
};

// Strings: "", "samples", "count", the functions' name, "k", "v", then extras.
std::string Wire(const Shape& shape) {
  std::string p;
  for (const std::string& s : {std::string(), std::string("samples"), std::string("count"),
                               std::string(static_cast<size_t>(shape.name_length), 'f'),
                               std::string("k"), std::string("v")}) {
    p += Bytes(6, s);
  }
  for (int i = 0; i < shape.extra_strings; ++i) p += Bytes(6, "x");
  for (int i = 0; i < shape.sample_types; ++i) p += Bytes(1, Field(1, 1) + Field(2, 2));
  for (int i = 0; i < shape.comments; ++i) p += Field(13, 1);
  for (int i = 1; i <= shape.mappings; ++i) p += Bytes(3, Field(1, i) + Field(5, 3));
  for (int i = 1; i <= shape.functions; ++i) p += Bytes(5, Field(1, i) + Field(2, 3));
  for (int i = 1; i <= shape.locations; ++i) {
    std::string location = Field(1, i);
    for (int j = 0; j < shape.lines; ++j) location += Bytes(4, Field(1, 1) + Field(2, j));
    p += Bytes(4, location);
  }
  for (int i = 0; i < shape.samples; ++i) {
    std::string ids, values, labels;
    for (int j = 0; j < shape.depth; ++j) ids += Varint(1);
    for (int j = 0; j < shape.sample_types; ++j) values += Varint(7);
    for (int j = 0; j < shape.labels; ++j) labels += Bytes(3, Field(1, 4) + Field(2, 5));
    p += Bytes(2, Bytes(1, ids) + Bytes(2, values) + labels);
  }
  for (int i = 0; i < shape.unknown; ++i) p += Field(99, 1);
  return p;
}

struct LimitCase {
  const char* name;
  uint64_t ProfileLimits::*limit;
  std::function<void(Shape&, int)> hold;  // makes the shape hold n of the thing
  std::string what;                       // in the message
};

class ReaderLimitTest : public ::testing::TestWithParam<LimitCase> {};

TEST_P(ReaderLimitTest, IsExact) {
  const LimitCase& c = GetParam();
  Shape shape;
  c.hold(shape, 10);
  const std::string bytes = Wire(shape);
  ProfileLimits limits;
  limits.*c.limit = 9;
  const StatusOr<encode::ProfileData> refused = ReadProfile(bytes, limits);
  ASSERT_FALSE(refused.ok()) << c.name;
  EXPECT_EQ(refused.status().message(), c.what) << c.name;
  limits.*c.limit = 10;
  const StatusOr<encode::ProfileData> read = ReadProfile(bytes, limits);
  EXPECT_TRUE(read.ok()) << c.name << ": " << read.status().message();
  // And gzip-compressed, as bench writes it.
  limits.*c.limit = 9;
  const StatusOr<std::string> packed = encode::GzipCompress(bytes);
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(ReadProfile(*packed, limits).status().message(), c.what) << c.name;
}

const std::string kOver = ", over the reader's limit";

INSTANTIATE_TEST_SUITE_P(
    EachLimit, ReaderLimitTest,
    ::testing::Values(
        LimitCase{"strings", &ProfileLimits::strings,
                  [](Shape& s, int n) { s.extra_strings = n - 6; },
                  "more than 9 strings in the string table" + kOver},
        LimitCase{"sample_types", &ProfileLimits::sample_types,
                  [](Shape& s, int n) { s.sample_types = n; }, "more than 9 sample types" + kOver},
        LimitCase{"comments", &ProfileLimits::comments, [](Shape& s, int n) { s.comments = n; },
                  "more than 9 comments" + kOver},
        LimitCase{"mappings", &ProfileLimits::mappings, [](Shape& s, int n) { s.mappings = n; },
                  "more than 9 mappings" + kOver},
        LimitCase{"functions", &ProfileLimits::functions, [](Shape& s, int n) { s.functions = n; },
                  "more than 9 functions" + kOver},
        LimitCase{"locations", &ProfileLimits::locations, [](Shape& s, int n) { s.locations = n; },
                  "more than 9 locations" + kOver},
        LimitCase{"lines", &ProfileLimits::lines,
                  [](Shape& s, int n) {
                    s.locations = 1;
                    s.lines = n;
                  },
                  "more than 9 lines in all locations" + kOver},
        LimitCase{"samples", &ProfileLimits::samples, [](Shape& s, int n) { s.samples = n; },
                  "more than 9 samples" + kOver},
        LimitCase{"values", &ProfileLimits::values, [](Shape& s, int n) { s.samples = n; },
                  "more than 9 values in all samples" + kOver},
        LimitCase{"labels", &ProfileLimits::labels, [](Shape& s, int n) { s.labels = n; },
                  "more than 9 labels in all samples" + kOver},
        LimitCase{"stack_depth", &ProfileLimits::stack_depth, [](Shape& s, int n) { s.depth = n; },
                  "more than 9 frames in one sample" + kOver},
        // Inline frames count: one location id of 10 lines is 10 frames deep.
        LimitCase{"stack_depth_inline", &ProfileLimits::stack_depth,
                  [](Shape& s, int n) { s.lines = n; },
                  "sample 0: more than 9 frames in one sample (inline frames counted)" + kOver},
        LimitCase{"frames", &ProfileLimits::frames, [](Shape& s, int n) { s.samples = n; },
                  "more than 9 frames in all samples" + kOver},
        LimitCase{"frames_inline", &ProfileLimits::frames,
                  [](Shape& s, int n) {
                    s.samples = n / 2;
                    s.lines = 2;
                  },
                  "more than 9 frames in all samples (inline frames counted)" + kOver},
        LimitCase{"unknown_fields", &ProfileLimits::unknown_fields,
                  [](Shape& s, int n) { s.unknown = n; },
                  "more than 9 fields unknown to the format" + kOver}),
    [](const ::testing::TestParamInfo<LimitCase>& param) { return std::string(param.param.name); });

// The bytes of strings copied into the profile, counted per reference: 5
// functions named by one 10-byte string hold 50 bytes, beside the sample
// type's "samples" and "count" (12).
TEST(ReaderLimitsTest, StringBytesCountEachReference) {
  Shape shape;
  shape.functions = 5;
  shape.name_length = 10;
  const std::string bytes = Wire(shape);
  ProfileLimits limits;
  limits.string_bytes = 61;
  EXPECT_EQ(ReadProfile(bytes, limits).status().message(),
            "more than 61 bytes of strings referred to (each reference counted)" + kOver);
  limits.string_bytes = 62;
  EXPECT_TRUE(ReadProfile(bytes, limits).ok());
}

// Unpacked size: raw bytes over the limit, and gzip data that unpacks past
// it (gzip stops there, before holding more).
TEST(ReaderLimitsTest, BytesAfterGzip) {
  Shape shape;
  shape.samples = 1000;
  const std::string bytes = Wire(shape);
  ProfileLimits limits;
  limits.bytes = bytes.size() - 1;
  EXPECT_EQ(ReadProfile(bytes, limits).status().message(),
            "more than " + std::to_string(bytes.size() - 1) + " bytes" + kOver);
  const StatusOr<std::string> packed = encode::GzipCompress(bytes);
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(ReadProfile(*packed, limits).status().message(),
            "gzip: data decompresses to more than " + std::to_string(bytes.size() - 1) +
                " bytes, over the limit");
  limits.bytes = bytes.size();
  EXPECT_TRUE(ReadProfile(bytes, limits).ok());
  EXPECT_TRUE(ReadProfile(*packed, limits).ok());
}

// Fields a message of the format does not have, inside a function, a line
// and a label, or known numbers with the wrong wire type, count as unknown:
// protobuf keeps each.
TEST(ReaderLimitsTest, UnknownFieldsCountInsideEveryMessage) {
  std::string p = Bytes(6, "") + Bytes(6, "samples") + Bytes(6, "count");
  p += Bytes(1, Field(1, 1) + Field(2, 2) + Field(3, 0));            // ValueType has 2 fields
  p += Bytes(5, Field(1, 1) + Field(6, 0));                          // Function has 5
  p += Bytes(4, Field(1, 1) + Bytes(4, Field(1, 1) + Field(4, 0)));  // Line has 3
  p += Bytes(2, Bytes(1, Varint(1)) + Bytes(2, Varint(1)) + Bytes(3, Field(5, 0)));  // Label, 4
  p += Field(6, 0);  // the string table is length-delimited
  ProfileLimits limits;
  limits.unknown_fields = 4;
  EXPECT_EQ(ReadProfile(p, limits).status().message(),
            "more than 4 fields unknown to the format" + kOver);
  limits.unknown_fields = 5;
  EXPECT_TRUE(ReadProfile(p, limits).ok()) << ReadProfile(p, limits).status().message();
}

// A group (wire types 3 and 4): protobuf would keep its contents as unknown
// fields of unknown fields; no profile writer uses them.
TEST(ReaderLimitsTest, GroupsAreRefused) {
  const std::string p = Bytes(6, "") + Varint(20 << 3 | 3) + Field(1, 1) + Varint(20 << 3 | 4);
  EXPECT_EQ(ReadProfile(p).status().message(), "not a pprof profile: uses protobuf groups");
}

// Malformed bytes stay protobuf's to refuse, with its message.
TEST(ReaderLimitsTest, MalformedBytesAreProtobufsToRefuse) {
  EXPECT_EQ(ReadProfile(Bytes(6, "") + "\x32\x05"
                                       "ab")
                .status()
                .message(),
            "not a pprof profile: not a valid protobuf message");
}

// The defaults read a profile of 10,000 distinct stacks (186,066 frames in
// its graph) and the default limits are those documented.
TEST(ReaderLimitsTest, DefaultsReadLargeProfiles) {
  const encode::ProfileData profile = testing::SyntheticCpuProfile(10'000);
  const StatusOr<encode::ProfileData> read = ReadProfile(encode::SerializeProfile(profile));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->samples.size(), 10'000u);
  const ProfileLimits defaults;
  EXPECT_EQ(defaults.bytes, size_t{256} << 20);
  EXPECT_EQ(defaults.strings, 4'000'000u);
  EXPECT_EQ(defaults.samples, 2'000'000u);
  EXPECT_EQ(defaults.frames, 16'000'000u);
  EXPECT_EQ(defaults.stack_depth, 1'000'000u);
}

// ReadProfileFile names the file, and refuses a file larger than the
// unpacked limit before reading it.
TEST(ReaderLimitsTest, ReadProfileFileNamesTheFileAndTheLimit) {
  testing::TempDir dir;
  const std::string path = dir.File("big.pprof");
  {
    std::ofstream out(path, std::ios::binary);
    out.seekp(static_cast<std::streamoff>(encode::kMaxProfileBytes));
    out.put('\0');  // sparse: 256 MiB + 1 byte, none of them written but this
  }
  EXPECT_EQ(flamegraph::ReadProfileFile(path).status().message(),
            path + ": not a readable pprof profile (more than 256 MiB" + kOver + ")");
}

}  // namespace
}  // namespace benchprof
