#include "rewriter/inplace.h"

#include <fmt/format.h>
#include <unistd.h>

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

void discard(std::vector<Pending>& pending) {
  std::error_code ec;
  for (auto& p : pending)
    if (!p.replaced && !p.temp.empty()) fs::remove(p.temp, ec);
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
      return Error{fmt::format("{} changed since the scan; nothing was written (run stark optimize again)", change.path)};
    pending.push_back({&change, *target, {}, {}, false});
  }
  // 2. Back up the originals, inside the backup folder and never over a source.
  std::set<fs::path> targets;
  for (const auto& p : pending) targets.insert(p.target);
  for (auto& p : pending) {
    auto backup = confine_path(backup_dir, p.change->path);
    if (!backup) return Error{fmt::format("cannot back up {}: {}; nothing was written", p.change->path, backup.error().message)};
    if (targets.count(*backup))
      return Error{fmt::format("the backup of {} would overwrite a source ({}); choose another backup folder; nothing "
                               "was written",
                               p.change->path, backup->string())};
    p.backup = *backup;
  }
  for (const auto& p : pending)
    if (auto ok = write_file_atomic(p.backup, p.change->original); !ok)
      return Error{fmt::format("cannot back up {}: {}; nothing was written", p.change->path, ok.error().message)};
  // 3. New contents into temporaries beside the files, with the files' permissions.
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
  // 4. Rename over the originals; undo on failure.
  for (auto& p : pending) {
    fs::rename(p.temp, p.target, ec);
    if (ec) {
      std::string why = ec.message();
      std::vector<std::string> unrestored;
      for (auto& q : pending)
        if (q.replaced)
          if (!write_file_atomic(q.target, q.change->original)) unrestored.push_back(q.change->path);
      discard(pending);
      if (!unrestored.empty())
        return Error{fmt::format("cannot replace {}: {}; restore {} from {}", p.target.string(), why,
                                 fmt::join(unrestored, ", "), backup_dir.string())};
      return Error{fmt::format("cannot replace {}: {}; the files already replaced were restored", p.target.string(), why)};
    }
    p.replaced = true;
    outcome.written.push_back(p.change->path);
  }
  return outcome;
}

}  // namespace stark::rewriter
