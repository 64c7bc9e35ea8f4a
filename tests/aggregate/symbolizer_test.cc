#include "aggregate/symbolizer.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "aggregate/elf_symbol_table.h"
#include "aggregate/function_name.h"
#include "aggregate/inline_index.h"
#include "aggregate/module_map.h"
#include "aggregate/object_file.h"

// Functions at known lines, symbolized by the tests below. This file is
// compiled -O2 -g like the benchmarks. RecordCaller() notes the address of
// the call instruction that called it (return address - 1, as the profilers
// pass callers) and the source line that call is on.
namespace benchprof::symbolizer_test_targets {

using aggregate::FindModule;
using aggregate::FunctionNameFromDemangled;
using aggregate::LoadedModule;
using aggregate::LoadedModules;
using aggregate::ModuleSymbolQuality;
using aggregate::ShortFunctionName;
using aggregate::SymbolizedFrame;
using aggregate::Symbolizer;
using aggregate::WithoutCloneSuffix;

uint64_t g_caller_pc = 0;
int g_caller_line = 0;
volatile int g_sink = 0;

[[gnu::noipa]] int RecordCaller(int value, int line) {
  g_caller_pc =
      reinterpret_cast<uint64_t>(__builtin_extract_return_addr(__builtin_return_address(0))) - 1;
  g_caller_line = line;
  return value + g_sink;
}

// Each k*DeclLine names the line of the function header right below it.
constexpr int kNoinlineDeclLine = __LINE__ + 1;
[[gnu::noipa]] int NoinlineFunction(int x) {
  const int y = RecordCaller(x, __LINE__);
  return y * 3 + g_sink;
}

constexpr int kInlinedDeclLine = __LINE__ + 1;
[[gnu::always_inline]] inline int InlinedFunction(int x) {
  const int y = RecordCaller(x, __LINE__);
  return y * y + g_sink;
}

constexpr int kOuterDeclLine = __LINE__ + 1;
[[gnu::noipa]] int OuterFunction(int x) {
  const int y = InlinedFunction(x + 1);  // the line after kOuterDeclLine
  return y + 1;
}
constexpr int kInlineSiteLine = kOuterDeclLine + 1;

constexpr int kTemplateDeclLine = __LINE__ + 2;
template <typename T>
[[gnu::noipa]] T TemplateFunction(T x) {
  return static_cast<T>(RecordCaller(static_cast<int>(x), __LINE__)) * 2 + g_sink;
}

struct Version {
  int major;
  [[gnu::noipa]] bool operator<(const Version& other) const {
    return RecordCaller(major, __LINE__) < other.major + g_sink;
  }
};

[[gnu::noipa]] int CallLambda(int x) {
  auto lambda = [](int v) __attribute__((noipa)) { return RecordCaller(v, __LINE__) + 1; };
  return lambda(x) * 2 + g_sink;
}

}  // namespace benchprof::symbolizer_test_targets

namespace {

constexpr int kAnonymousDeclLine = __LINE__ + 1;
[[gnu::noipa]] int AnonymousFunction(int x) {
  return benchprof::symbolizer_test_targets::RecordCaller(x, __LINE__) - 1;
}

}  // namespace

namespace benchprof::aggregate {
namespace {

using namespace symbolizer_test_targets;

uint64_t AddressOf(const void* p) { return reinterpret_cast<uint64_t>(p); }

// The section headers of an ELF file, read without libelf or libdw.
struct ElfFile {
  std::string bytes;
  std::vector<Elf64_Shdr> sections;
  std::string_view section_names;

  explicit ElfFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof(Elf64_Ehdr)) return;
    Elf64_Ehdr ehdr;
    std::memcpy(&ehdr, bytes.data(), sizeof(ehdr));
    sections.resize(ehdr.e_shnum);
    for (int i = 0; i < ehdr.e_shnum; ++i) {
      std::memcpy(&sections[i], bytes.data() + ehdr.e_shoff + i * sizeof(Elf64_Shdr),
                  sizeof(Elf64_Shdr));
    }
    if (ehdr.e_shstrndx < sections.size()) {
      const Elf64_Shdr& names = sections[ehdr.e_shstrndx];
      section_names = std::string_view(bytes).substr(names.sh_offset, names.sh_size);
    }
  }

