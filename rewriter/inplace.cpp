#include "rewriter/inplace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

namespace {

/// One file on its way: where it is, its temporary, whether it is replaced.
struct Pending {
  const FileChange* change;
  fs::path target;  // the real file (links resolved: a linked source stays a link)
  fs::path backup;  // where its original goes
  fs::path temp;
  bool replaced = false;
};

/// Holds Ctrl-C, kill and a closed terminal while alive: they arrive when
/// it ends, so the temporaries and renames run whole. (A SIGKILL cannot be
/// held; the journal covers it.)
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t held;
    sigemptyset(&held);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&held, s);
    active_ = sigprocmask(SIG_BLOCK, &held, &previous_) == 0;
  }
  ~HeldSignals() {
    if (active_) sigprocmask(SIG_SETMASK, &previous_, nullptr);
  }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t previous_{};
  bool active_ = false;
};

void discard(std::vector<Pending>& pending) {
  std::error_code ec;
  for (auto& p : pending)
    if (!p.replaced && !p.temp.empty()) fs::remove(p.temp, ec);
}

/// One file of the journal: paths relative to the source root (the temp's
/// too), the backup absolute, and the hashes of both contents.
struct JournalFile {
  std::string path, temp, backup, original_hash, updated_hash;
};

Expected<void> write_journal(const fs::path& source_root, const std::vector<Pending>& pending) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& p : pending)
    files.push_back({{"path", p.change->path},
                     {"temp", p.temp.lexically_relative(source_root).generic_string()},
                     {"backup", p.backup.string()},
                     {"original_hash", content_hash(p.change->original)},
                     {"updated_hash", content_hash(p.change->updated)}});
  return write_json_file(source_root / kJournalName, {{"schema", "stark.apply-journal/1"}, {"files", files}});
}

