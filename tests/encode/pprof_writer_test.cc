// The pprof encoder (encode/): ProfileData -> wire bytes / gzip file -> ProfileData
// round trips, the writer's format guarantees (string table, ids, scalars
// written once), validation, and a reader that survives any input.
#include "encode/pprof_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/atomic_file.h"
#include "encode/gzip.h"
#include "encode/pprof_reader.h"
#include "encode/profile_data.h"
#include "profile.pb.h"

namespace benchprof::encode {

using encode::GzipCompress;
using encode::GzipDecompress;
using encode::ProfileData;
using encode::ProfileLabel;
using encode::ProfileLine;
using encode::ProfileLocation;
using encode::ProfileMapping;
using encode::ProfileSample;
using encode::ReadProfile;
using encode::SerializeProfile;
using encode::ValidateProfile;
using encode::WriteProfileFile;

// gtest prints mismatching ProfileData this way instead of as raw bytes.
void PrintTo(const ProfileData& p, std::ostream* os) {
  *os << "\n  sample_types:";
  for (const auto& t : p.sample_types) *os << " " << t.type << "/" << t.unit;
  *os << "\n  period: " << p.period_type.type << "/" << p.period_type.unit << " " << p.period
      << " time " << p.time_nanos << " duration " << p.duration_nanos << " default "
      << p.default_sample_type;
  for (const auto& c : p.comments) *os << "\n  comment: " << c;
  for (const auto& m : p.mappings) {
    *os << "\n  mapping: " << std::hex << m.start << "/" << m.limit << "/" << m.file_offset
        << std::dec << " " << m.filename << " " << m.build_id << " " << m.has_functions
        << m.has_filenames << m.has_line_numbers << m.has_inline_frames;
  }
  for (const auto& l : p.locations) {
    *os << "\n  location: " << std::hex << l.address << std::dec
        << " M=" << (l.mapping_index ? std::to_string(*l.mapping_index) : "-");
    for (const auto& line : l.lines) *os << " F" << line.function_index << ":" << line.line;
  }
  for (const auto& f : p.functions) {
    *os << "\n  function: " << f.name << " " << f.system_name << " " << f.filename << " "
        << f.start_line;
  }
  for (const auto& s : p.samples) {
    *os << "\n  sample:";
    for (int64_t v : s.values) *os << " " << v;
    *os << " @";
    for (size_t l : s.location_indexes) *os << " " << l;
    for (const auto& label : s.labels) {
      *os << " [" << label.key << "=" << label.str << "|" << label.num << label.num_unit << "]";
    }
  }
}

namespace {

namespace pb = ::perftools::profiles;

constexpr int64_t kPeriod = 10'000'000;

ProfileLabel StringLabel(std::string key, std::string value) {
  return {std::move(key), std::move(value), 0, ""};
}

ProfileLabel NumLabel(std::string key, int64_t num, std::string unit) {
  return {std::move(key), "", num, std::move(unit)};
}

ProfileMapping Mapping(uint64_t start, uint64_t limit, uint64_t offset, std::string file,
                       std::string build_id) {
  return {.start = start,
          .limit = limit,
          .file_offset = offset,
          .filename = std::move(file),
          .build_id = std::move(build_id),
          .has_functions = true,
          .has_filenames = true,
          .has_line_numbers = true,
          .has_inline_frames = true};
}

// Go's CPU profile header, two mappings, inline frames innermost first.
ProfileData CpuProfile() {
  ProfileData p;
  p.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  p.period_type = {"cpu", "nanoseconds"};
  p.period = kPeriod;
  p.time_nanos = 1'700'000'000'123'456'789;
  p.duration_nanos = 2'500'000'000;
  p.comments = {"benchprof synthetic CPU profile", "sampled only while timers run"};
  p.mappings = {Mapping(0x555555554000, 0x555555600000, 0x1000, "/nonexistent/prog",
                        "0123456789abcdef0123456789abcdef01234567"),
                Mapping(0x7ffff7c00000, 0x7ffff7d80000, 0x28000, "/nonexistent/libc.so.6",
                        "fedcba9876543210")};
  p.functions = {
      {"BM_Foo", "_Z6BM_FooRN9benchmark5StateE", "/src/bench/foo.cc", 40},
      {"Square", "_Z6Squarel", "/src/bench/foo.cc", 12},
      {"Cold", "_Z4Coldv", "/src/bench/cold.cc", 7},
      {"main", "main", "/src/bench/main.cc", 3},
      {"memcpy", "memcpy", "", 0},
  };
  p.locations = {
      // Square inlined into BM_Foo: the callee first.
      {.address = 0x555555555123, .mapping_index = 0, .lines = {{1, 13}, {0, 45}}},
      {.address = 0x555555555200, .mapping_index = 0, .lines = {{2, 9}}},
      {.address = 0x555555555300, .mapping_index = 0, .lines = {{3, 5}}},
      {.address = 0x7ffff7c31234, .mapping_index = 1, .lines = {{4, 0}}},
      // Unsymbolized and outside every mapping, e.g. JIT code.
      {.address = 0x1234, .mapping_index = std::nullopt, .lines = {}},
  };
  const ProfileLabel foo = StringLabel("benchmark", "BM_Foo/8/threads:2");
  const ProfileLabel threads = NumLabel("threads", 2, "threads");
  p.samples = {
      {{0, 2}, {3, 3 * kPeriod}, {foo, threads}},
      {{1, 2}, {1, kPeriod}, {StringLabel("benchmark", "BM_Bar"), NumLabel("threads", 1, "")}},
      {{3, 0, 2}, {2, 2 * kPeriod}, {foo, threads, NumLabel("attempt", 0, "count")}},
      {{4}, {1, kPeriod}, {}},
  };
  return p;
}

// Go's allocs profile header (what `go test -memprofile` writes).
ProfileData HeapProfile() {
  ProfileData p;
  p.sample_types = {
      {"alloc_objects", "count"},
      {"alloc_space", "bytes"},
      {"inuse_objects", "count"},
      {"inuse_space", "bytes"},
  };
  p.period_type = {"space", "bytes"};
  p.period = 524288;
  p.default_sample_type = "alloc_space";
  p.mappings = {Mapping(0x400000, 0x480000, 0, "/nonexistent/heap_bench", "aa55")};
  p.functions = {{"operator new", "_Znwm", "", 0}, {"Grow", "_Z4Growv", "/src/grow.cc", 20}};
  p.locations = {{0x401000, 0, {{0, 0}}}, {0x402000, 0, {{1, 25}}}};
  p.samples = {
      {{0, 1}, {100, 6400, 10, 640}, {NumLabel("bytes", 64, "bytes")}},
      {{0, 1}, {1, 1 << 20, 0, 0}, {NumLabel("bytes", 1 << 20, "bytes")}},
  };
  return p;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

pb::Profile ParseMessage(const std::string& bytes) {
  pb::Profile message;
  EXPECT_TRUE(message.ParseFromString(bytes));
  return message;
}

// Top-level field numbers in wire order (the writer never uses groups).
std::vector<int> TopLevelFields(std::string_view bytes) {
  size_t pos = 0;
  auto varint = [&]() -> uint64_t {
    uint64_t value = 0;
    for (int shift = 0; pos < bytes.size() && shift < 64; shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes[pos++]);
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) break;
    }
    return value;
  };
  std::vector<int> fields;
  while (pos < bytes.size()) {
    const uint64_t tag = varint();
    fields.push_back(static_cast<int>(tag >> 3));
    switch (tag & 7) {
      case 0:
        varint();
        break;
      case 1:
        pos += 8;
        break;
      case 2:
        pos += varint();
        break;
      case 5:
        pos += 4;
        break;
      default:
        ADD_FAILURE() << "unexpected wire type " << (tag & 7);
        return fields;
    }
  }
  return fields;
}

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A parameterised test's name has a '/': one directory, not two.
    std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test_name.begin(), test_name.end(), '/', '-');
    dir_ = std::filesystem::temp_directory_path() /
           ("benchprof-pprof-" + std::to_string(getpid()) + "-" + test_name);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

