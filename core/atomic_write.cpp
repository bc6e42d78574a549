#include "core/atomic_write.hpp"

#include "core/errors.hpp"
#include "core/safe_name.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <utility>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ompisim {

namespace {
std::string temp_for(const std::string& path) {
  static unsigned counter = 0;
  return fmt::format("{}.tmp.{}.{}", path, static_cast<long>(getpid()), counter++);
}

// A file that cannot be written (a full disk, a quota, a read-only or vanished folder) is the output place's fault,
// not the program's: InputError (exit 2) naming the result file, with nothing already there replaced.
[[noreturn]] void cannot(const std::string& path, const std::string& what, int err) {
  throw InputError(path, "", fmt::format("cannot {}: {} (nothing already there was replaced)", what, std::strerror(err)));
}

void write_temp(const std::string& tmp, const std::string& path, const std::string& text) {
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) cannot(path, fmt::format("create its temporary {}", tmp), errno);
  std::size_t off = 0;
  while (off < text.size()) {
    ssize_t k = ::write(fd, text.data() + off, text.size() - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      int e = k == 0 ? EIO : errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      cannot(path, "write it", e);
    }
    off += static_cast<std::size_t>(k);
  }
  if (::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    cannot(path, "write it", e);
  }
}

void rename_into_place(const std::string& tmp, const std::string& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    cannot(path, fmt::format("rename {} to it", tmp), e);
  }
}

// A temporary's file name split into the file it was for and its writer's pid: "<name>.tmp.<pid>.<n>" (temp_for) or
// "<name>.tmp.<pid>" (a trace written by a simulation process, core/signals.hpp); pid 0 when the name is neither.
std::pair<std::string, long> temp_of(const std::string& name) {
  const std::size_t at = name.rfind(".tmp.");
  if (at == std::string::npos || at == 0) return {"", 0};
  const std::string tail = name.substr(at + 5);
  const std::size_t dot = tail.find('.');
  auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 18 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string pid = tail.substr(0, dot);
  if (!digits(pid) || (dot != std::string::npos && !digits(tail.substr(dot + 1)))) return {"", 0};
  return {name.substr(0, at), std::stol(pid)};
}

// The temporaries in `dir` whose writer no longer runs (killed between a write and its rename: SIGKILL, a crash, a
// power cut), by the name of the file each was for; the folder is read once per process (a sweep writes thousands
// of points into one folder), later calls take from that list.
std::multimap<std::string, std::string>& stale_temps_in(const fs::path& dir) {
  static std::map<std::string, std::multimap<std::string, std::string>> found;
  auto [it, fresh] = found.try_emplace(dir.string());
  if (!fresh) return it->second;
  std::error_code ec;
  for (fs::directory_iterator d(dir.empty() ? fs::path(".") : dir, ec), end; !ec && d != end; d.increment(ec)) {
    const auto [file, pid] = temp_of(d->path().filename().string());
    if (pid <= 0 || pid == static_cast<long>(getpid())) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // it runs (or is not ours to ask)
    it->second.emplace(file, d->path().string());
  }
  return it->second;
}
}  // namespace

