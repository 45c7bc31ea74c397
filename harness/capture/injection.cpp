// libstark_capture.so: the CUPTI injection library behind `stark capture`.
//
// The CUDA driver loads it into every process of the test command (through
// CUDA_INJECTION64_PATH) and calls InitializeInjection. It subscribes to the
// driver's launch callbacks (CUDA 13 routes <<<>>> through cuLaunchKernel*),
// and for each launch of a manifest kernel, matched by device mangled name,
// records the arguments, the whole allocation behind every pointer argument
// before the launch and after it completes (synchronising the launch's
// stream only), and the module-scope variables of the kernel's translation
// unit. Launches it cannot record faithfully are refused with a reason, which
// `stark capture` reports per kernel. Buffers are copied device-to-device into
// a stage (DeviceStage) where there is room; bringing them to the host,
// hashing, compressing and writing happen on background threads (JobQueue)
// while the program goes on; the process waits for them when it exits.
#include <cupti.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "harness/capture/capture_plan.h"
#include "harness/capture/device_stage.h"
#include "harness/capture/host_buffers.h"
#include "harness/capture/job_queue.h"
#include "harness/capture/launch_args.h"
#include "harness/capture/pinned_memory.h"
#include "harness/common/cuda_driver.h"
#include "harness/store/capture_store.h"