  const Elf64_Shdr* Section(std::string_view name) const {
    for (const Elf64_Shdr& section : sections) {
      if (section.sh_name < section_names.size() &&
          std::string_view(section_names.data() + section.sh_name) == name) {
        return &section;
      }
    }
    return nullptr;
  }
};

// Reads NT_GNU_BUILD_ID from the file's section headers, independently of
// LoadedModules(), which reads program headers in memory.
std::string BuildIdFromFile(const std::string& path) {
  const ElfFile file(path);
  for (const Elf64_Shdr& shdr : file.sections) {
    if (shdr.sh_type != SHT_NOTE) continue;
    for (size_t offset = shdr.sh_offset;
         offset + sizeof(Elf64_Nhdr) <= shdr.sh_offset + shdr.sh_size;) {
      Elf64_Nhdr note;
      std::memcpy(&note, file.bytes.data() + offset, sizeof(note));
      const size_t name = offset + sizeof(note);
      const size_t desc = name + ((note.n_namesz + 3) & ~3u);
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(file.bytes.data() + name, "GNU", 4) == 0) {
        std::string hex;
        for (size_t b = 0; b < note.n_descsz; ++b) {
          char digits[3];
          std::snprintf(digits, sizeof(digits), "%02x",
                        static_cast<unsigned char>(file.bytes[desc + b]));
          hex += digits;
        }
        return hex;
      }
      offset = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return "";
}

std::string SelfExe() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer));
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
}