// ---- round trips ----

TEST(PprofRoundTripTest, CpuProfileThroughSerializedBytes) {
  const ProfileData original = CpuProfile();
  ASSERT_TRUE(ValidateProfile(original).ok()) << ValidateProfile(original).message();
  StatusOr<ProfileData> read = ReadProfile(SerializeProfile(original));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, original);
}

TEST(PprofRoundTripTest, HeapProfileThroughSerializedBytes) {
  const ProfileData original = HeapProfile();
  StatusOr<ProfileData> read = ReadProfile(SerializeProfile(original));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, original);
  EXPECT_EQ(read->default_sample_type, "alloc_space");
}

TEST(PprofRoundTripTest, EmptyProfile) {
  StatusOr<ProfileData> read = ReadProfile(SerializeProfile(ProfileData{}));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, ProfileData{});
}

TEST_F(TempDirTest, CpuAndHeapProfilesThroughGzipFiles) {
  for (const ProfileData& original : {CpuProfile(), HeapProfile()}) {
    StatusOr<AtomicFile> out = AtomicFile::Create(File("profile.pb.gz"));
    ASSERT_TRUE(out.ok()) << out.status().message();
    const Status written = WriteProfileFile(original, out->temp_path());
    ASSERT_TRUE(written.ok()) << written.message();
    ASSERT_TRUE(out->Commit().ok());

    const std::string bytes = ReadWholeFile(File("profile.pb.gz"));
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
    StatusOr<ProfileData> read = ReadProfile(bytes);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, original);

    StatusOr<std::string> raw = GzipDecompress(bytes);
    ASSERT_TRUE(raw.ok()) << raw.status().message();
    EXPECT_EQ(*raw, SerializeProfile(original));
  }
}