namespace stark::harness {
namespace {

/// A buffer's state: in the device stage until a writer brings it to the host.
struct Snapshot {
  HostCopy host;
  std::optional<StagedCopy> staged;
  size_t size() const { return staged ? staged->size : host.size; }
};

/// One launch being recorded, from its API entry until its snapshots are stored.
struct Pending {
  const PlanInstantiation* plan = nullptr;
  DeviceStage* stage = nullptr;
  Capture capture;
  std::vector<CUdeviceptr> bases;
  // Reached through a pointer to non-const: only these are copied back after the launch.
  std::vector<bool> writable;
  std::vector<Snapshot> before, after;
  std::vector<std::pair<CUdeviceptr, size_t>> global_addrs;
  std::vector<std::string> global_names;
  std::vector<HostCopy> globals_before, globals_after;
  CUstream stream = nullptr;
  CUcontext context = nullptr;
  Pending() = default;
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  ~Pending() {  // a launch given up on: its staged copies go back
    for (auto* list : {&before, &after})
      for (auto& snap : *list)
        if (snap.staged && stage) stage->give(*snap.staged);
  }
  uint64_t bytes() const {
    uint64_t n = 0;
    for (const auto* list : {&before, &after})
      for (const auto& snap : *list) n += snap.size();
    for (const auto* list : {&globals_before, &globals_after})
      for (const auto& h : *list) n += h.size;
    return n;
  }
};

struct State {
  std::mutex mutex;
  CapturePlan plan;
  std::optional<CaptureStore> store;
  const CudaDriver* cu = nullptr;
  std::string command;
  std::set<std::string> decided;   // launches (raw bytes) already handled
  std::set<std::string> shapes;    // shapes already recorded or skipped in this process
  std::set<std::string> reported;  // refusals already written by this process
  int counter = 0;
  std::string started;                // this process's entry in the index: pid and start time
  std::atomic<int64_t> record_ns{0};  // time the program was held up: callbacks, waiting for the writers
  std::vector<Capture> queued;        // handed to the writers, not in the index yet (for admission)
  std::unique_ptr<JobQueue> writers;
  std::unique_ptr<HostBufferPool> buffers;
  std::unique_ptr<DeviceStage> stage;  // with the driver, at the first launch recorded
};

State* g_state = nullptr;
thread_local bool t_inside = false;

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  for (auto& c : s)
    if (c == '\0') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.size() > 300 ? s.substr(0, 300) + "..." : s;
}

void note(const std::string& msg) { std::fprintf(stderr, "stark capture: %s\n", msg.c_str()); }

void refuse(State& s, const std::string& kernel, const std::string& mangled, const std::string& reason) {
  if (!s.reported.insert(kernel + "\n" + reason).second) return;
  (void)s.store->update([&](CaptureIndex& index) -> Expected<void> {
    index.add_refusal({kernel, mangled, reason, 1, s.command});
    return {};
  });
}

/// Enqueues a copy of [base, base + size) on the launch's stream: into the
/// device stage when it has room, else straight to the host.
std::optional<Snapshot> snapshot(State& s, const Pending& p, CUdeviceptr base, size_t size) {
  const CudaDriver& cu = *s.cu;
  Snapshot snap;
  snap.staged = s.stage->take(p.context, size);
  if (snap.staged) {
    if (cu.cuMemcpyDtoDAsync(snap.staged->data, base, size, p.stream) == CUDA_SUCCESS) return snap;
    s.stage->give(*snap.staged);
    snap.staged.reset();
  }
  snap.host = s.buffers->take(size);
  if (cu.cuMemcpyDtoHAsync(snap.host.data.get(), base, size, p.stream) != CUDA_SUCCESS) return std::nullopt;
  return snap;
}

/// Where a pointer argument points (the allocation's base, size and
/// offset, recorded in `p`), or why such a launch is not captured.
std::optional<std::string> pointer_arg(State& s, const ParamSpec& ps, uint64_t value, CUdevice device, Pending& p,
                                       std::vector<uint64_t>& sizes, CapturedArg& a) {
  const CudaDriver& cu = *s.cu;
  CUdeviceptr ptr = static_cast<CUdeviceptr>(value);
  unsigned int type = 0;
  unsigned int managed = 0;
  int ordinal = -1;
  if (cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr) != CUDA_SUCCESS)
    return fmt::format(
        "parameter '{}' does not point to CUDA memory (plain host memory or another allocator's): not "
        "captured",
        ps.name);
  cu.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, ptr);
  if (type == CU_MEMORYTYPE_HOST && !managed)
    return fmt::format("parameter '{}' points to host memory mapped for the GPU: host-mapped buffers are not captured",
                       ps.name);
  if (!managed && cu.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr) == CUDA_SUCCESS &&
      ordinal != static_cast<int>(device))
    return fmt::format(
        "parameter '{}' points to memory of GPU {} while the kernel runs on GPU {}: launches across GPUs "
        "are not captured",
        ps.name, ordinal, static_cast<int>(device));
  CUdeviceptr base = 0;
  size_t size = 0;
  if (cu.cuMemGetAddressRange(&base, &size, ptr) != CUDA_SUCCESS)
    return fmt::format("parameter '{}': the driver does not know the allocation it points into", ps.name);
  int index = -1;
  for (size_t b = 0; b < p.bases.size(); ++b)
    if (p.bases[b] == base) index = static_cast<int>(b);
  if (index < 0) {
    index = static_cast<int>(p.bases.size());
    p.bases.push_back(base);
    p.writable.push_back(false);
    sizes.push_back(size);
    p.capture.buffers.push_back({size, parse_dtype(ps.type).name(), managed ? "managed" : "device", "", std::nullopt});
  }
  if (!ps.is_const) p.writable[static_cast<size_t>(index)] = true;
  a.buffer = index;
  a.offset = ptr - base;
  return std::nullopt;
}

/// Why a struct argument cannot be captured: it holds a GPU pointer, whose
/// memory would not be.
std::optional<std::string> struct_holds_pointer(State& s, const ParamSpec& ps, const std::string& bytes) {
  for (size_t off : pointer_slots(bytes.size())) {
    uint64_t w = 0;
    std::memcpy(&w, bytes.data() + off, 8);
    unsigned int type = 0;
    if (w && s.cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, static_cast<CUdeviceptr>(w)) ==
                 CUDA_SUCCESS)
      return fmt::format(
          "parameter '{}' (a struct) holds a GPU pointer at byte {}: memory behind pointers inside "
          "structs is not captured",
          ps.name, off);
  }
  return std::nullopt;
}