// qsort in libc itself: under ASan, dlsym(RTLD_DEFAULT) finds the
// sanitizer's interceptor first.
uint64_t LibcQsort() {
  void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  const uint64_t address = libc == nullptr ? 0 : AddressOf(dlsym(libc, "qsort"));
  if (libc != nullptr) dlclose(libc);
  return address;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

const LoadedModule* ModuleNamed(const std::vector<LoadedModule>& modules, std::string_view suffix) {
  for (const LoadedModule& module : modules) {
    if (EndsWith(module.path, suffix)) return &module;
  }
  return nullptr;
}

// Whether a separate debug file for `build_id` is installed, in which case
// the library's addresses get files and lines as well.
bool HasDebugFile(const std::string& build_id) {
  if (build_id.size() < 3) return false;
  const std::string path =
      "/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + ".debug";
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

std::string Describe(const std::vector<SymbolizedFrame>& frames) {
  std::string text;
  for (const SymbolizedFrame& frame : frames) {
    text += "  " + frame.name + " [" + frame.system_name + "] " + frame.filename + ":" +
            std::to_string(frame.line) + " (start " + std::to_string(frame.start_line) + ")\n";
  }
  return text.empty() ? "  (no frames)\n" : text;
}

class SymbolizerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { symbolizer_ = new Symbolizer(LoadedModules()); }
  static void TearDownTestSuite() {
    delete symbolizer_;
    symbolizer_ = nullptr;
  }

  static Symbolizer* symbolizer_;
};

Symbolizer* SymbolizerTest::symbolizer_ = nullptr;

// ---- LoadedModules / FindModule ----

TEST(ModuleMapTest, MainExecutableComesFirstWithItsBuildId) {
  const std::vector<LoadedModule> modules = LoadedModules();
  ASSERT_FALSE(modules.empty());
  const LoadedModule& main = modules[0];
  EXPECT_TRUE(main.is_main_executable);
  EXPECT_EQ(main.path, SelfExe());
  ASSERT_EQ(main.build_id.size(), 40u) << main.build_id;
  EXPECT_EQ(main.build_id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(main.build_id, BuildIdFromFile(main.path));
  EXPECT_LT(main.start, main.limit);
  EXPECT_EQ(FindModule(modules, AddressOf(reinterpret_cast<const void*>(&NoinlineFunction))),
            &main);
  for (size_t i = 1; i < modules.size(); ++i) EXPECT_FALSE(modules[i].is_main_executable);
}

TEST(ModuleMapTest, SharedLibrariesHaveAbsolutePathsAndBuildIds) {
  const std::vector<LoadedModule> modules = LoadedModules();
  const LoadedModule* libc = ModuleNamed(modules, "/libc.so.6");
  ASSERT_NE(libc, nullptr);
  EXPECT_EQ(libc->path[0], '/');
  EXPECT_EQ(libc->build_id, BuildIdFromFile(libc->path));
  EXPECT_EQ(FindModule(modules, LibcQsort()), libc);
  for (const LoadedModule& module : modules) {
    EXPECT_TRUE(module.path[0] == '/' || module.path == "[vdso]") << module.path;
    if (module.path == "[vdso]") {
      EXPECT_EQ(module.build_id, "");
    }
  }
}

TEST(ModuleMapTest, ExecutableSegmentMatchesProgramHeader) {
  // The mapping arithmetic pprof uses: start - file_offset + p_offset -
  // p_vaddr is the load bias, which needs exact segment bounds.
  for (const LoadedModule& module : LoadedModules()) {
    EXPECT_GE(module.start, module.load_bias) << module.path;
    EXPECT_EQ((module.start - module.load_bias) % 4096, module.file_offset % 4096) << module.path;
  }
}

TEST(ModuleMapTest, FindModuleRespectsBoundaries) {
  const std::vector<LoadedModule> modules = LoadedModules();
  for (const LoadedModule& module : modules) {
    EXPECT_EQ(FindModule(modules, module.start), &module) << module.path;
    EXPECT_EQ(FindModule(modules, module.limit - 1), &module) << module.path;
    EXPECT_NE(FindModule(modules, module.limit), &module) << module.path;
    EXPECT_NE(FindModule(modules, module.start - 1), &module) << module.path;
  }
  int on_stack = 0;
  EXPECT_EQ(FindModule(modules, AddressOf(&on_stack)), nullptr);
  EXPECT_EQ(FindModule(modules, 0), nullptr);
  EXPECT_EQ(FindModule({}, AddressOf(reinterpret_cast<const void*>(&NoinlineFunction))), nullptr);
}

// ---- Symbolizer: this binary ----

TEST_F(SymbolizerTest, NoinlineFunctionIsOneFrameWithFileAndLines) {
  NoinlineFunction(1);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "benchprof::symbolizer_test_targets::NoinlineFunction");
  EXPECT_EQ(frames[0].system_name, "_ZN9benchprof23symbolizer_test_targets16NoinlineFunctionEi");
  EXPECT_EQ(frames[0].filename, THIS_SOURCE);
  EXPECT_EQ(frames[0].line, g_caller_line);
  EXPECT_EQ(frames[0].line, kNoinlineDeclLine + 1);
  EXPECT_EQ(frames[0].start_line, kNoinlineDeclLine);
}

TEST_F(SymbolizerTest, FunctionEntryResolvesToTheFunction) {
  const uint64_t entry = AddressOf(reinterpret_cast<const void*>(&NoinlineFunction));
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(entry);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "benchprof::symbolizer_test_targets::NoinlineFunction");
  EXPECT_EQ(frames[0].start_line, kNoinlineDeclLine);
}

TEST_F(SymbolizerTest, InlinedCallGivesInlineChainInnermostFirst) {
  OuterFunction(2);
  const int call_line = g_caller_line;
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_EQ(frames.size(), 2u) << Describe(frames);

  EXPECT_EQ(frames[0].name, "benchprof::symbolizer_test_targets::InlinedFunction");
  EXPECT_EQ(frames[0].system_name, "_ZN9benchprof23symbolizer_test_targets15InlinedFunctionEi");
  EXPECT_EQ(frames[0].filename, THIS_SOURCE);
  EXPECT_EQ(frames[0].line, call_line);
  EXPECT_EQ(frames[0].line, kInlinedDeclLine + 1);
  EXPECT_EQ(frames[0].start_line, kInlinedDeclLine);

  EXPECT_EQ(frames[1].name, "benchprof::symbolizer_test_targets::OuterFunction");
  EXPECT_EQ(frames[1].system_name, "_ZN9benchprof23symbolizer_test_targets13OuterFunctionEi");
  EXPECT_EQ(frames[1].filename, THIS_SOURCE);
  EXPECT_EQ(frames[1].line, kInlineSiteLine);
  EXPECT_EQ(frames[1].start_line, kOuterDeclLine);
}