TEST(PprofRoundTripTest, StringsNeedNotBeUtf8) {
  // pprof takes strings as bytes; file systems allow any bytes but '/' and NUL.
  ProfileData p = CpuProfile();
  p.functions[2].filename = "/src/caf\xe9/cold.cc";
  p.samples[1].labels[0].str = std::string("BM_\xff\x00Bar", 7);
  StatusOr<ProfileData> read = ReadProfile(SerializeProfile(p));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, p);
}

TEST(PprofRoundTripTest, SerializationIsDeterministic) {
  EXPECT_EQ(SerializeProfile(CpuProfile()), SerializeProfile(CpuProfile()));
}

// ---- what the writer guarantees about the format ----

TEST(PprofWriterTest, StringTableStartsEmptyAndHoldsEachStringOnce) {
  const pb::Profile message = ParseMessage(SerializeProfile(CpuProfile()));
  ASSERT_GT(message.string_table_size(), 0);
  EXPECT_EQ(message.string_table(0), "");
  std::map<std::string, int> count;
  for (const std::string& s : message.string_table()) ++count[s];
  for (const auto& [s, n] : count) EXPECT_EQ(n, 1) << '"' << s << '"';
  // Strings used many times: in two samples, in two functions, in both the
  // sample types and the period type.
  for (const char* s :
       {"BM_Foo/8/threads:2", "benchmark", "threads", "/src/bench/foo.cc", "cpu", "nanoseconds"}) {
    EXPECT_EQ(count[s], 1) << s;
  }
  // main's name and system name are the same string: one entry.
  EXPECT_EQ(count["main"], 1);
  EXPECT_EQ(message.function(3).name(), message.function(3).system_name());
}