/// The launch's arguments into p.capture (buffers by allocation, scalars and
/// structs by value), or why the launch is not captured.
std::optional<std::string> capture_args(State& s, const PlanInstantiation& plan, const std::vector<std::string>& bytes,
                                        Pending& p, std::vector<uint64_t>& sizes) {
  CUdevice device = 0;
  s.cu->cuCtxGetDevice(&device);
  for (size_t i = 0; i < plan.params.size(); ++i) {
    const ParamSpec& ps = plan.params[i];
    CapturedArg a;
    a.name = ps.name;
    if (ps.kind == ParamKind::Pointer) {
      a.kind = ParamKind::Pointer;
      uint64_t v = 0;
      std::memcpy(&v, bytes[i].data(), std::min<size_t>(8, bytes[i].size()));
      if (v)
        if (auto why = pointer_arg(s, ps, v, device, p, sizes, a)) return why;
    } else {
      a.kind = ps.kind == ParamKind::Record ? ParamKind::Record : ParamKind::Scalar;
      a.bytes = bytes[i];
      if (ps.kind == ParamKind::Record)
        if (auto why = struct_holds_pointer(s, ps, a.bytes)) return why;
    }
    p.capture.args.push_back(std::move(a));
  }
  return std::nullopt;
}

/// Copies of the buffers and module variables before the launch, enqueued
/// on its stream (ordered before the kernel, so nothing waits here), or why
/// they could not be taken.
std::optional<std::string> snapshot_before(State& s, const PlanInstantiation& plan, const Launch& l, Pending& p,
                                           const std::vector<uint64_t>& sizes) {
  const CudaDriver& cu = *s.cu;
  p.stage = s.stage.get();
  cu.cuCtxGetCurrent(&p.context);
  for (size_t b = 0; b < p.bases.size(); ++b) {
    auto snap = snapshot(s, p, p.bases[b], sizes[b]);
    if (!snap) return "the driver refused to copy an argument's memory";
    p.before.push_back(std::move(*snap));
  }
  for (const auto& name : plan.globals) {
    auto g = module_variable(cu, l.f, name);
    if (!g)
      // Replaying without the variable's value would judge both kernels on
      // made-up data: no capture rather than an unfaithful one.
      return fmt::format("its module variable '{}' could not be read: {}", name, g.error().message);
    HostCopy data = s.buffers->take(g->second);
    if (cu.cuMemcpyDtoHAsync(data.data.get(), g->first, g->second, l.stream) != CUDA_SUCCESS)
      return fmt::format("the driver refused to copy module variable '{}'", name);
    p.global_addrs.push_back(*g);
    p.global_names.push_back(name);
    p.globals_before.push_back(std::move(data));
  }
  return std::nullopt;
}

