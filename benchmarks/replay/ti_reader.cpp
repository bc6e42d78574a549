// See ti_reader.hpp.
#include "benchmarks/replay/ti_reader.hpp"

#include "core/errors.hpp"
#include "core/signals.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace ompisim::bench::ti {

namespace fs = std::filesystem;

std::string no_action_reason(int rank) {
  return fmt::format("rank {}'s action file holds no action, not even init or finalize (smpirun -trace-ti writes both "
                     "for every rank: a truncated or misplaced trace)", rank);
}

namespace {
// The folder's components are the first components of `p` (both canonical): a test on components, not on the text,
// so that /t/trace does not hold /t/trace2/x.
bool within(const fs::path& folder, const fs::path& p) {
  if (folder.empty() || p.empty()) return false;
  auto q = p.begin();
  for (const auto& f : folder) {
    if (q == p.end() || *q != f) return false;
    ++q;
  }
  return true;
}

// Where an index's action files may be: its folder (canonical, '..' and symbolic links followed), and each index
// line's candidate files in the order ti_trace.hpp gives. Canonical paths are made per folder, once for each run of
// lines in one folder (every rank's file of a recorded trace is in <index>_files/), and a file that is itself a
// symbolic link is followed.
class IndexFolder {
public:
  explicit IndexFolder(const std::string& index)
      : dir_(fs::path(index).parent_path()), files_dir_(fs::path(index + "_files")) {
    std::error_code ec;
    folder_ = fs::weakly_canonical(fs::absolute(dir_.empty() ? fs::path(".") : dir_, ec), ec);
    if (!folder_.has_filename() && folder_ != folder_.root_path()) folder_ = folder_.parent_path();
  }
  const fs::path& folder() const { return folder_; }
  // The index folder's, <index>_files/'s and (a relative line) the working directory's file of that name.
  std::vector<fs::path> candidates(const fs::path& p) const {
    if (p.is_absolute()) return {p, files_dir_ / p.filename()};
    return {dir_ / p, files_dir_ / p.filename(), p};
  }
  // `p` with '..' and every symbolic link resolved (`link`: p itself is one); empty when the system cannot say.
  fs::path canonical(const fs::path& p, bool link) {
    std::error_code ec;
    const fs::path name = p.filename();
    if (link || name.empty() || name == "." || name == "..") return fs::weakly_canonical(fs::absolute(p, ec), ec);
    const std::string parent = p.parent_path().string();
    if (parent != cached_parent_ || cached_.empty()) {
      cached_ = fs::weakly_canonical(fs::absolute(parent.empty() ? fs::path(".") : fs::path(parent), ec), ec);
      if (ec) cached_.clear();
      cached_parent_ = parent;
    }
    return cached_.empty() ? fs::path() : cached_ / name;
  }

private:
  fs::path dir_, files_dir_, folder_;
  std::string cached_parent_;
  fs::path cached_;
};

// The action file index line `n` (rank `rank`) names: the first candidate that is a file inside the index's folder.
// InputError naming the index and the line when a candidate is a file outside it, or when none is a file.
fs::path locate(IndexFolder& f, const std::string& index, std::uint64_t n, std::size_t rank, const std::string& line) {
  std::error_code ec;
  const std::vector<fs::path> cands = f.candidates(fs::path(line));
  fs::path outside;      // the first candidate that is a file outside the folder, as resolved
  fs::path not_regular;  // the first candidate that exists but is no regular file (a folder, a device, a FIFO)
  for (const fs::path& c : cands) {
    const fs::file_status st = fs::symlink_status(c, ec);  // one system call for a file that is no link
    const bool link = fs::is_symlink(st);
    if (!(link ? fs::is_regular_file(c, ec) : fs::is_regular_file(st))) {
      if (not_regular.empty() && fs::exists(link ? fs::status(c, ec) : st)) not_regular = c;
      continue;
    }
    const fs::path real = f.canonical(c, link);
    // The file checked is the file read: a path with '..' is read as resolved (lexically, "sub/../../x" is "x" in the
    // working directory, but through a symbolic link "sub" it is another file).
    if (!real.empty() && within(f.folder(), real))
      return std::find(c.begin(), c.end(), fs::path("..")) == c.end() ? c : real;
    if (outside.empty()) outside = real.empty() ? c : real;
  }
  if (!outside.empty())
    throw InputError(index, "", fmt::format("line {}: rank {}'s action file '{}' is {}, outside the trace's folder {} "
                                            "('..' and symbolic links followed): a trace's action files are in the "
                                            "folder of its index or below it", n, rank, line, outside.string(),
                                            f.folder().string()));
  // A line that cannot be a file name here is not shown: the "index" may be any readable file, and its lines are not
  // for the error stream.
  const bool name_like = line.size() <= 255 && std::all_of(line.begin(), line.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("._/+@-", ch) != nullptr;
  });
  if (!name_like)
    throw InputError(index, "", fmt::format("line {}: not the name of an action file (an index line is a file name of "
                                            "letters, digits and ._/+@-): is this file a trace index?", n));
  if (!not_regular.empty())
    throw InputError(index, "", fmt::format("line {}: rank {}'s action file '{}' is {}, which is not a regular file "
                                            "(a folder, a device or a pipe): an action file is a text file", n, rank,
                                            line, not_regular.string()));
  // Each place once (the index's folder and its _files folder name the same file when the line starts with the latter).
  std::vector<std::string> places;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    const std::string name = cands[i].string() + (i == 2 ? " in the working directory" : "");
    if (std::none_of(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(i),
                     [&](const fs::path& c) { return c == cands[i]; }))
      places.push_back(name);
  }
  std::string looked = places.front();
  for (std::size_t i = 1; i < places.size(); ++i) looked += (i + 1 == places.size() ? " and " : ", ") + places[i];
  throw InputError(index, "", fmt::format("line {}: rank {}'s action file '{}' not found (looked for {})", n, rank,
                                          line, looked));
}
}  // namespace