TEST(PprofWriterTest, IdsAreIndexPlusOneAndNeverZero) {
  const ProfileData p = CpuProfile();
  const pb::Profile message = ParseMessage(SerializeProfile(p));
  ASSERT_EQ(message.mapping_size(), 2);
  ASSERT_EQ(message.location_size(), 5);
  ASSERT_EQ(message.function_size(), 5);
  for (int i = 0; i < message.mapping_size(); ++i) EXPECT_EQ(message.mapping(i).id(), i + 1u);
  for (int i = 0; i < message.function_size(); ++i) EXPECT_EQ(message.function(i).id(), i + 1u);
  for (int i = 0; i < message.location_size(); ++i) {
    const pb::Location& l = message.location(i);
    EXPECT_EQ(l.id(), i + 1u);
    EXPECT_EQ(l.mapping_id(), p.locations[i].mapping_index ? *p.locations[i].mapping_index + 1 : 0);
    for (const pb::Line& line : l.line()) EXPECT_NE(line.function_id(), 0u);
  }
  EXPECT_EQ(message.location(0).line(0).function_id(), 2u);  // Square, the inlined callee
  EXPECT_EQ(message.location(0).line(1).function_id(), 1u);  // BM_Foo, which holds it
  for (const pb::Sample& s : message.sample()) {
    for (uint64_t id : s.location_id()) EXPECT_NE(id, 0u);
  }
  EXPECT_EQ(message.sample(0).location_id(0), 1u);  // leaf first
}

TEST(PprofWriterTest, EveryScalarIsWrittenOnce) {
  std::map<int, int> count;
  for (int field : TopLevelFields(SerializeProfile(CpuProfile()))) ++count[field];
  for (int field : {9, 10, 11, 12}) EXPECT_EQ(count[field], 1) << "field " << field;
  for (int field : {7, 8, 14, 15}) EXPECT_LE(count[field], 1) << "field " << field;
  count.clear();
  for (int field : TopLevelFields(SerializeProfile(HeapProfile()))) ++count[field];
  EXPECT_EQ(count[14], 1);
}

TEST(PprofWriterTest, LabelsUsePprofsEncoding) {
  const pb::Profile message = ParseMessage(SerializeProfile(CpuProfile()));
  auto str = [&](int64_t i) { return message.string_table(static_cast<int>(i)); };
  const pb::Sample& s = message.sample(0);
  ASSERT_EQ(s.label_size(), 2);
  EXPECT_EQ(str(s.label(0).key()), "benchmark");
  EXPECT_EQ(str(s.label(0).str()), "BM_Foo/8/threads:2");
  EXPECT_EQ(s.label(0).num_unit(), 0);
  EXPECT_EQ(str(s.label(1).key()), "threads");
  EXPECT_EQ(s.label(1).str(), 0);
  EXPECT_EQ(s.label(1).num(), 2);
  EXPECT_EQ(str(s.label(1).num_unit()), "threads");
}

// ---- validation ----

struct InvalidCase {
  const char* name;
  void (*mutate)(ProfileData&);
  const char* message_part;
};

class ValidationTest : public TempDirTest, public ::testing::WithParamInterface<InvalidCase> {};

TEST_P(ValidationTest, RejectsWithOneLineAndWritesNothing) {
  ProfileData p = CpuProfile();
  GetParam().mutate(p);
  const Status valid = ValidateProfile(p);
  ASSERT_FALSE(valid.ok());
  EXPECT_NE(valid.message().find(GetParam().message_part), std::string::npos) << valid.message();
  EXPECT_EQ(valid.message().find('\n'), std::string::npos) << valid.message();

  const Status written = WriteProfileFile(p, File("out.pb.gz"));
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find(valid.message()), std::string::npos) << written.message();
  EXPECT_FALSE(std::filesystem::exists(File("out.pb.gz")));
}