void on_enter(State& s, const CUpti_CallbackData* cb, const PlanInstantiation& plan, const Launch& l) {
  const CudaDriver& cu = *s.cu;
  std::lock_guard lock(s.mutex);
  if (!plan.refusal.empty()) return refuse(s, plan.kernel, plan.mangled, plan.refusal);
  std::string why;
  auto bytes = argument_bytes(plan, l, why);
  if (!bytes) return refuse(s, plan.kernel, plan.mangled, why);
  std::string raw =
      fmt::format("{}|{},{},{}|{},{},{}|{}|{}", plan.mangled, l.shape.grid[0], l.shape.grid[1], l.shape.grid[2],
                  l.shape.block[0], l.shape.block[1], l.shape.block[2], l.shape.shmem, fmt::ptr(l.stream));
  for (const auto& b : *bytes) raw += "|" + b;
  if (!s.decided.insert(raw).second) return;

  CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cu.cuStreamIsCapturing(l.stream, &capturing) == CUDA_SUCCESS && capturing != CU_STREAM_CAPTURE_STATUS_NONE)
    return refuse(s, plan.kernel, plan.mangled,
                  "launched while its stream is being captured into a CUDA graph: graph launches are not captured");
  if (l.shape.cluster)
    return refuse(s, plan.kernel, plan.mangled,
                  "launched with thread-block clusters, which replay does not support yet");

  auto p = std::make_unique<Pending>();
  p->plan = &plan;
  p->stream = l.stream;
  Capture& c = p->capture;
  c.kernel = plan.kernel;
  c.mangled = plan.mangled;
  c.command = s.command;
  c.pid = getpid();
  c.created = utc_now();
  c.launch = l.shape;
  std::vector<uint64_t> sizes;
  if (auto refused = capture_args(s, plan, *bytes, *p, sizes)) return refuse(s, plan.kernel, plan.mangled, *refused);
  c.shape = shape_key(plan.mangled, l.shape, c.args, sizes);
  if (s.shapes.count(c.shape)) return;
  uint64_t bytes_needed = 0;
  for (uint64_t sz : sizes) bytes_needed += 2 * sz;

  auto index = s.store->read_index();
  if (!index) return;
  // Captures still being written count as recorded (their stored size estimated as admit() does).
  for (const Capture& q : s.queued) index->captures.push_back(q);
  Admission adm = admit(*index, s.plan.limits, c.kernel, c.shape, bytes_needed);
  if (adm.decision != Admission::Decision::Record) {
    s.shapes.insert(c.shape);
    if (adm.decision == Admission::Decision::Refuse) refuse(s, plan.kernel, plan.mangled, adm.reason);
    return;
  }
  if (auto failed = snapshot_before(s, plan, l, *p, sizes)) {
    cu.cuStreamSynchronize(l.stream);  // copies already enqueued finish before their memory is given back
    return refuse(s, plan.kernel, plan.mangled, *failed);
  }
  s.shapes.insert(c.shape);
  *cb->correlationData = reinterpret_cast<uint64_t>(p.release());
}

/// Hashes, compresses and writes a launch's snapshots, then adds the capture
/// to the index (on a writer thread).
/// Copies a launch's staged snapshots to host memory (on a writer thread) and
/// gives the stage its memory back.
bool bring_home(State& s, Pending& p) {
  bool ok = true;
  for (auto* list : {&p.before, &p.after})
    for (auto& snap : *list) {
      if (!snap.staged) continue;
      // Current before taking host memory: page-locking it needs a context.
      s.cu->cuCtxSetCurrent(snap.staged->context);
      snap.host = s.buffers->take(snap.staged->size);
      if (ok) {
        auto copied = s.stage->to_host(*snap.staged, snap.host.data.get());
        if (!copied) {
          note(fmt::format("{}: a snapshot was lost: {}", p.capture.kernel, copied.error().message));
          ok = false;
        }
      }
      s.stage->give(*snap.staged);
      snap.staged.reset();
    }
  return ok;
}

void store_capture(State& s, Pending& p) {
  Capture& c = p.capture;
  auto put = [&](const HostCopy& data) -> std::optional<std::string> {
    uint64_t stored = 0;
    auto h = s.store->put_blob(data.view(), &stored);
    if (!h) {
      note(h.error().message);
      return std::nullopt;
    }
    c.stored_bytes += stored;
    c.bytes += data.size;
    return *h;
  };
  auto stored = bring_home(s, p) && [&]() -> bool {
    for (size_t b = 0; b < p.bases.size(); ++b) {
      auto before = put(p.before[b].host);
      if (!before) return false;
      // A buffer only read through pointers to const: its after-state is its before-state
      // (the worker's replay of the original would show a kernel that casts const away).
      auto after = p.writable[b] ? put(p.after[b].host) : before;
      if (!p.writable[b]) c.bytes += p.before[b].host.size;
      if (!after) return false;
      c.buffers[b].before = *before;
      c.buffers[b].after = *after;
    }
    for (size_t g = 0; g < p.global_names.size(); ++g) {
      auto before = put(p.globals_before[g]);
      auto after = put(p.globals_after[g]);
      if (!before || !after) return false;
      c.globals.push_back({p.global_names[g], p.globals_before[g].size, *before, *after});
    }
    return true;
  }();
  if (stored) {
    auto ok = s.store->update([&](CaptureIndex& index) -> Expected<void> {
      // Another process may have recorded this shape meanwhile.
      if (admit(index, s.plan.limits, c.kernel, c.shape, 0).decision == Admission::Decision::Record)
        index.captures.push_back(c);
      return {};
    });
    if (!ok) note(ok.error().message);
  }
  std::lock_guard lock(s.mutex);
  std::erase_if(s.queued, [&](const Capture& q) { return q.id == c.id; });
}