TEST_F(SymbolizerTest, AnonymousNamespaceFunction) {
  AnonymousFunction(3);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "(anonymous namespace)::AnonymousFunction");
  EXPECT_EQ(frames[0].system_name, "_ZN12_GLOBAL__N_117AnonymousFunctionEi");
  EXPECT_EQ(frames[0].filename, THIS_SOURCE);
  EXPECT_EQ(frames[0].line, g_caller_line);
  EXPECT_EQ(frames[0].start_line, kAnonymousDeclLine);
}

TEST_F(SymbolizerTest, TemplateInstanceKeepsTemplateArgumentsDropsReturnType) {
  TemplateFunction<long>(4);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "benchprof::symbolizer_test_targets::TemplateFunction<long>");
  EXPECT_EQ(frames[0].system_name,
            "_ZN9benchprof23symbolizer_test_targets16TemplateFunctionIlEET_S2_");
  EXPECT_EQ(frames[0].line, g_caller_line);
  EXPECT_EQ(frames[0].start_line, kTemplateDeclLine);
}

TEST_F(SymbolizerTest, LambdaIsNamedOperatorCall) {
  CallLambda(5);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames[0].name,
            "benchprof::symbolizer_test_targets::CallLambda(int)::{lambda(int)#1}::operator()")
      << Describe(frames);
  EXPECT_EQ(frames[0].filename, THIS_SOURCE);
  EXPECT_EQ(frames[0].line, g_caller_line);
}

TEST_F(SymbolizerTest, OperatorLessIsNotATemplateBracket) {
  const Version a{1}, b{2};
  EXPECT_TRUE(a < b);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(g_caller_pc);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "benchprof::symbolizer_test_targets::Version::operator<");
  EXPECT_EQ(frames[0].line, g_caller_line);
}

TEST_F(SymbolizerTest, ResultsAreMemoizedAndCountedOncePerAddress) {
  NoinlineFunction(6);
  const uint64_t pc = g_caller_pc;
  const std::vector<SymbolizedFrame> first = symbolizer_->Symbolize(pc);
  const uint64_t asked = symbolizer_->quality(0).addresses;
  const std::vector<SymbolizedFrame> second = symbolizer_->Symbolize(pc);
  ASSERT_EQ(first.size(), second.size());
  EXPECT_EQ(first[0].name, second[0].name);
  EXPECT_EQ(first[0].line, second[0].line);
  EXPECT_EQ(symbolizer_->quality(0).addresses, asked);
}

TEST(SymbolizerQualityTest, CountsResolvedAddressesPerModule) {
  Symbolizer symbolizer(LoadedModules());
  const ModuleSymbolQuality& quality = symbolizer.quality(0);
  EXPECT_EQ(quality.addresses, 0u);
  EXPECT_TRUE(quality.has_functions());  // vacuously: nothing asked yet
  OuterFunction(7);
  ASSERT_EQ(symbolizer.Symbolize(g_caller_pc).size(), 2u);
  NoinlineFunction(8);
  ASSERT_EQ(symbolizer.Symbolize(g_caller_pc).size(), 1u);
  EXPECT_EQ(quality.addresses, 2u);
  EXPECT_EQ(quality.with_function, 2u);
  EXPECT_EQ(quality.with_filename, 2u);
  EXPECT_EQ(quality.with_line, 2u);
  EXPECT_EQ(quality.with_inline_info, 2u);
  EXPECT_TRUE(quality.has_functions() && quality.has_filenames() && quality.has_line_numbers() &&
              quality.has_inline_frames());
}

// A symbolizer shared by several profiles (one per run): each counts the
// quality of its own addresses, for its own mappings' flags.
TEST(SymbolizerQualityTest, CountQualityCountsOnlyTheAddressesGiven) {
  Symbolizer symbolizer(LoadedModules());
  OuterFunction(9);
  const uint64_t outer_pc = g_caller_pc;
  NoinlineFunction(10);
  const uint64_t noinline_pc = g_caller_pc;
  ASSERT_EQ(symbolizer.Symbolize(outer_pc).size(), 2u);  // another profile's address
  ModuleSymbolQuality own;
  symbolizer.CountQuality(noinline_pc, own);  // not symbolized before: it is now
  EXPECT_EQ(own.addresses, 1u);
  EXPECT_EQ(own.with_line, 1u);
  EXPECT_EQ(own.with_inline_info, 1u);
  EXPECT_EQ(symbolizer.quality(0).addresses, 2u);
  symbolizer.CountQuality(noinline_pc, own);  // memoized, counted again for the caller
  EXPECT_EQ(own.addresses, 2u);
  EXPECT_EQ(symbolizer.quality(0).addresses, 2u);
}