INSTANTIATE_TEST_SUITE_P(
    PprofWriter, ValidationTest,
    ::testing::Values(
        InvalidCase{"SamplesWithoutSampleTypes",
                    [](ProfileData& p) {
                      p.sample_types.clear();
                      for (auto& s : p.samples) s.values.clear();
                    },
                    "samples but no sample types"},
        InvalidCase{"TooFewValues", [](ProfileData& p) { p.samples[1].values.pop_back(); },
                    "sample 1 has 1 values but the profile has 2 sample types"},
        InvalidCase{"TooManyValues", [](ProfileData& p) { p.samples[0].values.push_back(7); },
                    "sample 0 has 3 values"},
        InvalidCase{"LocationIndexOutOfRange",
                    [](ProfileData& p) { p.samples[2].location_indexes.push_back(5); },
                    "sample 2: location index 5 out of range (5 locations)"},
        InvalidCase{"MappingIndexOutOfRange",
                    [](ProfileData& p) { p.locations[1].mapping_index = 2; },
                    "location 1: mapping index 2 out of range (2 mappings)"},
        InvalidCase{"FunctionIndexOutOfRange",
                    [](ProfileData& p) { p.locations[0].lines[1].function_index = 9; },
                    "location 0: function index 9 out of range (5 functions)"},
        InvalidCase{"LabelWithNoValue",
                    [](ProfileData& p) {
                      p.samples[0].labels.push_back({"iter", "", 0, ""});
                    },
                    "label \"iter\": empty string, number 0 and no unit"},
        InvalidCase{"LabelWithEmptyStringValue",
                    [](ProfileData& p) { p.samples[3].labels.push_back(StringLabel("k", "")); },
                    "sample 3, label \"k\": empty string, number 0 and no unit"},
        InvalidCase{"LabelWithStringAndNumber",
                    [](ProfileData& p) { p.samples[0].labels[0].num = 4; },
                    "has both a string and a numeric value"},
        InvalidCase{"LabelWithStringAndUnit",
                    [](ProfileData& p) { p.samples[0].labels[0].num_unit = "bytes"; },
                    "has both a string and a numeric value"},
        InvalidCase{"LabelWithEmptyKey", [](ProfileData& p) { p.samples[0].labels[0].key.clear(); },
                    "label with an empty key"},
        InvalidCase{"LabelWithReservedKey",
                    [](ProfileData& p) { p.samples[0].labels[0].key = "pprof::base"; }, "reserved"},
        InvalidCase{"UnknownDefaultSampleType",
                    [](ProfileData& p) { p.default_sample_type = "alloc_space"; },
                    "default sample type \"alloc_space\" is not one of the sample types"}),
    [](const ::testing::TestParamInfo<InvalidCase>& param_info) { return param_info.param.name; });

TEST(PprofValidationTest, AcceptsNumericLabelZeroWithAUnitAndEmptyTables) {
  ProfileData p = CpuProfile();
  p.samples[0].labels.push_back(NumLabel("iter", 0, "count"));
  EXPECT_TRUE(ValidateProfile(p).ok());
  // No samples: sample types may be empty; a sample with no stack is fine.
  EXPECT_TRUE(ValidateProfile(ProfileData{}).ok());
  p.samples[0].location_indexes.clear();
  EXPECT_TRUE(ValidateProfile(p).ok());
}

TEST_F(TempDirTest, WriteReportsAnUnwritablePath) {
  const Status written = WriteProfileFile(CpuProfile(), File("missing-dir/out.pb.gz"));
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find("missing-dir/out.pb.gz: cannot open"), std::string::npos)
      << written.message();
}

// ---- reader errors ----

std::string Serialize(const pb::Profile& message) { return message.SerializeAsString(); }

pb::Profile ValidMessage() { return ParseMessage(SerializeProfile(CpuProfile())); }

void ExpectReadError(const std::string& bytes, const std::string& message_part) {
  StatusOr<ProfileData> read = ReadProfile(bytes);
  ASSERT_FALSE(read.ok()) << "expected an error containing: " << message_part;
  EXPECT_NE(read.status().message().find(message_part), std::string::npos)
      << read.status().message();
  EXPECT_EQ(read.status().message().find('\n'), std::string::npos) << read.status().message();
}

TEST(PprofReaderTest, RejectsEmptyInput) {
  ExpectReadError("", "empty input");
  StatusOr<std::string> empty_gzip = GzipCompress("");
  ASSERT_TRUE(empty_gzip.ok());
  ExpectReadError(*empty_gzip, "empty profile inside the gzip data");
}

