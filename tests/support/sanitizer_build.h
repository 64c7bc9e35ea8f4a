// Whether the test binary is built with AddressSanitizer or ThreadSanitizer.
// There each event costs 10–100 times more, so volume tests run a fraction of
// their volume: the ordinary builds check the volume, the sanitizer builds
// the code paths.
#ifndef BENCHPROF_TESTS_SUPPORT_SANITIZER_BUILD_H_
#define BENCHPROF_TESTS_SUPPORT_SANITIZER_BUILD_H_

namespace benchprof::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_SANITIZER_BUILD_H_