// ---- Symbolizer: other modules ----

TEST_F(SymbolizerTest, LibcAddressGetsTheElfSymbolName) {
  const uint64_t qsort_entry = LibcQsort();
  ASSERT_NE(qsort_entry, 0u);
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(qsort_entry + 4);
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames.back().name, "qsort") << Describe(frames);
  const LoadedModule* libc = FindModule(symbolizer_->modules(), qsort_entry);
  ASSERT_NE(libc, nullptr);
  if (HasDebugFile(libc->build_id)) {
    // libc6-dbg is installed: the DWARF path, found by build id. Debian
    // maps the build directory away, so the path is relative.
    EXPECT_NE(frames.back().filename, "") << Describe(frames);
    EXPECT_GT(frames.back().line, 0);
  } else {
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames[0].filename, "");
    EXPECT_EQ(frames[0].line, 0);
  }
}

TEST_F(SymbolizerTest, LibraryWithoutDebugInfoGivesOneDemangledFrame) {
  const uint64_t terminate = AddressOf(dlsym(RTLD_DEFAULT, "_ZSt9terminatev"));
  ASSERT_NE(terminate, 0u);
  const LoadedModule* libstdcxx = FindModule(symbolizer_->modules(), terminate);
  ASSERT_NE(libstdcxx, nullptr);
  ASSERT_TRUE(EndsWith(libstdcxx->path, ".so.6") &&
              libstdcxx->path.find("libstdc++") != std::string::npos)
      << libstdcxx->path;
  if (HasDebugFile(libstdcxx->build_id)) {
    GTEST_SKIP() << "debug info for " << libstdcxx->path << " is installed";
  }
  const std::vector<SymbolizedFrame> frames = symbolizer_->Symbolize(terminate + 1);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "std::terminate");
  EXPECT_EQ(frames[0].system_name, "_ZSt9terminatev");
  EXPECT_EQ(frames[0].filename, "");
  EXPECT_EQ(frames[0].line, 0);
  EXPECT_EQ(frames[0].start_line, 0);
}

TEST_F(SymbolizerTest, VdsoFunctionsAreNamed) {
  const LoadedModule* vdso = nullptr;
  for (const LoadedModule& module : symbolizer_->modules()) {
    if (module.path == "[vdso]") vdso = &module;
  }
  if (vdso == nullptr) GTEST_SKIP() << "no vDSO in this process";
  bool found_clock_gettime = false;
  for (uint64_t pc = vdso->start; pc < vdso->limit && !found_clock_gettime; pc += 4) {
    for (const SymbolizedFrame& frame : symbolizer_->Symbolize(pc)) {
      found_clock_gettime |= frame.name.find("clock_gettime") != std::string::npos;
    }
  }
  EXPECT_TRUE(found_clock_gettime);
}

TEST_F(SymbolizerTest, PltStubsAreNamedPltNotTheSymbolBeforeThem) {
  // _init (size 0) sits right before .plt; an unsized symbol must not
  // swallow the stubs.
  const LoadedModule& main = symbolizer_->modules()[0];
  const ElfFile file(main.path);
  const Elf64_Shdr* plt = file.Section(".plt");
  if (plt == nullptr || plt->sh_size < 32) GTEST_SKIP() << "no .plt in " << main.path;
  const std::vector<SymbolizedFrame> frames =
      symbolizer_->Symbolize(main.load_bias + plt->sh_addr + plt->sh_size - 4);
  ASSERT_EQ(frames.size(), 1u) << Describe(frames);
  EXPECT_EQ(frames[0].name, "[plt]");
}