TEST(PprofReaderTest, RejectsCorruptGzip) {
  // A well-formed header, then a deflate block of the reserved type 3.
  ExpectReadError(std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x07garbage", 18),
                  "gzip: corrupt data (invalid block type)");
  ExpectReadError(std::string("\x1f\x8b", 2), "gzip: truncated");
  StatusOr<std::string> gz = GzipCompress(SerializeProfile(CpuProfile()));
  ASSERT_TRUE(gz.ok());
  std::string bad_crc = *gz;
  bad_crc[bad_crc.size() - 6] ^= 0x40;  // inside the CRC-32 trailer
  ExpectReadError(bad_crc, "gzip: corrupt");
  ExpectReadError(*gz + "trailing", "gzip: 8 bytes of trailing garbage");
}

TEST(PprofReaderTest, RejectsBytesThatAreNotAProfile) {
  ExpectReadError("this is not a profile\n", "not a pprof profile");
  ExpectReadError(std::string("\xff\xff\xff", 3), "not a pprof profile");
  // A valid protobuf message, but with no string table.
  ExpectReadError(std::string("\x60\x05", 2), "not a pprof profile: no string table");
}

TEST(PprofReaderTest, RejectsStringTableWithoutEmptyFirstString) {
  pb::Profile m = ValidMessage();
  m.set_string_table(0, "x");
  ExpectReadError(Serialize(m), "string_table[0] must be \"\"");
}

TEST(PprofReaderTest, RejectsIdZero) {
  {
    pb::Profile m = ValidMessage();
    m.mutable_mapping(1)->set_id(0);
    ExpectReadError(Serialize(m), "mapping 1 has id 0, which is reserved");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_location(2)->set_id(0);
    ExpectReadError(Serialize(m), "location 2 has id 0, which is reserved");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_function(0)->set_id(0);
    ExpectReadError(Serialize(m), "function 0 has id 0, which is reserved");
  }
}

TEST(PprofReaderTest, RejectsDuplicateIds) {
  {
    pb::Profile m = ValidMessage();
    m.mutable_mapping(1)->set_id(1);
    ExpectReadError(Serialize(m), "duplicate mapping id 1");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_location(4)->set_id(2);
    ExpectReadError(Serialize(m), "duplicate location id 2");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_function(3)->set_id(2);
    ExpectReadError(Serialize(m), "duplicate function id 2");
  }
}

TEST(PprofReaderTest, RejectsDanglingIds) {
  {
    pb::Profile m = ValidMessage();
    m.mutable_location(0)->set_mapping_id(9);
    ExpectReadError(Serialize(m), "location id 1: mapping id 9 does not exist");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_location(1)->mutable_line(0)->set_function_id(77);
    ExpectReadError(Serialize(m), "location id 2: function id 77 does not exist");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_location(1)->mutable_line(0)->set_function_id(0);
    ExpectReadError(Serialize(m), "location id 2: function id 0 does not exist");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_sample(2)->set_location_id(1, 6);
    ExpectReadError(Serialize(m), "sample 2: location id 6 does not exist");
  }
  {
    pb::Profile m = ValidMessage();
    m.mutable_sample(0)->add_location_id(0);
    ExpectReadError(Serialize(m), "sample 0: location id 0 does not exist");
  }
}

