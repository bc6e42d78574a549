// What the trace writers (core/trace_chrome.cpp, core/trace_paje.cpp) share: the temporary file a trace is written
// to and renamed from, JSON string escaping, and small indices for NIC engine names. Internal to core/.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace ompisim::trace_io {

// A temporary beside the destination, created exclusively (never through a symlink), renamed into place by commit();
// removed if never committed.
class TempFile {
public:
  explicit TempFile(std::string path) : path_(std::move(path)), tmp_(fmt::format("{}.tmp.{}", path_, static_cast<long>(getpid()))) {
    int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", tmp_, std::strerror(errno)));
    f_ = ::fdopen(fd, "w");
    if (!f_) {
      ::close(fd);
      ::unlink(tmp_.c_str());
      throw std::runtime_error(fmt::format("cannot open {}", tmp_));
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (f_) std::fclose(f_);
    if (!committed_) ::unlink(tmp_.c_str());
  }
  std::FILE* get() { return f_; }
  void commit() {
    bool bad = std::ferror(f_) != 0;
    bad = std::fclose(f_) != 0 || bad;
    f_ = nullptr;
    if (bad) throw std::runtime_error(fmt::format("cannot write {}: {}", tmp_, std::strerror(errno)));
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
      throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", tmp_, path_, std::strerror(errno)));
    committed_ = true;
  }

private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  bool committed_ = false;
};

inline std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += fmt::format("\\u{:04x}", static_cast<int>(c));
    else o += c;
  }
  return o;
}

// Engine names ("FMA", "BTE", ...) to small indices, in order of first use.
class Interned {
public:
  int id(const char* s) {
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == s) return static_cast<int>(i);
    names_.emplace_back(s);
    return static_cast<int>(names_.size() - 1);
  }
  const std::string& name(int i) const { return names_[static_cast<std::size_t>(i)]; }

private:
  std::vector<std::string> names_;
};

}  // namespace ompisim::trace_io