std::vector<std::string> read_index(const std::string& index, long long max_ranks) {
  std::error_code ec;
  if (!fs::is_regular_file(index, ec)) throw InputError(index, "", "the trace index is not a readable file");
  std::ifstream in(index);
  if (!in) throw InputError(index, "", "cannot open the trace index");
  IndexFolder folder(index);
  std::vector<std::string> out;
  std::string line;
  std::uint64_t n = 0;
  while (true) {
    line.clear();
    // Bounded getline: a line longer than 4 KiB is not a path.
    int c;
    bool any = false;
    while ((c = in.get()) != EOF && c != '\n') {
      any = true;
      if (line.size() >= 4096) throw InputError(index, "", fmt::format("line {}: longer than 4096 bytes (not a path)", n + 1));
      line.push_back(static_cast<char>(c));
    }
    if (!any && c == EOF) break;
    if ((++n & 0xfff) == 0) throw_if_interrupted();  // a large index stays interruptible
    // A path is handed to the system as a C string: a NUL would cut it to another file's name.
    if (line.find('\0') != std::string::npos)
      throw InputError(index, "", fmt::format("line {}: contains a NUL byte (not a text index)", n));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    line = line.substr(b);
    if (static_cast<long long>(out.size()) >= max_ranks)
      throw InputError(index, "", fmt::format("line {}: more than {} ranks", n, max_ranks));
    const fs::path found = locate(folder, index, n, out.size(), line);
    if (fs::file_size(found, ec) == 0 && !ec)  // before simulating (a file of blank lines: RankReader::next)
      throw InputError(found.lexically_normal().string(), "", no_action_reason(static_cast<int>(out.size())));
    out.push_back(found.lexically_normal().string());
    if (c == EOF) break;
  }
  if (out.empty()) throw InputError(index, "", "the trace index names no action file");
  return out;
}

namespace {
// Adds the communication actions of the complete lines of `text` to `c`, `scale` each. One pass over the bytes: a
// line's second field is its action's name.
void count_lines(std::string_view text, double scale, ActionCount& c) {
  const char* p = text.data();
  const char* const end = p + text.size();
  auto blank = [](char ch) { return ch == ' ' || ch == '\t'; };
  while (p < end) {
    while (p < end && blank(*p)) ++p;
    const bool comment = p < end && *p == '#';
    while (p < end && !blank(*p) && *p != '\n') ++p;  // the rank
    while (p < end && blank(*p)) ++p;
    const char* name = p;
    while (p < end && !blank(*p) && *p != '\n' && *p != '\r') ++p;
    const std::string_view n(name, static_cast<std::size_t>(p - name));
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));  // past the arguments
    p = nl ? static_cast<const char*>(nl) + 1 : end;
    Kind k{};
    if (comment || n.empty() || !kind_of(n, k)) continue;
    if (k == Kind::Send || k == Kind::Isend || k == Kind::SendRecv) c.sends += scale;
    else if (is_all_pairs(k)) c.all_pairs += scale;
    else if (is_collective(k)) c.collectives += scale;
  }
}
}  // namespace