TEST(PprofReaderTest, RejectsStringIndexesOutOfRange) {
  const pb::Profile valid = ValidMessage();
  const std::string size = std::to_string(valid.string_table_size());
  const int64_t past_end = valid.string_table_size();
  struct Case {
    void (*mutate)(pb::Profile&, int64_t);
    std::string message;
  };
  const std::vector<Case> cases = {
      {[](pb::Profile& m, int64_t i) { m.mutable_function(2)->set_name(i); }, "function id 3"},
      {[](pb::Profile& m, int64_t i) { m.mutable_function(2)->set_filename(i); }, "function id 3"},
      {[](pb::Profile& m, int64_t i) { m.mutable_mapping(0)->set_build_id(i); }, "mapping id 1"},
      {[](pb::Profile& m, int64_t i) { m.mutable_sample_type(1)->set_unit(i); }, "sample type 1"},
      {[](pb::Profile& m, int64_t i) { m.mutable_period_type()->set_type(i); }, "period type"},
      {[](pb::Profile& m, int64_t i) { m.set_comment(1, i); }, "comment 1"},
      {[](pb::Profile& m, int64_t i) { m.set_default_sample_type(i); }, "default sample type"},
      {[](pb::Profile& m, int64_t i) { m.mutable_sample(0)->mutable_label(0)->set_key(i); },
       "sample 0 label 0"},
      {[](pb::Profile& m, int64_t i) { m.mutable_sample(0)->mutable_label(0)->set_str(i); },
       "sample 0 label 0"},
      {[](pb::Profile& m, int64_t i) { m.mutable_sample(0)->mutable_label(1)->set_num_unit(i); },
       "sample 0 label 1"},
  };
  for (const Case& c : cases) {
    for (int64_t index : {past_end, int64_t{-1}}) {
      pb::Profile m = valid;
      c.mutate(m, index);
      ExpectReadError(Serialize(m), c.message + ": string index " + std::to_string(index) +
                                        " out of range (" + size + " strings)");
    }
  }
}

TEST(PprofReaderTest, RejectsSamplesThatDoNotMatchTheSampleTypes) {
  {
    pb::Profile m = ValidMessage();
    m.mutable_sample(1)->add_value(5);
    ExpectReadError(Serialize(m), "sample 1 has 3 values but the profile has 2 sample types");
  }
  {
    pb::Profile m = ValidMessage();
    m.clear_sample_type();
    ExpectReadError(Serialize(m), "samples but no sample types");
  }
}

TEST(PprofReaderTest, RejectsConcatenatedProfiles) {
  const std::string one = SerializeProfile(CpuProfile());
  ExpectReadError(one + one, "concatenated profiles");
  // The same through gzip: gzip members are read back to back.
  StatusOr<std::string> gz = GzipCompress(one);
  ASSERT_TRUE(gz.ok());
  ExpectReadError(*gz + *gz, "concatenated profiles");
}

TEST(PprofReaderTest, DropsLabelsPprofDropsAndKeepsReservedKeys) {
  pb::Profile m = ValidMessage();
  const int64_t key = m.string_table_size();
  m.add_string_table("empty");
  m.add_string_table("pprof::base");
  m.mutable_sample(3)->add_label()->set_key(key);  // no str, num or unit
  pb::Label* base = m.mutable_sample(3)->add_label();
  base->set_key(key + 1);
  base->set_str(key);
  StatusOr<ProfileData> read = ReadProfile(Serialize(m));
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->samples[3].labels.size(), 1u);
  EXPECT_EQ(read->samples[3].labels[0], StringLabel("pprof::base", "empty"));
}

TEST(PprofReaderTest, ReadsMultiMemberGzip) {
  const std::string raw = SerializeProfile(CpuProfile());
  StatusOr<std::string> head = GzipCompress(raw.substr(0, raw.size() / 2));
  StatusOr<std::string> tail = GzipCompress(raw.substr(raw.size() / 2));
  ASSERT_TRUE(head.ok() && tail.ok());
  StatusOr<ProfileData> read = ReadProfile(*head + *tail);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, CpuProfile());
}

// ---- robustness: any input gives a value or an error, never a crash ----

TEST(PprofReaderRobustnessTest, TruncatedGzipIsAlwaysAnError) {
  StatusOr<std::string> gz = GzipCompress(SerializeProfile(CpuProfile()));
  ASSERT_TRUE(gz.ok());
  for (size_t n = 1; n < gz->size(); ++n) {
    StatusOr<ProfileData> read = ReadProfile(std::string_view(*gz).substr(0, n));
    EXPECT_FALSE(read.ok()) << "prefix of " << n << " bytes";
  }
}

