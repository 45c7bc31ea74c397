// A counting gate: at most N callers inside at once (the per-client cap on
// requests in flight).
#ifndef STARK_AGENTS_LLM_GATE_H
#define STARK_AGENTS_LLM_GATE_H

#include <condition_variable>
#include <mutex>

namespace stark::llm {

/// Lets at most `limit` holders of a Gate::Slot exist at a time; others wait.
class Gate {
 public:
  explicit Gate(int limit) : free_(limit < 1 ? 1 : limit) {}
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  /// Holds one place in the gate until destroyed.
  class Slot {
   public:
    explicit Slot(Gate& gate) : gate_(gate) { gate_.enter(); }
    ~Slot() { gate_.leave(); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    Gate& gate_;
  };

 private:
  void enter() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return free_ > 0; });
    --free_;
  }
  void leave() {
    {
      std::lock_guard lock(mutex_);
      ++free_;
    }
    changed_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  int free_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_GATE_H
