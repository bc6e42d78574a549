// Reading an SMPI time-independent trace from its files (the format and the line parser: ti_trace.hpp): the index
// file's list of per-rank action files, and one rank's action file read lazily, one action at a time.
#pragma once
#include "benchmarks/replay/ti_trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::bench::ti {

// The index file: the action file of every rank (resolved paths, ti_trace.hpp). InputError(index, "", reason) for a
// missing or unreadable index, an empty one, a line too long, more than `max_ranks` lines, an action file that does
// not exist or one outside the index's folder;
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

// The communication actions of a trace, counted for the run's cost estimate (runner/estimate.hpp) from the action
// files' text: a line's second field names its action, no argument is read. Bounded: at most kCountFiles files are
// opened (every rank's, else kCountFiles ranks evenly spaced) and at most max(kCountFileBytes, kCountBytes / files)
// bytes of each are read; a file read in part is counted in its complete lines and scaled by its size over the bytes
// counted, and the files not read by the rank count over the files read. Never throws on I/O: a file that cannot be
// opened is not counted (the replay's own parse and reader report it); nothing read gives files_read 0. Cost:
// bench/replay_bench.sh's 1,024-rank, 10 M-action trace (203 MB; 16 KiB of each file read) adds about 33 ms of CPU to
// a run (median of 15 paired whole-process runs refused by --max-events, 0.114 s against 0.081 s, load 2-4).
struct ActionCount {
  double sends = 0;        // send, isend and sendRecv: one message each
  double collectives = 0;  // collective calls but the all-pairs ones
  double all_pairs = 0;    // alltoall, alltoallv, allgather, allgatherv calls (is_all_pairs)
  std::size_t files = 0, files_read = 0;  // the trace's action files, those read (in full or in part)
  std::size_t bytes_per_file = 0;         // the most read of each file
  bool exact = false;                     // every file read to its end: the counts are the trace's
  double actions() const { return sends + collectives + all_pairs; }
};
constexpr std::size_t kCountFiles = 1024;
constexpr std::size_t kCountBytes = 16u << 20;
constexpr std::size_t kCountFileBytes = 16u << 10;
ActionCount count_actions(const std::vector<std::string>& files, std::size_t max_files = kCountFiles,
                          std::size_t max_bytes = kCountBytes);

class RankReader {
public:
  RankReader(std::string path, int rank, int nranks, std::size_t chunk = 16384);
  // The next action; false at the end of the file. Throws InputError naming the file and line, and naming the file
  // when it ends before its first action (no_action_reason).
  bool next(Action& a);
  std::uint64_t line() const { return line_; }
  const std::string& path() const { return path_; }
  // Bytes its buffer holds (for tests of the per-rank bound).
  std::size_t buffer_bytes() const { return buf_.capacity(); }

private:
  bool refill();  // false when nothing more could be read
  std::string path_;
  int rank_, nranks_;
  std::size_t chunk_;
  std::size_t chunk0_;  // the chunk it was made with: a buffer grown for a long line goes back to it after the line
  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t offset_ = 0, line_ = 0;  // file offset of buf_'s end; lines consumed
  std::uint64_t actions_ = 0;            // actions returned
  bool eof_ = false;
  std::uint32_t default_dt_ = 1;
};

}  // namespace ompisim::bench::ti