TEST(PprofReaderRobustnessTest, TruncatedRawBytesNeverCrash) {
  const std::string raw = SerializeProfile(HeapProfile()) + SerializeProfile(CpuProfile());
  size_t values = 0;
  for (size_t n = 0; n <= raw.size(); ++n) {
    values += ReadProfile(std::string_view(raw).substr(0, n)).ok();
  }
  // Some prefixes are whole messages (e.g. the heap profile alone).
  EXPECT_GT(values, 0u);
}

TEST(PprofReaderRobustnessTest, FlippedBytesNeverCrash) {
  const std::string raw = SerializeProfile(CpuProfile());
  StatusOr<std::string> gz = GzipCompress(raw);
  ASSERT_TRUE(gz.ok());
  const std::string& gzipped = *gz;
  size_t errors = 0;
  for (const std::string* input : {&raw, &gzipped}) {
    for (size_t i = 0; i < input->size(); ++i) {
      for (unsigned char mask : {0x01, 0x80, 0xff}) {
        std::string bytes = *input;
        bytes[i] = static_cast<char>(static_cast<unsigned char>(bytes[i]) ^ mask);
        errors += !ReadProfile(bytes).ok();
      }
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(PprofReaderRobustnessTest, RandomMutationsNeverCrash) {
  const std::string raw = SerializeProfile(CpuProfile());
  std::mt19937 rng(20240611);  // fixed: a failure must be reproducible
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = raw;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 3) {
        case 0:
          bytes[at] = static_cast<char>(rng());
          break;
        case 1:
          bytes.erase(at, 1 + rng() % 16);
          break;
        default:
          bytes.insert(at, 1 + rng() % 4, static_cast<char>(rng()));
          break;
      }
      if (bytes.empty()) bytes = "x";
    }
    StatusOr<ProfileData> read = ReadProfile(bytes);
    if (read.ok()) {
      // Whatever was read is internally consistent: indexes are in range.
      for (const ProfileSample& s : read->samples) {
        ASSERT_EQ(s.values.size(), read->sample_types.size());
        for (size_t l : s.location_indexes) ASSERT_LT(l, read->locations.size());
      }
      for (const ProfileLocation& l : read->locations) {
        if (l.mapping_index) {
          ASSERT_LT(*l.mapping_index, read->mappings.size());
        }
        for (const ProfileLine& line : l.lines)
          ASSERT_LT(line.function_index, read->functions.size());
      }
    }
  }
}

// ---- gzip ----

TEST(GzipTest, RoundTripsAndUsesTheFastestLevel) {
  std::string big;
  std::mt19937 rng(7);
  for (int i = 0; i < 300'000; ++i) big += "frame" + std::to_string(rng() % 1000) + ";";
  for (const std::string& data : {std::string(), std::string("x"), big}) {
    StatusOr<std::string> gz = GzipCompress(data);
    ASSERT_TRUE(gz.ok()) << gz.status().message();
    ASSERT_GE(gz->size(), 18u);
    EXPECT_EQ(gz->substr(0, 3), "\x1f\x8b\x08");
    // XFL = 4: "compressor used the fastest algorithm" (RFC 1952).
    EXPECT_EQ((*gz)[8], 4);
    StatusOr<std::string> back = GzipDecompress(*gz);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, data);
  }
}

TEST(GzipTest, DecompressionIsCapped) {
  StatusOr<std::string> gz = GzipCompress(std::string(1 << 20, 'a'));
  ASSERT_TRUE(gz.ok());
  StatusOr<std::string> capped = GzipDecompress(*gz, 1000);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(capped.status().message(), "gzip: data decompresses to more than 1000 bytes, over the limit");
  EXPECT_TRUE(GzipDecompress(*gz, 1 << 20).ok());
}

TEST(GzipTest, RejectsEmptyAndNonGzipInput) {
  EXPECT_EQ(GzipDecompress("").status().message(), "gzip: empty input");
  EXPECT_FALSE(GzipDecompress("plain text").ok());
}

}  // namespace
}  // namespace benchprof::encode
