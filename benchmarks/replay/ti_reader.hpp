// Reading an SMPI time-independent trace from its files (the format and the line parser: ti_trace.hpp): the index
// file's list of per-rank action files, and one rank's action file read lazily, one action at a time.
#pragma once
#include "benchmarks/replay/ti_trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::bench::ti {

// The index file: the action file of every rank (resolved paths). InputError(index, "", reason) for a missing or
// unreadable index, an empty one, a line too long, more than `max_ranks` lines or an action file that does not exist;
// InputError(action file, "", reason) for an action file of 0 bytes (no_action_reason).
std::vector<std::string> read_index(const std::string& index, long long max_ranks);

// One rank's action file, read lazily through a small buffer: the file is opened for each refill and closed again
// (thousands of ranks never hold thousands of descriptors), so per-rank memory is the buffer (grown only for a
// longer line, up to kMaxLineBytes) and the current action.
// A rank's action file without a single action (empty, or blank and comment lines only) is refused, although SMPI's own
// replay accepts it: SimGrid 3.32's xbt ReplayReader only asserts that the file opens, and smpi_replay_init /
// smpi_replay_main do the rank's MPI init and finalize themselves, so such a rank runs nothing (its peers' sends to it
// deadlock the replay, or it silently drops out). smpirun -trace-ti writes "init" and "finalize" into every rank's
// file, so a file without them is a truncated or misplaced trace, not a rank that did nothing.
std::string no_action_reason(int rank);

class RankReader {
public:
  RankReader(std::string path, int rank, int nranks, std::size_t chunk = 16384);
  // The next action; false at the end of the file. Throws InputError naming the file and line, and naming the file
  // when it ends before its first action (no_action_reason).
  bool next(Action& a);
  std::uint64_t line() const { return line_; }
  const std::string& path() const { return path_; }

private:
  bool refill();  // false when nothing more could be read
  std::string path_;
  int rank_, nranks_;
  std::size_t chunk_;
  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t offset_ = 0, line_ = 0;  // file offset of buf_'s end; lines consumed
  std::uint64_t actions_ = 0;            // actions returned
  bool eof_ = false;
  std::uint32_t default_dt_ = 1;
};

}  // namespace ompisim::bench::ti
