// A few threads that run jobs in the background, holding at most a byte
// budget of queued work: the capture library hands them the compression and
// writing of a launch's snapshots so the program under capture goes on while
// they are stored.
#ifndef STARK_HARNESS_CAPTURE_JOB_QUEUE_H
#define STARK_HARNESS_CAPTURE_JOB_QUEUE_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace stark::harness {

/// Runs submitted jobs on up to `threads` threads (started on first use).
/// `submit` blocks while the bytes held by queued and running jobs would pass
/// `max_bytes`, unless nothing is held: one job larger than the budget still
/// runs, alone. `drain` waits until every job has finished.
class JobQueue {
 public:
  JobQueue(unsigned threads, uint64_t max_bytes);
  ~JobQueue();  // drains, then stops the threads
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  /// Returns the seconds the caller waited for room.
  double submit(uint64_t bytes, std::function<void()> job);
  /// Returns the seconds the caller waited.
  double drain();

 private:
  struct Job {
    uint64_t bytes;
    std::function<void()> run;
  };
  void work();

  unsigned max_threads_;
  uint64_t max_bytes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  uint64_t held_bytes_ = 0;  // queued and running
  unsigned running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_JOB_QUEUE_H