TEST_F(SymbolizerTest, AddressOutsideEveryModuleIsEmpty) {
  int on_stack = 0;
  EXPECT_TRUE(symbolizer_->Symbolize(AddressOf(&on_stack)).empty());
  EXPECT_TRUE(symbolizer_->Symbolize(1).empty());
  EXPECT_TRUE(symbolizer_->Symbolize(~uint64_t{0}).empty());
}

TEST(SymbolizerModulesTest, UnreadableModuleGivesNoFramesAndNoCrash) {
  LoadedModule missing;
  missing.path = "/nonexistent/libmissing.so";
  missing.start = 0x1000;
  missing.limit = 0x2000;
  Symbolizer symbolizer({missing});
  EXPECT_TRUE(symbolizer.Symbolize(0x1800).empty());
  EXPECT_EQ(symbolizer.quality(0).addresses, 1u);
  EXPECT_FALSE(symbolizer.quality(0).has_functions());
}

// ---- Names ----

TEST(FunctionNameTest, StripsSignatureKeepsScopesAndTemplates) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"benchprof::stream::algOne(int)", "benchprof::stream::algOne"},
      {"std::vector<int, std::allocator<int> >::push_back(int const&)",
       "std::vector<int, std::allocator<int> >::push_back"},
      {"(anonymous namespace)::Foo(int, char)", "(anonymous namespace)::Foo"},
      {"int ns::Twice<int>(int)", "ns::Twice<int>"},
      {"std::vector<int, std::allocator<int> > ns::Make<int>()", "ns::Make<int>"},
      {"Foo::bar() const", "Foo::bar"},
      {"Foo::bar() const &", "Foo::bar"},
      {"Foo::bar() &&", "Foo::bar"},
      {"Foo::operator()(int) const", "Foo::operator()"},
      {"void Foo::operator()<int>(int)", "Foo::operator()<int>"},
      {"Foo::operator<(Foo const&) const", "Foo::operator<"},
      {"bool operator< <char>(Foo<char> const&, Foo<char> const&)", "operator< <char>"},
      {"Foo::operator<<(int)", "Foo::operator<<"},
      {"Foo::operator>>=(int)", "Foo::operator>>="},
      {"Foo::operator<=>(Foo const&) const", "Foo::operator<=>"},
      {"Foo::operator->() const", "Foo::operator->"},
      {"Foo::operator,(Foo)", "Foo::operator,"},
      {"std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
       "<std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
       "std::operator<< <std::char_traits<char> >"},
      {"Foo::operator unsigned long() const", "Foo::operator unsigned long"},
      {"operator new(unsigned long)", "operator new"},
      {"operator delete[](void*)", "operator delete[]"},
      {"std::function<void (int)>::operator()(int) const", "std::function<void (int)>::operator()"},
      {"Outer()::{lambda(int)#1}::operator()(int) const", "Outer()::{lambda(int)#1}::operator()"},
      {"foo(int) [clone .constprop.0] [clone .cold]", "foo"},
      {"foo[abi:cxx11]()", "foo[abi:cxx11]"},
      {"void Foo<(3)>(2)>(int)", "Foo<(3)>(2)>"},
      {"decltype ({parm#1}.size()) bar<Foo>(Foo&)", "bar<Foo>"},
      {"non-virtual thunk to Foo::bar()", "non-virtual thunk to Foo::bar"},
      {"qsort", "qsort"},
      {"my_operator(int)", "my_operator"},
  };
  for (const auto& [demangled, expected] : cases) {
    EXPECT_EQ(FunctionNameFromDemangled(demangled), expected) << demangled;
  }
}

TEST(FunctionNameTest, ShortFunctionNameDemangles) {
  EXPECT_EQ(ShortFunctionName("_ZNSt6vectorIiSaIiEE9push_backERKi"),
            "std::vector<int, std::allocator<int> >::push_back");
  EXPECT_EQ(ShortFunctionName("_ZN12_GLOBAL__N_13FooEv"), "(anonymous namespace)::Foo");
  EXPECT_EQ(ShortFunctionName("_ZN3FooclEi"), "Foo::operator()");
  EXPECT_EQ(ShortFunctionName("_ZNK3FooltERKS_"), "Foo::operator<");
  EXPECT_EQ(ShortFunctionName("_Z3foov.constprop.0"), "foo");
  EXPECT_EQ(ShortFunctionName("main"), "main");
  EXPECT_EQ(ShortFunctionName("_Znot_a_mangled_name"), "_Znot_a_mangled_name");
}

