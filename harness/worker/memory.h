// A launch's memory as the worker holds it on the host, and the pool that
// keeps such copies between launches.
#ifndef STARK_HARNESS_WORKER_MEMORY_H
#define STARK_HARNESS_WORKER_MEMORY_H

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stark::harness {

/// Memory after a launch, as compared: buffers, guard damage, module variables.
struct Memory {
  std::vector<std::string> buffers;
  std::vector<std::string> guard_damage;            // per buffer: "" or "12 bytes after the end"
  std::vector<std::optional<std::string>> globals;  // nullopt: the module has no such variable
};

/// Host copies kept for the next read-back. A fresh half-gigabyte buffer
/// costs more than the copy into it (the kernel faults in every page, and
/// the string zero-fills what the copy then overwrites), and an evaluation
/// reads a capture's memory back a dozen times: reads reuse these instead.
class MemoryPool {
 public:
  /// Memory on loan from the pool, handed back when the loan ends.
  class Loan {
   public:
    explicit Loan(MemoryPool& pool) : pool_(&pool), memory_(pool.take()) {}
    ~Loan() {
      if (pool_) pool_->give_back(std::move(memory_));
    }
    Loan(Loan&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), memory_(std::move(o.memory_)) {}
    Loan(const Loan&) = delete;
    Loan& operator=(const Loan&) = delete;
    Loan& operator=(Loan&&) = delete;
    Memory& operator*() { return memory_; }
    Memory* operator->() { return &memory_; }
    const Memory& operator*() const { return memory_; }
    const Memory* operator->() const { return &memory_; }

   private:
    MemoryPool* pool_;
    Memory memory_;
  };

  /// Keeps at most `spare` copies (each as large as the largest capture read).
  explicit MemoryPool(size_t spare = 4) : spare_(spare) {}
  Loan lend() { return Loan(*this); }
  /// Copies waiting to be lent.
  size_t idle() const { return idle_.size(); }

 private:
  Memory take() {
    if (idle_.empty()) return {};
    Memory m = std::move(idle_.back());
    idle_.pop_back();
    return m;
  }
  void give_back(Memory m) {
    if (idle_.size() < spare_) idle_.push_back(std::move(m));
  }
  size_t spare_;
  std::vector<Memory> idle_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_MEMORY_H