void remove_stale_temporaries(const std::string& path) {
  static std::mutex m;
  std::lock_guard<std::mutex> g(m);
  const fs::path p(path);
  auto& stale = stale_temps_in(p.parent_path());
  auto [first, last] = stale.equal_range(p.filename().string());
  for (auto it = first; it != last; ++it) {
    struct stat st{};
    if (::lstat(it->second.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(it->second.c_str());
  }
  stale.erase(first, last);
}

namespace {
void ensure_parent(const std::string& path, bool remove_stale = true) {
  fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) cannot(path, fmt::format("create its folder {}", p.parent_path().string()), ec.value());
  if (remove_stale) remove_stale_temporaries(path);
}

// Holds an exclusive lock on a result's folder while a pair is published, so that two runs writing the same result
// at once leave one run's CSV and JSON, not one of each (flock on the folder itself: no lock file is left behind).
class FolderLock {
public:
  explicit FolderLock(const std::string& path) {
    fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

private:
  int fd_ = -1;
};
}  // namespace

void write_file_atomic(const std::string& path, const std::string& text, bool remove_stale) {
  ensure_parent(path, remove_stale);
  std::string tmp = temp_for(path);
  write_temp(tmp, path, text);
  rename_into_place(tmp, path);
}

void publish_pair(const std::string& json_path, const std::string& json_text, const std::string& csv_path,
                  const std::string& csv_text, const std::function<void()>& between) {
  ensure_parent(json_path);
  ensure_parent(csv_path);
  std::string tj = temp_for(json_path), tc = temp_for(csv_path);
  write_temp(tc, csv_path, csv_text);
  try {
    write_temp(tj, json_path, json_text);
  } catch (...) {
    ::unlink(tc.c_str());
    throw;
  }
  FolderLock lock(json_path);
  try {
    if (::unlink(json_path.c_str()) != 0 && errno != ENOENT)  // the old marker goes first
      cannot(json_path, "replace it", errno);
    rename_into_place(tc, csv_path);
    if (between) between();
  } catch (...) {
    ::unlink(tc.c_str());
    ::unlink(tj.c_str());
    throw;
  }
  rename_into_place(tj, json_path);
}

void check_output_path(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(option, path, "empty path");
  fs::path p(path);
  if (p.filename().string().starts_with("-"))
    throw InputError(option, path, "the file name starts with '-', which the tools that read it (gnuplot, a shell's rm) "
                                   "take for an option: name it otherwise");
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(option, path, fmt::format("folder '{}' does not exist", dir.string()));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(option, path, fmt::format("folder '{}' is not writable: {}", dir.string(), std::strerror(errno)));
  struct stat st{};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw InputError(option, path, "is a symbolic link: refusing to replace it (give its target instead)");
    if (S_ISDIR(st.st_mode)) throw InputError(option, path, "is a folder, expected a file name");
    // a FIFO, a socket, a device (/dev/null): a rename would replace the node itself, not write into it
    if (!S_ISREG(st.st_mode))
      throw InputError(option, path, "is not a regular file (a FIFO, socket or device): refusing to replace it");
  } else if (errno != ENOENT) {  // a name the file system refuses (too long for it, ...): no file can be written there
    throw InputError(option, path, fmt::format("cannot be written: {}", std::strerror(errno)));
  }
}

OutputDir::OutputDir(const std::string& dir, const std::string& option) : option_(option), given_(dir) {
  auto bad = [&](const std::string& why) { throw InputError(option_, given_, why); };
  if (dir.empty()) bad("empty folder name");
  std::error_code ec;
  fs::file_status st = fs::status(dir, ec);  // follows a symlinked --out (resolved once, here)
  if (!fs::exists(st) && fs::is_symlink(fs::symlink_status(dir, ec)))
    bad(fmt::format("a symbolic link to '{}', which does not exist: create that folder or give another",
                    fs::read_symlink(dir, ec).string()));
  if (!fs::exists(st)) {
    fs::path top = fs::absolute(fs::path(dir), ec).lexically_normal();  // the outermost folder about to be created
    for (fs::path up = top.parent_path(); !up.empty() && up != up.parent_path() && !fs::exists(up, ec);
         up = up.parent_path()) {
      // a folder on the way that is a dangling symbolic link: no folder can be made below it
      if (fs::is_symlink(fs::symlink_status(up, ec)))
        bad(fmt::format("'{}' on its way is a symbolic link to '{}', which does not exist: create that folder or "
                        "give another",
                        up.string(), fs::read_symlink(up, ec).string()));
      top = up;
    }
    top_created_ = top.string();
    fs::create_directories(dir, ec);
    if (ec) bad(fmt::format("cannot create the output folder: {}", ec.message()));
    created_ = true;
  } else if (!fs::is_directory(st)) {
    bad("exists and is not a folder");
  }
  root_ = fs::canonical(dir, ec).string();
  if (ec) bad(fmt::format("cannot resolve the output folder: {}", ec.message()));
  std::string probe = fmt::format("{}/.ompisim-probe.{}", root_, static_cast<long>(getpid()));
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int e = errno;
    discard_if_unused();
    bad(fmt::format("the output folder is not writable: {}", std::strerror(e)));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string OutputDir::file(const std::string& rel, const std::string& option) const {
  const std::string& opt = option.empty() ? option_ : option;
  if (rel.empty() || rel.front() == '/') throw InputError(opt, rel, "output path must be relative to the output folder");
  // Every component's name is checked before any folder is made: a refused path leaves nothing behind.
  for (std::size_t at = 0;;) {
    const std::size_t slash = rel.find('/', at);
    check_safe_file_name(rel.substr(at, slash == std::string::npos ? std::string::npos : slash - at), opt, rel);
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  std::string cur = root_;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = rel.find('/', start);
    cur += "/" + rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    struct stat st{};
    bool exists = ::lstat(cur.c_str(), &st) == 0;
    if (slash == std::string::npos) {
      if (exists && S_ISDIR(st.st_mode)) throw InputError(opt, cur, "is a folder, expected a result file");
      if (exists && S_ISLNK(st.st_mode))
        throw InputError(opt, cur, "is a symbolic link: refusing to replace it (write to its target instead)");
      if (exists && !S_ISREG(st.st_mode))
        throw InputError(opt, cur, "is not a regular file (a FIFO, socket or device): refusing to replace it");
      break;
    }
    if (exists && S_ISLNK(st.st_mode))
      throw InputError(opt, cur, "is a symbolic link inside the output folder: refusing to follow it out");
    if (exists && !S_ISDIR(st.st_mode)) throw InputError(opt, cur, "exists and is not a folder");
    if (!exists && ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
      throw InputError(opt, cur, fmt::format("cannot create folder: {}", std::strerror(errno)));
    start = slash + 1;
  }
  // Belt and braces: the folder that will hold the file resolves inside root.
  std::error_code ec;
  std::string parent = fs::canonical(fs::path(cur).parent_path(), ec).string();
  if (ec || (parent != root_ && parent.rfind(root_ + "/", 0) != 0))
    throw InputError(opt, cur, "resolves outside the output folder " + root_);
  return cur;
}

void OutputDir::discard_if_unused() const {
  std::error_code ec;
  for (const auto& d : created_folders())  // innermost first: a folder still holding something keeps its parents
    if (!fs::is_directory(d, ec) || !fs::is_empty(d, ec) || !fs::remove(d, ec)) break;
}

std::vector<std::string> OutputDir::created_folders() const {
  std::vector<std::string> out;
  if (!created_) return out;
  std::error_code ec;
  out.push_back(root_.empty() ? given_ : root_);
  if (top_created_.empty()) return out;
  // every parent this object created with the folder (ompisim-out/ of a default ompisim-out/<id>/)
  fs::path p = fs::absolute(fs::path(given_), ec).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  for (p = p.parent_path(); p.string().size() >= top_created_.size() && p != p.parent_path(); p = p.parent_path())
    out.push_back(p.string());
  return out;
}

}  // namespace ompisim
