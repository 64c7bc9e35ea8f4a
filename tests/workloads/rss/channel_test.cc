// Channel behaves like a buffered Go channel that is ranged over: FIFO,
// bounded, and drained before Receive() reports the close.

#include "rss/channel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace benchprof::rss {
namespace {

TEST(ChannelTest, DeliversInOrderThenReportsClose) {
  Channel<int> channel(3);
  EXPECT_TRUE(channel.Send(1));
  EXPECT_TRUE(channel.Send(2));
  channel.Close();
  EXPECT_FALSE(channel.Send(3));  // dropped, not a crash
  EXPECT_EQ(channel.Receive(), 1);
  EXPECT_EQ(channel.Receive(), 2);
  EXPECT_EQ(channel.Receive(), std::nullopt);
  EXPECT_EQ(channel.Receive(), std::nullopt);
}

TEST(ChannelTest, SendWaitsWhileFull) {
  Channel<int> channel(1);
  ASSERT_TRUE(channel.Send(1));
  std::atomic<bool> sent{false};
  std::thread sender([&] {
    channel.Send(2);
    sent = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(sent.load());  // capacity 1, one value queued
  EXPECT_EQ(channel.Receive(), 1);
  sender.join();
  EXPECT_TRUE(sent.load());
  EXPECT_EQ(channel.Receive(), 2);
}

TEST(ChannelTest, FullSenderSleepsUntilTheLowWaterMark) {
  Channel<int> channel(4, /*resume_at=*/1);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(channel.Send(i));
  std::atomic<bool> sent{false};
  std::thread sender([&] {
    channel.Send(4);
    sent = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(channel.Receive(), 0);
  EXPECT_EQ(channel.Receive(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(sent.load());        // 2 queued: a slot is free, but not yet woken
  EXPECT_EQ(channel.Receive(), 2);  // 1 queued: the low-water mark
  sender.join();
  EXPECT_TRUE(sent.load());
  EXPECT_EQ(channel.Receive(), 3);
  EXPECT_EQ(channel.Receive(), 4);
}

TEST(ChannelTest, CloseWakesBlockedReceivers) {
  Channel<int> channel(1);
  std::thread receiver([&] { EXPECT_EQ(channel.Receive(), std::nullopt); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  channel.Close();
  receiver.join();
}

TEST(ChannelTest, CarriesMoveOnlyValuesBetweenManyThreads) {
  Channel<std::unique_ptr<int>> channel(4);
  constexpr int kValues = 10000;
  std::atomic<long> sum{0};
  std::vector<std::thread> receivers;
  for (int r = 0; r < 3; ++r) {
    receivers.emplace_back([&] {
      while (std::optional<std::unique_ptr<int>> value = channel.Receive()) sum += **value;
    });
  }
  for (int i = 1; i <= kValues; ++i) ASSERT_TRUE(channel.Send(std::make_unique<int>(i)));
  channel.Close();
  for (std::thread& receiver : receivers) receiver.join();
  EXPECT_EQ(sum.load(), long{kValues} * (kValues + 1) / 2);
}

}  // namespace
}  // namespace benchprof::rss
