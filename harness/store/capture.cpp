#include "harness/store/capture.h"

#include <vector>
#include <string>
#include <optional>
#include <cstdint>
#include <nlohmann/json.hpp>

#include <ctime>
#include <stdexcept>

namespace stark::harness {

using nlohmann::json;

namespace {

json dim3_json(const Dim3& d) { return json::array({d[0], d[1], d[2]}); }

Dim3 dim3_from(const json& j) {
  auto v = j.get<std::vector<uint32_t>>();
  if (v.size() != 3) throw std::invalid_argument("a launch dimension needs 3 numbers");
  return {v[0], v[1], v[2]};
}

json optional_string(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

std::optional<std::string> read_optional_string(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<std::string>();
}

}  // namespace

void to_json(json& j, const LaunchShape& s) {
  j = {{"grid", dim3_json(s.grid)}, {"block", dim3_json(s.block)}, {"shmem", s.shmem}};
  if (s.cooperative) j["cooperative"] = true;
  if (s.cluster) j["cluster"] = dim3_json(*s.cluster);
}
void from_json(const json& j, LaunchShape& s) {
  s = {};
  s.grid = dim3_from(j.at("grid"));
  s.block = dim3_from(j.at("block"));
  s.shmem = j.value("shmem", 0u);
  s.cooperative = j.value("cooperative", false);
  if (j.contains("cluster") && !j["cluster"].is_null()) s.cluster = dim3_from(j["cluster"]);
}

void to_json(json& j, const CapturedArg& a) {
  j = {{"name", a.name}, {"kind", to_string(a.kind)}};
  if (a.kind == ParamKind::Pointer) {
    j["buffer"] = a.buffer ? json(*a.buffer) : json(nullptr);
    if (a.buffer) j["offset"] = a.offset;
  } else {
    j["bytes"] = to_hex(a.bytes);
  }
}
void from_json(const json& j, CapturedArg& a) {
  a = {};
  a.name = j.at("name").get<std::string>();
  a.kind = param_kind_from_json(j.at("kind"));
  if (a.kind == ParamKind::Pointer) {
    if (!j.at("buffer").is_null()) a.buffer = j["buffer"].get<int>();
    a.offset = j.value("offset", uint64_t{0});
  } else {
    auto bytes = from_hex(j.at("bytes").get<std::string>());
    if (!bytes) throw std::invalid_argument("argument '" + a.name + "': bytes are not hex");
    a.bytes = *bytes;
  }
}

void to_json(json& j, const CapturedBuffer& b) {
  j = {{"size", b.size},
       {"dtype", b.dtype},
       {"memory", b.memory},
       {"before", b.before},
       {"after", optional_string(b.after)}};
}
void from_json(const json& j, CapturedBuffer& b) {
  b = {};
  b.size = j.at("size").get<uint64_t>();
  b.dtype = j.value("dtype", "bytes");
  b.memory = j.value("memory", "device");
  b.before = j.at("before").get<std::string>();
  b.after = read_optional_string(j, "after");
}

void to_json(json& j, const CapturedGlobal& g) {
  j = {{"name", g.name}, {"size", g.size}, {"before", g.before}, {"after", optional_string(g.after)}};
}
void from_json(const json& j, CapturedGlobal& g) {
  g = {};
  g.name = j.at("name").get<std::string>();
  g.size = j.at("size").get<uint64_t>();
  g.before = j.at("before").get<std::string>();
  g.after = read_optional_string(j, "after");
}

void to_json(json& j, const Capture& c) {
  j = {{"id", c.id},           {"kernel", c.kernel},
       {"mangled", c.mangled}, {"origin", c.origin},
       {"command", c.command}, {"pid", c.pid},
       {"created", c.created}, {"launch", c.launch},
       {"shape", c.shape},     {"args", c.args},
       {"buffers", c.buffers}, {"globals", c.globals},
       {"bytes", c.bytes},     {"stored_bytes", c.stored_bytes}};
}
void from_json(const json& j, Capture& c) {
  c = {};
  c.id = j.at("id").get<std::string>();
  c.kernel = j.at("kernel").get<std::string>();
  c.mangled = j.at("mangled").get<std::string>();
  c.origin = j.value("origin", "launch");
  c.command = j.value("command", "");
  c.pid = j.value("pid", int64_t{0});
  c.created = j.value("created", "");
  c.launch = j.at("launch").get<LaunchShape>();
  c.shape = j.value("shape", "");
  c.args = j.at("args").get<std::vector<CapturedArg>>();
  c.buffers = j.at("buffers").get<std::vector<CapturedBuffer>>();
  c.globals = j.value("globals", std::vector<CapturedGlobal>{});
  c.bytes = j.value("bytes", uint64_t{0});
  c.stored_bytes = j.value("stored_bytes", uint64_t{0});
  for (const auto& a : c.args)
    if (a.buffer && (*a.buffer < 0 || static_cast<size_t>(*a.buffer) >= c.buffers.size()))
      throw std::invalid_argument("capture " + c.id + ": argument '" + a.name + "' names a missing buffer");
}

void to_json(json& j, const Refusal& r) {
  j = {{"kernel", r.kernel}, {"mangled", r.mangled}, {"reason", r.reason}, {"count", r.count}, {"command", r.command}};
}
void from_json(const json& j, Refusal& r) {
  r = {};
  r.kernel = j.at("kernel").get<std::string>();
  r.mangled = j.value("mangled", "");
  r.reason = j.at("reason").get<std::string>();
  r.count = j.value("count", int64_t{1});
  r.command = j.value("command", "");
}

void to_json(json& j, const CaptureProcess& p) {
  j = {{"pid", p.pid}, {"command", p.command}, {"started", p.started}, {"status", p.status}};
  if (p.record_seconds) j["record_seconds"] = *p.record_seconds;
  if (p.exit_wait_seconds) j["exit_wait_seconds"] = *p.exit_wait_seconds;
}
void from_json(const json& j, CaptureProcess& p) {
  p = {};
  p.pid = j.at("pid").get<int64_t>();
  p.command = j.value("command", "");
  p.started = j.value("started", "");
  p.status = j.value("status", "ok");
  if (j.contains("record_seconds")) p.record_seconds = j["record_seconds"].get<double>();
  if (j.contains("exit_wait_seconds")) p.exit_wait_seconds = j["exit_wait_seconds"].get<double>();
}

void to_json(json& j, const CaptureIndex& i) {
  j = {{"schema", kCaptureStoreSchema}, {"captures", i.captures}, {"refusals", i.refusals}, {"processes", i.processes}};
}
void from_json(const json& j, CaptureIndex& i) {
  if (j.value("schema", "") != kCaptureStoreSchema)
    throw std::invalid_argument(std::string("not a STARK capture index (schema is not ") + kCaptureStoreSchema + ")");
  i = {};
  i.captures = j.value("captures", std::vector<Capture>{});
  i.refusals = j.value("refusals", std::vector<Refusal>{});
  i.processes = j.value("processes", std::vector<CaptureProcess>{});
}

std::vector<const Capture*> CaptureIndex::for_kernel(const std::string& kernel) const {
  std::vector<const Capture*> out;
  for (const auto& c : captures)
    if (c.kernel == kernel) out.push_back(&c);
  return out;
}

const Capture* CaptureIndex::find(const std::string& id) const {
  for (const auto& c : captures)
    if (c.id == id) return &c;
  return nullptr;
}

uint64_t CaptureIndex::stored_bytes() const {
  uint64_t total = 0;
  for (const auto& c : captures) total += c.stored_bytes;
  return total;
}

void CaptureIndex::add_refusal(const Refusal& r) {
  for (auto& existing : refusals)
    if (existing.kernel == r.kernel && existing.reason == r.reason) {
      existing.count += r.count;
      return;
    }
  refusals.push_back(r);
}

std::string to_hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::optional<std::string> from_hex(std::string_view hex) {
  if (hex.size() % 2) return std::nullopt;
  auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = value(hex[i]), lo = value(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi << 4 | lo);
  }
  return out;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace stark::harness
