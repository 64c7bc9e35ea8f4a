// The testbed identity from stable facts only (testbed.h).
#include "tools/history/testbed.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/subprocess.h"

namespace benchprof::history {
namespace {

using benchprof::testing::TempDir;

void Write(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
}

std::string CpuInfo(const std::string& mhz, const std::string& bogomips,
                    const std::string& model = "Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz") {
  std::string text;
  for (int cpu = 0; cpu < 2; ++cpu) {
    text += "processor\t: " + std::to_string(cpu) + "\nvendor_id\t: GenuineIntel\nmodel name\t: " +
            model + "\ncpu MHz\t\t: " + mhz + "\nbogomips\t: " + bogomips + "\n\n";
  }
  return text;
}

TEST(TestbedTest, FrequenciesDoNotChangeTheIdentity) {
  TempDir dir;
  Write(dir.File("cpu1"), CpuInfo("2600.000", "5200.00"));
  Write(dir.File("cpu2"), CpuInfo("1199.874", "5187.31"));
  Write(dir.File("mem1"), "MemTotal:       16314464 kB\nMemFree:  1000 kB\n");
  Write(dir.File("mem2"), "MemTotal:       16314212 kB\nMemFree:  9999 kB\n");  // another boot
  Write(dir.File("os"), "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"
                        "VERSION_ID=\"12\"\n");
  MachineFiles a{dir.File("cpu1"), dir.File("mem1"), dir.File("os"), "6.1.0-18-amd64", 8};
  MachineFiles b{dir.File("cpu2"), dir.File("mem2"), dir.File("os"), "6.1.0-25-amd64", 8};
  const Facts fa = ReadMachineFacts(a), fb = ReadMachineFacts(b);
  EXPECT_EQ(fa, (Facts{{"cores", "8"},
                       {"cpu_model", "Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz"},
                       {"kernel", "6.1"},
                       {"memory", "16 GiB"},
                       {"os", "debian 12"}}));
  EXPECT_EQ(fa, fb);
  const std::vector<std::pair<std::string, std::string>> context1 = {
      {"date", "2024-01-01"}, {"mhz_per_cpu", "2600"}, {"library_version", "v1.9.1"},
      {"library_build_type", "release"}};
  const std::vector<std::pair<std::string, std::string>> context2 = {
      {"date", "2024-02-02"}, {"mhz_per_cpu", "1200"}, {"library_version", "v1.9.1"},
      {"library_build_type", "release"}};
  const TestbedIdentity ta = MakeTestbed(fa, context1, ""), tb = MakeTestbed(fb, context2, "");
  EXPECT_EQ(ta.fingerprint, tb.fingerprint);
  EXPECT_EQ(ta.name, tb.name);
  EXPECT_EQ(ta.name, "8c-xeon-e5-2690-v4-" + ta.fingerprint.substr(0, 8));
  EXPECT_EQ(ta.fingerprint.size(), 16u);

  // What does change it: the build, the CPU, the core count.
  EXPECT_NE(MakeTestbed(fa, {{"library_build_type", "debug"}}, "").fingerprint, ta.fingerprint);
  Write(dir.File("cpu3"), CpuInfo("2600.000", "5200.00", "AMD EPYC 7B13 64-Core Processor"));
  MachineFiles c = a;
  c.cpuinfo = dir.File("cpu3");
  const TestbedIdentity tc = MakeTestbed(ReadMachineFacts(c), context1, "");
  EXPECT_NE(tc.fingerprint, ta.fingerprint);
  EXPECT_EQ(tc.name.substr(0, 18), "8c-epyc-7b13-64-co");
  // A given name is used as it is, with the same fingerprint.
  const TestbedIdentity named = MakeTestbed(fa, context1, "ci-large");
  EXPECT_EQ(named.name, "ci-large");
  EXPECT_EQ(named.fingerprint, ta.fingerprint);
}

TEST(TestbedTest, MissingFilesLeaveFactsOut) {
  MachineFiles none{"/nonexistent/cpuinfo", "/nonexistent/meminfo", "/nonexistent/os", "x", 4};
  EXPECT_EQ(ReadMachineFacts(none), (Facts{{"cores", "4"}}));
  EXPECT_EQ(MakeTestbed(ReadMachineFacts(none), {}, "").name.substr(0, 7), "4c-cpu-");
}

TEST(TestbedTest, Fnv1a64) {
  EXPECT_EQ(Fnv1a64Hex(""), "cbf29ce484222325");
  EXPECT_EQ(Fnv1a64Hex("a"), "af63dc4c8601ec8c");
}

}  // namespace
}  // namespace benchprof::history