ActionCount count_actions(const std::vector<std::string>& files, std::size_t max_files, std::size_t max_bytes) {
  ActionCount c;
  c.files = files.size();
  const std::size_t k = std::min(files.size(), std::max<std::size_t>(max_files, 1));
  if (k == 0) return c;
  const std::size_t budget = std::max(kCountFileBytes, max_bytes / k);
  c.bytes_per_file = budget;
  std::string buf;
  bool whole = k == files.size();
  for (std::size_t j = 0; j < k; ++j) {
    const std::string& path = files[static_cast<std::size_t>(static_cast<unsigned long long>(j) * files.size() / k)];
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      whole = false;
      continue;
    }
    buf.resize(budget);
    const std::size_t got = std::fread(buf.data(), 1, budget, f);
    const bool to_end = got < budget || std::fgetc(f) == EOF;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    std::fclose(f);
    std::string_view text(buf.data(), got);
    double scale = 1;
    if (!to_end) {
      const std::size_t last = text.rfind('\n');
      if (last == std::string_view::npos || ec) {  // one line longer than the budget, or no size: not counted
        whole = false;
        continue;
      }
      text = text.substr(0, last + 1);
      scale = static_cast<double>(size) / static_cast<double>(text.size());
      whole = false;
    }
    count_lines(text, scale, c);
    ++c.files_read;
  }
  if (c.files_read > 0 && c.files_read < c.files) {
    const double spread = static_cast<double>(c.files) / static_cast<double>(c.files_read);
    c.sends *= spread;
    c.collectives *= spread;
    c.all_pairs *= spread;
  }
  c.exact = whole && c.files_read == c.files;
  return c;
}

RankReader::RankReader(std::string path, int rank, int nranks, std::size_t chunk)
    : path_(std::move(path)), rank_(rank), nranks_(nranks), chunk_(std::max<std::size_t>(chunk, 256)), chunk0_(chunk_) {}

bool RankReader::refill() {
  if (eof_) return false;
  // Keep the unread tail, read one more chunk after it.
  buf_.erase(0, pos_);
  pos_ = 0;
  std::FILE* f = std::fopen(path_.c_str(), "rb");
  if (!f) throw InputError(path_, "", fmt::format("cannot open rank {}'s action file", rank_));
  if (std::fseek(f, static_cast<long>(offset_), SEEK_SET) != 0) {
    std::fclose(f);
    throw InputError(path_, "", fmt::format("cannot seek to byte {}", offset_));
  }
  std::size_t old = buf_.size();
  buf_.resize(old + chunk_);
  std::size_t got = std::fread(buf_.data() + old, 1, chunk_, f);
  std::fclose(f);
  buf_.resize(old + got);
  offset_ += got;
  if (got < chunk_) eof_ = true;
  return got > 0;
}

bool RankReader::next(Action& a) {
  while (true) {
    std::size_t nl = buf_.find('\n', pos_);
    while (nl == std::string::npos) {
      if (buf_.size() - pos_ > kMaxLineBytes)
        throw InputError(path_, "", fmt::format("line {}: longer than {} bytes", line_ + 1, kMaxLineBytes));
      std::size_t before = buf_.size() - pos_;
      if (!refill()) break;
      nl = buf_.find('\n', pos_ + before);
      if (nl == std::string::npos && buf_.size() - pos_ >= chunk_) chunk_ = std::min(chunk_ * 2, kMaxLineBytes + 1);
    }
    std::string_view line;
    if (nl == std::string::npos) {
      if (pos_ >= buf_.size()) {
        std::string().swap(buf_);  // done: free the buffer
        pos_ = 0;
        if (actions_ == 0) throw InputError(path_, "", no_action_reason(rank_));
        return false;
      }
      line = std::string_view(buf_).substr(pos_);
      pos_ = buf_.size();
    } else {
      line = std::string_view(buf_).substr(pos_, nl - pos_);
      pos_ = nl + 1;
    }
    ++line_;
    if (line.size() > kMaxLineBytes)
      throw InputError(path_, "", fmt::format("line {}: longer than {} bytes", line_, kMaxLineBytes));
    if (line.find('\0') != std::string_view::npos)
      throw InputError(path_, "", fmt::format("line {}: contains a NUL byte (not a text trace)", line_));
    const bool action = parse_line(line, rank_, nranks_, default_dt_, path_, line_, a);
    // A buffer grown for a long line (an alltoallv of many ranks, a long comment) to over 4 chunks shrinks after it:
    // per-rank memory stays a few chunks, however many ranks had one long line (a copy of the rest of the buffer, at
    // most a chunk, beside the line's own parse).
    if (buf_.capacity() > 4 * chunk0_ && buf_.size() - pos_ <= chunk0_) {
      buf_.erase(0, pos_);
      pos_ = 0;
      buf_.shrink_to_fit();
      chunk_ = chunk0_;
    }
    if (action) {
      ++actions_;
      return true;
    }
  }
}

}  // namespace ompisim::bench::ti