void on_exit(State& s, const CUpti_CallbackData* cb) {
  std::unique_ptr<Pending> p(reinterpret_cast<Pending*>(*cb->correlationData));
  *cb->correlationData = 0;
  if (!p) return;
  const CudaDriver& cu = *s.cu;
  if (*static_cast<CUresult*>(cb->functionReturnValue) != CUDA_SUCCESS) {  // the launch itself failed
    cu.cuStreamSynchronize(p->stream);                                     // the snapshot's copies, enqueued before it
    return;
  }
  {
    std::lock_guard lock(s.mutex);
    Capture& c = p->capture;
    if (CUresult r = cu.cuStreamSynchronize(p->stream); r != CUDA_SUCCESS)
      return refuse(s, c.kernel, c.mangled, fmt::format("a launch failed while being captured: {}", cu.describe(r)));
    for (size_t b = 0; b < p->bases.size(); ++b) {
      std::optional<Snapshot> snap = Snapshot{};
      if (p->writable[b]) snap = snapshot(s, *p, p->bases[b], c.buffers[b].size);
      if (!snap) {
        cu.cuStreamSynchronize(p->stream);
        return refuse(s, c.kernel, c.mangled, "the driver refused to copy an argument's memory");
      }
      p->after.push_back(std::move(*snap));
    }
    for (const auto& [g, size] : p->global_addrs) {
      p->globals_after.push_back(s.buffers->take(size));
      cu.cuMemcpyDtoHAsync(p->globals_after.back().data.get(), g, size, p->stream);
    }
    if (cu.cuStreamSynchronize(p->stream) != CUDA_SUCCESS) return;
    c.id = fmt::format("c-{}-{}-{}", c.shape.substr(6, 8), c.pid, s.counter++);
    Capture queued = c;
    queued.bytes = p->bytes();
    queued.stored_bytes = queued.bytes / 2;  // admit()'s own estimate
    s.queued.push_back(std::move(queued));
  }
  // Outside the lock: a full queue waits for writers, which take the lock when they finish.
  uint64_t bytes = p->bytes();
  std::shared_ptr<Pending> job(std::move(p));
  s.writers->submit(bytes, [&s, job] {
    store_capture(s, *job);
    for (auto* list : {&job->before, &job->after})
      for (auto& snap : *list) s.buffers->give(std::move(snap.host));
    for (auto* list : {&job->globals_before, &job->globals_after})
      for (auto& h : *list) s.buffers->give(std::move(h));
  });
}

