// Thread start/exit hooks (collect/thread_hooks.h) with the real
// pthread_create replacement linked in: each listener is asked in the
// creating thread, and only the listeners that wanted a thread run on it,
// first to last at its start and last to first at its end.
#include "collect/thread_hooks.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace benchprof::collect {
namespace {

std::atomic<bool> g_first_wants{false};
std::atomic<bool> g_second_wants{false};
std::mutex g_mutex;
std::vector<std::string> g_events;  // guarded by g_mutex

void Note(const char* event) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(event);
}

std::vector<std::string> TakeEvents() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return std::exchange(g_events, {});
}

bool FirstWants() { return g_first_wants.load(); }
bool SecondWants() { return g_second_wants.load(); }
void FirstStart() { Note("first start"); }
void FirstExit() { Note("first exit"); }
void SecondStart() { Note("second start"); }

constexpr ThreadListener kFirst{&FirstWants, &FirstStart, &FirstExit};
constexpr ThreadListener kSecond{&SecondWants, &SecondStart, nullptr};

void RunThread() {
  std::thread([] { Note("body"); }).join();
}

TEST(ThreadHooksTest, OnlyTheListenersThatWantAThreadRunOnIt) {
  ASSERT_TRUE(AddThreadListener(&kFirst));
  ASSERT_TRUE(AddThreadListener(&kSecond));
  ASSERT_TRUE(AddThreadListener(&kFirst));  // a second registration changes nothing

  RunThread();
  EXPECT_EQ(TakeEvents(), (std::vector<std::string>{"body"}));

  g_first_wants = true;
  RunThread();
  EXPECT_EQ(TakeEvents(), (std::vector<std::string>{"first start", "body", "first exit"}));

  g_second_wants = true;
  RunThread();
  EXPECT_EQ(TakeEvents(),
            (std::vector<std::string>{"first start", "second start", "body", "first exit"}));

  // Decided when the thread is created: wanting it later changes nothing.
  g_first_wants = false;
  g_second_wants = false;
  std::atomic<bool> go{false};
  std::thread late([&] {
    while (!go.load()) std::this_thread::yield();
    Note("body");
  });
  g_first_wants = true;
  go = true;
  late.join();
  EXPECT_EQ(TakeEvents(), (std::vector<std::string>{"body"}));
  g_first_wants = false;
}

TEST(ThreadHooksTest, ThreadArgumentsAndResultsPassThrough) {
  g_first_wants = true;
  pthread_t thread;
  int value = 41;
  ASSERT_EQ(pthread_create(
                &thread, nullptr,
                [](void* arg) -> void* {
                  ++*static_cast<int*>(arg);
                  return arg;
                },
                &value),
            0);
  void* result = nullptr;
  ASSERT_EQ(pthread_join(thread, &result), 0);
  EXPECT_EQ(result, &value);
  EXPECT_EQ(value, 42);
  EXPECT_EQ(TakeEvents(), (std::vector<std::string>{"first start", "first exit"}));
  g_first_wants = false;
}

TEST(ThreadHooksTest, TheNumberOfListenersIsBounded) {
  static ThreadListener listeners[kMaxThreadListeners + 1];
  int added = 0;
  for (ThreadListener& listener : listeners) {
    listener = {[] { return false; }, nullptr, nullptr};
    if (!AddThreadListener(&listener)) break;
    ++added;
  }
  EXPECT_LE(added, kMaxThreadListeners);  // others may be registered already
  EXPECT_FALSE(AddThreadListener(&listeners[kMaxThreadListeners]));
  RunThread();  // none wants it: created as it is
  EXPECT_EQ(TakeEvents(), (std::vector<std::string>{"body"}));
}

}  // namespace
}  // namespace benchprof::collect
