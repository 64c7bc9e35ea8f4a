// Function names: what pprof shows for a function, made from a mangled
// linkage name or from a demangled signature.
//
// The demangler gives a full signature ("void ns::f<int>(int) const");
// profiles want the function alone ("ns::f<int>"), with its scopes and
// template arguments but without return type, parameter list or
// qualifiers. Operator names ("operator()", "operator<") are names, not
// brackets, and are kept whole.
//
//   ShortFunctionName("_ZNK3FooltERKS_");               // "Foo::operator<"
//   FunctionNameFromDemangled("int ns::Twice<int>(int)");  // "ns::Twice<int>"
//   WithoutCloneSuffix("_Z3fooi.constprop.0");          // "_Z3fooi"
//
// Thread-safety: all functions are thread-safe (pure, no shared state).
#ifndef BENCHPROF_AGGREGATE_FUNCTION_NAME_H_
#define BENCHPROF_AGGREGATE_FUNCTION_NAME_H_

#include <string>
#include <string_view>

namespace benchprof::aggregate {

// A symbol name as pprof should show it: demangles an Itanium C++ name
// ("_Z...") with abi::__cxa_demangle, then applies FunctionNameFromDemangled.
// Other names (C functions, names that do not demangle) are returned as is.
std::string ShortFunctionName(const std::string& symbol);

// Strips from a demangled function signature its return type, parameter
// list, trailing cv/ref qualifiers and " [clone .xyz]" suffixes, keeping
// scopes and template arguments: "void ns::f<int>(int) const" -> "ns::f<int>".
// Knows that operator(), operator< and friends are names, not brackets.
// Text that is not a function signature comes back unchanged.
std::string FunctionNameFromDemangled(std::string_view demangled);

// A mangled name without GCC's clone suffix ("_Z3fooi.constprop.0" ->
// "_Z3fooi"), so clones share the linkage name DWARF gives the original.
// Mangled names never contain '.'; other names (C names, "") are
// returned unchanged. REQUIRES: `symbol` is not null.
std::string WithoutCloneSuffix(const char* symbol);

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_FUNCTION_NAME_H_