/// At exit: waits for the writers, then records what capturing cost this process.
void finish_process() {
  State* s = g_state;
  if (!s) return;
  double exit_wait = s->writers->drain();
  if (s->counter == 0) return;  // recorded nothing: the index keeps no timing for it
  double seconds = static_cast<double>(s->record_ns.load()) / 1e9 + exit_wait;
  auto ok = s->store->update([&](CaptureIndex& index) -> Expected<void> {
    for (auto& proc : index.processes)
      if (proc.pid == getpid() && proc.started == s->started) {
        proc.record_seconds = seconds;
        proc.exit_wait_seconds = exit_wait;
      }
    return {};
  });
  if (!ok) note(ok.error().message);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && g_state) {
    // The program resets its device or destroys a context: the writers finish
    // the snapshots staged there while it still exists, then its stage goes.
    auto* rd = static_cast<const CUpti_ResourceData*>(data);
    State& s = *g_state;
    double waited = s.writers->drain();
    s.record_ns += static_cast<int64_t>(waited * 1e9);
    if (s.stage) s.stage->release(rd->context);
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || t_inside || !g_state) return;
  auto* cb = static_cast<const CUpti_CallbackData*>(data);
  State& s = *g_state;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
    if (cb->callbackSite == CUPTI_API_ENTER) {
      t_inside = true;
      std::lock_guard lock(s.mutex);
      refuse(s, "*", "", "the program launches CUDA graphs: kernels launched inside graphs are not captured");
      t_inside = false;
    }
    return;
  }
  if (cb->callbackSite == CUPTI_API_EXIT) {
    if (!cb->correlationData || !*cb->correlationData) return;
    t_inside = true;
    auto start = std::chrono::steady_clock::now();
    on_exit(s, cb);
    s.record_ns +=
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    t_inside = false;
    return;
  }
  // The exit callback reads this slot: make sure it never holds anything but ours.
  if (cb->correlationData) *cb->correlationData = 0;
  if (!cb->symbolName) return;
  const PlanInstantiation* plan = s.plan.find(cb->symbolName);
  if (!plan) return;
  Launch l;
  if (!decode(cbid, cb->functionParams, l)) return;
  t_inside = true;
  if (!s.cu) {
    auto cu = cuda_driver_no_init();
    if (cu) {
      s.cu = *cu;
      s.stage = std::make_unique<DeviceStage>(**cu, s.plan.device_stage_bytes);
    }
  }
  auto start = std::chrono::steady_clock::now();
  if (s.cu) on_enter(s, cb, *plan, l);
  s.record_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  t_inside = false;
}

int initialize() {
  const char* path = std::getenv(kCapturePlanEnv);
  if (!path || !*path) {
    note("STARK_CAPTURE_PLAN is not set: nothing is recorded (run the command through `stark capture`)");
    return 1;
  }
  auto plan = load_plan(path);
  if (!plan) {
    note("cannot read the capture plan: " + plan.error().message);
    return 1;
  }
  auto store = CaptureStore::open(plan->store, true);
  if (!store) {
    note(store.error().message);
    return 1;
  }
  auto* s = new State;  // lives as long as the process
  s->plan = std::move(*plan);
  s->store.emplace(std::move(*store));
  s->command = command_line();
  // A quarter of the cores (at most 4) compress and write while the program runs; at most
  // a quarter of the memory (at most 8 GiB) of snapshots waits for them.
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  uint64_t memory = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  uint64_t queued = std::clamp<uint64_t>(memory / 4, 1ull << 30, 8ull << 30);
  s->writers = std::make_unique<JobQueue>(std::clamp(cores / 4, 1u, 4u), queued);
  // Snapshots land in page-locked memory while there is some (recycled, so
  // each size is registered once), in the heap beyond.
  s->buffers = std::make_unique<HostBufferPool>(queued / 2, pinned_allocator(pinned_budget(memory)));

  CUpti_SubscriberHandle subscriber;
  CUptiResult r = cuptiSubscribe(&subscriber, on_callback, nullptr);
  std::string status = "ok";
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    status =
        "another CUDA tool holds the profiling interface (Nsight Systems, Nsight Compute, compute-sanitizer, "
        "cuda-gdb or another CUPTI client): nothing was recorded in this process";
  } else if (r != CUPTI_SUCCESS) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    status = fmt::format("CUPTI could not subscribe ({}): nothing was recorded in this process", text ? text : "?");
  }
  s->started = utc_now();
  (void)s->store->update([&](CaptureIndex& index) -> Expected<void> {
    index.processes.push_back({getpid(), s->command, s->started, status, std::nullopt, std::nullopt});
    return {};
  });
  if (status != "ok") {
    note(status);
    return 1;
  }
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  g_state = s;
  std::atexit(finish_process);
  return 1;
}

}  // namespace
}  // namespace stark::harness

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::once_flag once;
  static int result = 0;
  std::call_once(once, [] { result = stark::harness::initialize(); });
  return result;
}
