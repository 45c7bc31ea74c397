// Children started in a process group of their own (so that a time limit can
// end everything they started) no longer get the terminal's Ctrl-C. This
// process keeps their groups and, when SIGINT, SIGTERM or SIGHUP would end
// it, passes the signal on to each group first: no compiler, worker or model
// command outlives an interrupted `stark`.
#ifndef STARK_CORE_CHILD_GROUPS_H
#define STARK_CORE_CHILD_GROUPS_H

#include <sys/types.h>

namespace stark {

/// Remembers the group `leader` leads (called once it has started). The
/// first call installs the handlers, where a signal still has its default
/// action (a handler the program set itself is left alone).
void track_child_group(pid_t leader);

/// Forgets the group once its leader has been reaped.
void forget_child_group(pid_t leader);

}  // namespace stark

#endif  // STARK_CORE_CHILD_GROUPS_H
