#include "session/thread_stack_dump.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "aggregate/module_map.h"
#include "aggregate/symbolizer.h"

namespace benchprof::session {
namespace {

std::string ThreadName(pid_t tid) {
  std::ifstream comm("/proc/self/task/" + std::to_string(tid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::string DescribeThreadStacks(const std::vector<collect::ThreadStack>& stacks) {
  aggregate::Symbolizer symbolizer(aggregate::LoadedModules());
  std::string text;
  for (const collect::ThreadStack& stack : stacks) {
    text += "thread " + std::to_string(stack.tid) + " (" + ThreadName(stack.tid) + "):\n";
    if (!stack.captured) {
      text += "  (no stack: the thread did not answer)\n";
      continue;
    }
    for (size_t i = 0; i < stack.frames.size(); ++i) {
      // A caller's return address - 1 is inside its call instruction.
      const uint64_t address = stack.frames[i] - (i == 0 ? 0 : 1);
      const std::vector<aggregate::SymbolizedFrame> frames = symbolizer.Symbolize(address);
      if (frames.empty()) {
        const aggregate::LoadedModule* module = FindModule(symbolizer.modules(), address);
        text += "  " + Hex(address);
        if (module != nullptr) {
          text += " " + module->path + "+" + Hex(address - module->start + module->file_offset);
        }
        text += "\n";
        continue;
      }
      for (const aggregate::SymbolizedFrame& frame : frames) {
        text += "  " + frame.name + "\n";
        if (!frame.filename.empty()) {
          text += "      " + frame.filename + ":" + std::to_string(frame.line) + "\n";
        }
      }
    }
  }
  return text;
}

}  // namespace benchprof::session
