#include "harness/capture/job_queue.h"

#include <algorithm>
#include <chrono>

namespace stark::harness {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

JobQueue::JobQueue(unsigned threads, uint64_t max_bytes) : max_threads_(std::max(1u, threads)), max_bytes_(max_bytes) {}

JobQueue::~JobQueue() {
  drain();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
}

double JobQueue::submit(uint64_t bytes, std::function<void()> job) {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return held_bytes_ == 0 || held_bytes_ + bytes <= max_bytes_; });
  double waited = seconds_since(start);
  held_bytes_ += bytes;
  queue_.push_back({bytes, std::move(job)});
  // One more thread while every thread is busy, up to the limit.
  if (threads_.size() < max_threads_ && running_ + queue_.size() > threads_.size())
    threads_.emplace_back([this] { work(); });
  lock.unlock();
  changed_.notify_all();
  return waited;
}

double JobQueue::drain() {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
  return seconds_since(start);
}

void JobQueue::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    job.run();
    lock.lock();
    --running_;
    held_bytes_ -= job.bytes;
    changed_.notify_all();
  }
}

}  // namespace stark::harness