TEST(FunctionNameTest, WithoutCloneSuffixKeepsOnlyTheMangledName) {
  EXPECT_EQ(WithoutCloneSuffix("_Z3fooi.constprop.0"), "_Z3fooi");
  EXPECT_EQ(WithoutCloneSuffix("_Z3fooi.cold"), "_Z3fooi");
  EXPECT_EQ(WithoutCloneSuffix("_Z3fooi"), "_Z3fooi");
  EXPECT_EQ(WithoutCloneSuffix("main.cold"), "main.cold");
  EXPECT_EQ(WithoutCloneSuffix(""), "");
}

// ---- The pieces under the symbolizer ----

// The main executable's segment, opened as the symbolizer opens it.
Dwfl_Module* OpenMainExecutable(internal::ObjectFile& file) {
  const std::vector<LoadedModule> modules = LoadedModules();
  return modules.empty() ? nullptr : file.Open(modules[0]);
}

TEST(ObjectFileTest, OpensTheMainExecutableAtRuntimeAddresses) {
  internal::ObjectFile file;
  Dwfl_Module* module = OpenMainExecutable(file);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(file.module(), module);
  Dwarf_Addr low = 0, high = 0;
  dwfl_module_info(module, nullptr, &low, &high, nullptr, nullptr, nullptr, nullptr);
  const uint64_t entry = AddressOf(reinterpret_cast<const void*>(&NoinlineFunction));
  EXPECT_LE(low, entry);
  EXPECT_LT(entry, high);
}

TEST(ObjectFileTest, RefusesAFileWhoseBuildIdChanged) {
  LoadedModule main = LoadedModules().at(0);
  main.build_id = std::string(40, '0');
  internal::ObjectFile file;
  EXPECT_EQ(file.Open(main), nullptr);
  EXPECT_EQ(file.module(), nullptr);
}

TEST(ElfSymbolTableTest, FindsFunctionsByAnyAddressInside) {
  internal::ObjectFile file;
  Dwfl_Module* module = OpenMainExecutable(file);
  ASSERT_NE(module, nullptr);
  internal::ElfSymbolTable symbols;
  symbols.Build(module);
  const uint64_t entry = AddressOf(reinterpret_cast<const void*>(&NoinlineFunction));
  const char* name = symbols.Find(entry);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "_ZN9benchprof23symbolizer_test_targets16NoinlineFunctionEi");
  NoinlineFunction(1);  // g_caller_pc: inside, past the entry
  EXPECT_STREQ(symbols.Find(g_caller_pc), name);
  EXPECT_EQ(symbols.Find(0), nullptr);
}

TEST(ElfSymbolTableTest, AliasesGetTheShortGlobalName) {
  // glibc's malloc is also __libc_malloc and __malloc, at the same address.
  void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(libc, nullptr);
  const uint64_t malloc_entry = AddressOf(dlsym(libc, "malloc"));
  dlclose(libc);
  const std::vector<LoadedModule> modules = LoadedModules();
  const LoadedModule* module = FindModule(modules, malloc_entry);
  ASSERT_NE(module, nullptr);
  internal::ObjectFile file;
  ASSERT_NE(file.Open(*module), nullptr);
  internal::ElfSymbolTable symbols;
  symbols.Build(file.module());
  const char* name = symbols.Find(malloc_entry);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "malloc");
}

