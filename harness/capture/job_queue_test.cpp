#include "harness/capture/job_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace stark::harness {
namespace {

TEST(JobQueue, RunsEveryJobBeforeDrainReturns) {
  std::atomic<int> done{0};
  JobQueue q(3, 1000);
  for (int i = 0; i < 50; ++i)
    q.submit(10, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++done;
    });
  q.drain();
  EXPECT_EQ(done.load(), 50);
}

TEST(JobQueue, UsesSeveralThreads) {
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> inside{0}, most{0};
  JobQueue q(4, 1 << 20);
  for (int i = 0; i < 16; ++i)
    q.submit(1, [&] {
      int now = ++inside;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      {
        std::lock_guard lock(m);
        ids.insert(std::this_thread::get_id());
      }
      --inside;
    });
  q.drain();
  EXPECT_GT(ids.size(), 1u);
  EXPECT_LE(most.load(), 4);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);  // never on the caller's thread
}

TEST(JobQueue, HoldsAtMostTheByteBudget) {
  std::atomic<uint64_t> held{0}, most{0};
  JobQueue q(4, 100);
  for (int i = 0; i < 20; ++i) {
    // Counted before submit returns and released at the job's end: never more than the budget in flight.
    held += 40;
    for (uint64_t seen = most.load(), now = held.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    q.submit(40, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      held -= 40;
    });
  }
  q.drain();
  // 40-byte jobs under a 100-byte budget: two held, plus the one being submitted.
  EXPECT_LE(most.load(), 120u);
}

TEST(JobQueue, AJobAboveTheBudgetStillRunsAlone) {
  std::atomic<int> done{0};
  JobQueue q(2, 10);
  q.submit(1000, [&] { ++done; });
  q.submit(1000, [&] { ++done; });
  q.drain();
  EXPECT_EQ(done.load(), 2);
}

TEST(JobQueue, DestructorFinishesQueuedJobs) {
  std::atomic<int> done{0};
  {
    JobQueue q(1, 1000);
    for (int i = 0; i < 5; ++i)
      q.submit(1, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ++done;
      });
  }
  EXPECT_EQ(done.load(), 5);
}

}  // namespace
}  // namespace stark::harness
