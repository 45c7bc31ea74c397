// What survives an interruption of a search (OUT/state/*.json,
// stark.search/1): the tree, the random state, the expansions in flight, and
// the order in which selections and commits happened, so a search with
// several expansions in flight can be resumed and replayed.
#ifndef STARK_AGENTS_SEARCH_STATE_H
#define STARK_AGENTS_SEARCH_STATE_H

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "agents/search_tree.h"
#include "agents/selection.h"
#include "agents/team.h"
#include "core/expected.h"

namespace stark {

/// One step of a search's history: a selection was made (it got number
/// `seq`), or the expansion of selection `seq` was added to the tree.
struct OrderEvent {
  enum Kind { Select, Commit } kind = Select;
  int seq = 0;
  bool operator==(const OrderEvent&) const = default;
};

/// A selection whose expansion has not been added to the tree yet.
struct InFlight {
  Selection selection;
  int seq = 0;           // its number among the search's selections
  size_t tree_size = 0;  // the tree it was selected in: its first tree_size nodes
};

struct SearchState {
  std::string kernel, source_hash, run;  // run: search_identity()
  SearchTree tree;
  std::string rng;
  std::vector<InFlight> pending;
  std::vector<OrderEvent> order;
  int next_seq = 0;
  RoleUsage usage;
};

/// Writes the state (atomically). Errors are the caller's to ignore: a
/// search that cannot save still searches.
Expected<void> save_search_state(const std::filesystem::path& file, const SearchState& state);

/// The state saved in `file` when it is for this kernel, source and run
/// identity; nullopt otherwise (no file, another kernel, a changed kernel,
/// another kind of run, a damaged file): the search starts afresh.
std::optional<SearchState> load_search_state(const std::filesystem::path& file, const std::string& kernel,
                                             const std::string& source_hash, const std::string& run);

/// The order recorded in a saved state, to replay the search it made.
Expected<std::vector<OrderEvent>> recorded_order(const std::filesystem::path& file);

}  // namespace stark

#endif  // STARK_AGENTS_SEARCH_STATE_H