TEST(InlineIndexTest, InnermostNodeClimbsToTheOutOfLineFunction) {
  internal::ObjectFile file;
  Dwfl_Module* module = OpenMainExecutable(file);
  ASSERT_NE(module, nullptr);
  OuterFunction(2);  // g_caller_pc: InlinedFunction's call, inlined into OuterFunction
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu_die = dwfl_module_addrdie(module, g_caller_pc, &bias);
  ASSERT_NE(cu_die, nullptr);
  internal::InlineIndex unit(*cu_die);
  auto name_of = [&unit](int32_t index) -> std::string {
    Dwarf_Die die = unit.node(index).die;
    Dwarf_Attribute attr;
    const char* name = dwarf_formstring(dwarf_attr_integrate(&die, DW_AT_name, &attr));
    return name != nullptr ? name : "";
  };
  const int32_t inner = unit.Innermost(g_caller_pc - bias);
  ASSERT_GE(inner, 0);
  ASSERT_LT(static_cast<size_t>(inner), unit.node_count());
  EXPECT_FALSE(unit.node(inner).is_subprogram);
  EXPECT_EQ(name_of(inner), "InlinedFunction");
  const int32_t outer = unit.node(inner).parent;
  ASSERT_GE(outer, 0);
  ASSERT_LT(outer, inner);
  EXPECT_TRUE(unit.node(outer).is_subprogram);
  EXPECT_EQ(name_of(outer), "OuterFunction");
  EXPECT_EQ(unit.Innermost(0), -1);

  // The subprogram's declaration scopes: namespace symbolizer_test_targets
  // inside namespace benchprof inside the unit.
  Dwarf_Die outer_die = unit.node(outer).die;
  Dwarf_Attribute attr;
  Dwarf_Die declaration;
  Dwarf_Attribute* spec = dwarf_attr(&outer_die, DW_AT_specification, &attr);
  if (spec == nullptr || dwarf_formref_die(spec, &declaration) == nullptr) declaration = outer_die;
  const int32_t scope = unit.ScopeOfSubprogram(dwarf_dieoffset(&declaration));
  ASSERT_GE(scope, 0);
  Dwarf_Die scope_die = unit.scope(scope).die;
  EXPECT_STREQ(dwarf_diename(&scope_die), "symbolizer_test_targets");
  EXPECT_EQ(unit.ScopeOfSubprogram(0), internal::InlineIndex::kNoScope);
}

// ---- Throughput (prints, never asserts on time) ----

TEST(SymbolizerThroughputTest, ThousandsOfAddressesAcrossExecutableAndLibstdcxx) {
  const std::vector<LoadedModule> modules = LoadedModules();
  const LoadedModule& main = modules[0];
  const LoadedModule* libstdcxx =
      FindModule(modules, AddressOf(dlsym(RTLD_DEFAULT, "_ZSt9terminatev")));
  ASSERT_NE(libstdcxx, nullptr);

  constexpr int kMainAddresses = 9000, kLibraryAddresses = 1000;
  std::vector<uint64_t> addresses;
  for (int i = 0; i < kMainAddresses; ++i) {
    addresses.push_back(main.start + (main.limit - main.start) * i / kMainAddresses);
  }
  for (int i = 0; i < kLibraryAddresses; ++i) {
    addresses.push_back(libstdcxx->start +
                        (libstdcxx->limit - libstdcxx->start) * i / kLibraryAddresses);
  }
  std::shuffle(addresses.begin(), addresses.end(), std::mt19937_64(42));

  const auto begin = std::chrono::steady_clock::now();
  Symbolizer symbolizer(modules);
  size_t named = 0, frames = 0;
  for (uint64_t address : addresses) {
    const std::vector<SymbolizedFrame> result = symbolizer.Symbolize(address);
    frames += result.size();
    named += !result.empty() && !result.back().name.empty();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const size_t main_index = 0;
  const size_t library_index = static_cast<size_t>(libstdcxx - modules.data());
  std::printf(
      "symbolized %zu distinct addresses in %.3f s (%.2f us each, setup included): "
      "%zu named, %zu frames; executable %llu/%llu named, libstdc++ %llu/%llu named\n",
      addresses.size(), seconds, 1e6 * seconds / static_cast<double>(addresses.size()), named,
      frames, static_cast<unsigned long long>(symbolizer.quality(main_index).with_function),
      static_cast<unsigned long long>(symbolizer.quality(main_index).addresses),
      static_cast<unsigned long long>(symbolizer.quality(library_index).with_function),
      static_cast<unsigned long long>(symbolizer.quality(library_index).addresses));
  EXPECT_GT(named, addresses.size() / 2);
  EXPECT_GT(symbolizer.quality(main_index).with_function,
            symbolizer.quality(main_index).addresses * 8 / 10);
}

}  // namespace
}  // namespace benchprof::aggregate