Expected<std::vector<JournalFile>> read_journal(const fs::path& source_root) {
  const fs::path file = source_root / kJournalName;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)))
    return Error{fmt::format("there is no interrupted apply to recover in {}", source_root.string())};
  auto j = read_json_file(file);
  if (!j) return j.error();
  std::vector<JournalFile> out;
  if (!j->is_object() || j->value("schema", "") != "stark.apply-journal/1" || !(*j)["files"].is_array())
    return Error{fmt::format("{} is not a journal STARK wrote", file.string())};
  for (const auto& f : (*j)["files"]) {
    if (!f.is_object()) return Error{fmt::format("{} is not a journal STARK wrote", file.string())};
    JournalFile e{f.value("path", ""), f.value("temp", ""), f.value("backup", ""), f.value("original_hash", ""),
                  f.value("updated_hash", "")};
    if (e.path.empty() || e.temp.empty() || e.backup.empty())
      return Error{fmt::format("{} is not a journal STARK wrote", file.string())};
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

Expected<InplaceOutcome> write_in_place(const ApplyPlan& plan, const fs::path& backup_dir) {
  InplaceOutcome outcome;
  outcome.backup_dir = backup_dir;
  std::vector<Pending> pending;
  std::error_code ec;

  // 1. Every file must lie inside the source root and still hold exactly what the scan saw.
  for (const auto& change : plan.files) {
    auto target = confine_path(plan.source_root, change.path);
    if (!target) return Error{fmt::format("the manifest's path {}; nothing was written", target.error().message)};
    auto now = read_file(*target);
    if (!now) return now.error();
    if (content_hash(*now) != change.hash || *now != change.original)
      return Error{
          fmt::format("{} changed since the scan; nothing was written (run stark optimize again)", change.path)};
    pending.push_back({&change, *target, {}, {}, false});
  }
  // 2. Back up the originals, inside the backup folder and never over a source.
  std::set<fs::path> targets;
  for (const auto& p : pending) targets.insert(p.target);
  for (auto& p : pending) {
    auto backup = confine_path(backup_dir, p.change->path);
    if (!backup)
      return Error{fmt::format("cannot back up {}: {}; nothing was written", p.change->path, backup.error().message)};
    if (targets.count(*backup))
      return Error{
          fmt::format("the backup of {} would overwrite a source ({}); choose another backup folder; nothing "
                      "was written",
                      p.change->path, backup->string())};
    p.backup = *backup;
  }
  for (const auto& p : pending)
    if (auto ok = write_file_atomic(p.backup, p.change->original); !ok)
      return Error{fmt::format("cannot back up {}: {}; nothing was written", p.change->path, ok.error().message)};
  // 3. New contents into temporaries beside the files, with the files' permissions.
  HeldSignals held;
  for (auto& p : pending) {
    p.temp = p.target;
    p.temp += fmt::format(".stark-tmp.{}", ::getpid());
    {
      std::ofstream out(p.temp, std::ios::binary | std::ios::trunc);
      out.write(p.change->updated.data(), static_cast<std::streamsize>(p.change->updated.size()));
      out.flush();
      if (!out) {
        discard(pending);
        return Error{fmt::format("cannot write beside {}; nothing was written", p.target.string())};
      }
    }
    fs::permissions(p.temp, fs::status(p.target, ec).permissions(), ec);
  }
  // 4. Rename over the originals; undo on failure. The journal says what is
  //    under way until the last rename is done.
  if (auto ok = write_journal(plan.source_root, pending); !ok) {
    discard(pending);
    return Error{fmt::format("cannot write the journal of this apply: {}; nothing was written", ok.error().message)};
  }
  for (auto& p : pending) {
    fs::rename(p.temp, p.target, ec);
    if (ec) {
      std::string why = ec.message();
      std::vector<std::string> unrestored;
      for (auto& q : pending)
        if (q.replaced)
          if (!write_file_atomic(q.target, q.change->original)) unrestored.push_back(q.change->path);
      discard(pending);
      if (unrestored.empty()) fs::remove(plan.source_root / kJournalName, ec);
      if (!unrestored.empty())
        return Error{fmt::format("cannot replace {}: {}; restore {} from {}", p.target.string(), why,
                                 fmt::join(unrestored, ", "), backup_dir.string())};
      return Error{
          fmt::format("cannot replace {}: {}; the files already replaced were restored", p.target.string(), why)};
    }
    p.replaced = true;
    outcome.written.push_back(p.change->path);
  }
  fs::remove(plan.source_root / kJournalName, ec);
  return outcome;
}

Expected<Recovery> recover_in_place(const fs::path& source_root) {
  auto journal = read_journal(source_root);
  if (!journal) return journal.error();
  struct State {
    const JournalFile* entry;
    fs::path target, temp;
    std::string now;
    bool temp_is_new = false;
  };
  std::vector<State> files;
  for (const auto& e : *journal) {
    auto target = confine_path(source_root, e.path);
    auto temp = confine_path(source_root, e.temp);
    if (!target || !temp) return Error{fmt::format("the journal names a file outside {}", source_root.string())};
    auto now = read_file(*target);
    if (!now) return now.error();
    std::string hash = content_hash(*now);
    if (hash != e.original_hash && hash != e.updated_hash)
      return Error{
          fmt::format("{} holds neither its original nor its new content (edited since the apply?); "
                      "nothing was changed: restore it by hand from {}, then remove {}",
                      e.path, e.backup, (source_root / kJournalName).string())};
    State s{&e, *target, *temp, hash};
    if (auto t = read_file(*temp)) s.temp_is_new = content_hash(*t) == e.updated_hash;
    files.push_back(std::move(s));
  }
  Recovery r;
  bool can_finish = std::all_of(files.begin(), files.end(),
                                [](const State& s) { return s.now == s.entry->updated_hash || s.temp_is_new; });
  std::error_code ec;
  if (can_finish) {
    for (auto& s : files) {
      if (s.now != s.entry->updated_hash) {
        fs::rename(s.temp, s.target, ec);
        if (ec) return Error{fmt::format("cannot replace {}: {}", s.target.string(), ec.message())};
      }
      r.files.push_back(s.entry->path);
    }
  } else {
    r.outcome = Recovery::Outcome::RolledBack;
    for (auto& s : files) {
      if (s.now != s.entry->original_hash) {
        auto original = read_file(s.entry->backup);
        if (!original || content_hash(*original) != s.entry->original_hash)
          return Error{fmt::format("the backup of {} at {} is missing or changed; restore the file by hand",
                                   s.entry->path, s.entry->backup)};
        if (auto ok = write_file_atomic(s.target, *original); !ok) return ok.error();
      }
      r.files.push_back(s.entry->path);
    }
  }
  for (auto& s : files) fs::remove(s.temp, ec);
  fs::remove(source_root / kJournalName, ec);
  return r;
}

}  // namespace stark::rewriter
