#include "core/external_sort.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <unistd.h>

namespace ompisim {

namespace {
constexpr std::size_t kRecHead = sizeof(double) + sizeof(std::uint64_t) + sizeof(std::uint8_t) + sizeof(std::uint32_t);

bool before(double ta, std::uint8_t pa, std::uint64_t sa, double tb, std::uint8_t pb, std::uint64_t sb) {
  return std::tie(ta, pa, sa) < std::tie(tb, pb, sb);
}

void put_rec(std::FILE* f, double t, std::uint8_t phase, std::uint64_t seq, const char* line, std::uint32_t len) {
  std::fwrite(&t, sizeof t, 1, f);
  std::fwrite(&seq, sizeof seq, 1, f);
  std::fwrite(&phase, sizeof phase, 1, f);
  std::fwrite(&len, sizeof len, 1, f);
  std::fwrite(line, 1, len, f);
}
}  // namespace

// Reads one run sequentially through a small buffer (pread: runs share their file).
class ExternalLineSort::Reader {
public:
  explicit Reader(const Run& r) : fd_(::fileno(r.file)), pos_(r.off), end_(r.end), buf_(1 << 16) {}
  bool next() {
    char head[kRecHead];
    if (!read(head, kRecHead)) return false;
    std::memcpy(&t, head, sizeof t);
    std::memcpy(&seq, head + 8, sizeof seq);
    std::memcpy(&phase, head + 16, sizeof phase);
    std::uint32_t len = 0;
    std::memcpy(&len, head + 17, sizeof len);
    line.resize(len);
    if (!read(line.data(), len)) throw std::runtime_error("trace spill file: a run ends inside a record");
    return true;
  }
  double t = 0;
  std::uint64_t seq = 0;
  std::uint8_t phase = 0;
  std::string line;

private:
  bool read(char* out, std::size_t n) {
    while (n > 0) {
      if (have_ == used_) {
        if (pos_ >= end_) return false;
        std::size_t want = static_cast<std::size_t>(std::min<long long>(static_cast<long long>(buf_.size()), end_ - pos_));
        ssize_t k = ::pread(fd_, buf_.data(), want, pos_);
        if (k <= 0) throw std::runtime_error(fmt::format("cannot read the trace's spill file: {}", std::strerror(errno)));
        pos_ += k, used_ = 0, have_ = static_cast<std::size_t>(k);
      }
      std::size_t c = std::min(n, have_ - used_);
      std::memcpy(out, buf_.data() + used_, c);
      out += c, n -= c, used_ += c;
    }
    return true;
  }
  int fd_;
  long long pos_, end_;
  std::vector<char> buf_;
  std::size_t used_ = 0, have_ = 0;
};

namespace {
// k-way merge of the runs in key order: out(reader) for each record.
template <class R, class Run, class Out>
void merge(const std::vector<Run>& runs, Out&& out) {
  std::vector<R> rd;
  rd.reserve(runs.size());
  for (auto& r : runs) rd.emplace_back(r);
  auto later = [&rd](std::size_t a, std::size_t b) {  // a heap of reader indices, smallest key on top
    return before(rd[b].t, rd[b].phase, rd[b].seq, rd[a].t, rd[a].phase, rd[a].seq);
  };
  std::vector<std::size_t> heap;
  for (std::size_t i = 0; i < rd.size(); ++i)
    if (rd[i].next()) heap.push_back(i);
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    R& r = rd[heap.back()];
    out(r);
    if (r.next()) std::push_heap(heap.begin(), heap.end(), later);
    else heap.pop_back();
  }
}
}  // namespace

ExternalLineSort::ExternalLineSort(std::string path, std::size_t memory)
    : path_(std::move(path)), chunk_limit_(std::max<std::size_t>(memory, 4096)) {}

ExternalLineSort::~ExternalLineSort() {
  if (spill_) std::fclose(spill_);
}

void ExternalLineSort::add(double t, std::uint8_t phase, const std::string& line) {
  if (chunk_bytes() + line.size() + sizeof(Rec) > chunk_limit_ && !recs_.empty()) spill();
  recs_.push_back({t, seq_++, static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(line.size()), phase});
  arena_ += line;
  peak_ = std::max<std::uint64_t>(peak_, chunk_bytes());
}

void ExternalLineSort::sort_chunk() {
  std::sort(recs_.begin(), recs_.end(),
            [](const Rec& a, const Rec& b) { return before(a.t, a.phase, a.seq, b.t, b.phase, b.seq); });
}

std::FILE* ExternalLineSort::new_spill() {
  std::string tmpl = path_ + ".spill.XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", tmpl, std::strerror(errno)));
  ::unlink(tmpl.c_str());  // anonymous from now on: the space is freed when it is closed, or when the process dies
  std::FILE* f = ::fdopen(fd, "w+");
  if (!f) {
    ::close(fd);
    throw std::runtime_error("cannot open the trace's spill file");
  }
  return f;
}

void ExternalLineSort::check(std::FILE* f) const {
  if (std::fflush(f) != 0 || std::ferror(f))
    throw std::runtime_error(fmt::format("cannot write the spill file of {}: {}", path_, std::strerror(errno)));
}

// The chunk, sorted, becomes a run at the end of the spill file.
void ExternalLineSort::spill() {
  if (recs_.empty()) return;
  if (!spill_) spill_ = new_spill();
  sort_chunk();
  std::fseek(spill_, 0, SEEK_END);
  const long long start = std::ftell(spill_);
  for (auto& r : recs_) put_rec(spill_, r.t, r.phase, r.seq, arena_.data() + r.off, r.len);
  check(spill_);
  runs_.push_back({spill_, start, std::ftell(spill_)});
  ++runs_spilled_;
  recs_.clear();
  recs_.shrink_to_fit();
  arena_.clear();
  arena_.shrink_to_fit();
  if (runs_.size() >= kMaxRuns) merge_runs();
}

// The runs merged into one run of a new spill file; the old one is freed.
void ExternalLineSort::merge_runs() {
  std::FILE* next = new_spill();
  merge<Reader>(runs_, [&](const Reader& r) {
    put_rec(next, r.t, r.phase, r.seq, r.line.data(), static_cast<std::uint32_t>(r.line.size()));
  });
  check(next);
  std::fclose(spill_);
  spill_ = next;
  runs_.assign(1, Run{next, 0, std::ftell(next)});
}

void ExternalLineSort::write_sorted(std::FILE* out) {
  write_sorted([out](double, std::string_view line) { std::fwrite(line.data(), 1, line.size(), out); });
}

void ExternalLineSort::write_sorted(const std::function<void(double t, std::string_view line)>& put) {
  if (runs_.empty()) {  // everything fits in one chunk: sorted and written directly
    sort_chunk();
    for (auto& r : recs_) put(r.t, std::string_view(arena_.data() + r.off, r.len));
    return;
  }
  spill();
  merge<Reader>(runs_, [&put](const Reader& r) { put(r.t, r.line); });
}

}  // namespace ompisim
