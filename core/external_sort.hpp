// An external merge sort of text lines by key, in bounded memory: each line is kept with its sort key (time, phase,
// arrival number) in a chunk of at most `memory` bytes; a full chunk is sorted and appended as a sorted run to a
// spill file (created beside `path` and unlinked at once: nothing is left if the process dies); write_sorted() merges
// the runs (a small read buffer per run; past kMaxRuns runs they are first merged into one). Used by the Paje writer
// (core/trace_paje.cpp), whose events arrive out of time order.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ompisim {

class ExternalLineSort {
public:
  // `path`: where the spill file goes (beside it, "<path>.spill.XXXXXX"); `memory`: bytes of a chunk (at least 4 KiB).
  ExternalLineSort(std::string path, std::size_t memory);
  ~ExternalLineSort();
  ExternalLineSort(const ExternalLineSort&) = delete;
  ExternalLineSort& operator=(const ExternalLineSort&) = delete;
  // A line with its key: lines are written by time, then phase, then the order they were added.
  void add(double t, std::uint8_t phase, const std::string& line);
  // Every line added, in key order. std::runtime_error when the spill file cannot be written or read.
  void write_sorted(std::FILE* out);
  // The same, each line handed with its time to `put` (which writes it as it likes).
  void write_sorted(const std::function<void(double t, std::string_view line)>& put);
  std::uint64_t peak_bytes() const { return peak_; }    // the largest chunk held
  std::uint64_t runs_spilled() const { return runs_spilled_; }

private:
  // One line: its sort key and where it is in the chunk's arena (in the spill file: key, length, line).
  struct Rec {
    double t;
    std::uint64_t seq;
    std::uint32_t off, len;
    std::uint8_t phase;
  };
  struct Run {
    std::FILE* file;  // the spill file holding it
    long long off, end;
  };
  class Reader;
  static constexpr std::size_t kMaxRuns = 64;
  std::size_t chunk_bytes() const { return arena_.size() + recs_.size() * sizeof(Rec); }
  void sort_chunk();
  std::FILE* new_spill();
  void spill();
  void merge_runs();
  void check(std::FILE* f) const;

  std::string path_;
  std::size_t chunk_limit_;
  std::vector<Rec> recs_;
  std::string arena_;
  std::uint64_t seq_ = 0, peak_ = 0, runs_spilled_ = 0;
  std::FILE* spill_ = nullptr;
  std::vector<Run> runs_;
};

}  // namespace ompisim
