// Reading an SMPI time-independent trace from its files (the format and the line parser: ti_trace.hpp): the index
// file's list of per-rank action files, and one rank's action file read lazily, one action at a time.
#pragma once
#include "benchmarks/replay/ti_trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::bench::ti {

// The index file: the action file of every rank (resolved paths). InputError(index, "", reason) for a missing or
// unreadable index, an empty one, a line too long, more than `max_ranks` lines or an action file that does not exist.
std::vector<std::string> read_index(const std::string& index, long long max_ranks);

// One rank's action file, read lazily through a small buffer: the file is opened for each refill and closed again
// (thousands of ranks never hold thousands of descriptors), so per-rank memory is the buffer (grown only for a
// longer line, up to kMaxLineBytes) and the current action.
class RankReader {
public:
  RankReader(std::string path, int rank, int nranks, std::size_t chunk = 16384);
  // The next action; false at the end of the file. Throws InputError naming the file and line.
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
  bool eof_ = false;
  std::uint32_t default_dt_ = 1;
};

}  // namespace ompisim::bench::ti
