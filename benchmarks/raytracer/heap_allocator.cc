#include "raytracer/heap_allocator.h"

#include <new>

namespace benchprof::raytracer {

void* AllocateHeapBlock(std::size_t bytes) { return ::operator new(bytes); }

void FreeHeapBlock(void* block) noexcept { ::operator delete(block); }

}  // namespace benchprof::raytracer
