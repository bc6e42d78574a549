#include "core/trace_file.hpp"

#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/units.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>
#include <stdexcept>
#include <sys/stat.h>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ompisim {

namespace {

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

std::string json_escape(const std::string& s) {
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

// ---------------------------------------------------------------------------------------------------------------------
// Chrome trace-event JSON. Times in microseconds. pid: the node (kFabricPid for bulk flows); tid: the execution
// context, or kEngineTid + engine index for a NIC engine.
class ChromeJson final : public TraceSink {
public:
  explicit ChromeJson(const std::string& path) : file_(path) { std::fputs("{\"traceEvents\":[\n", file_.get()); }

  void finish() override {
    std::FILE* f = file_.get();
    for (auto node : nodes_)
      event(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"node {}"}}}})", node, node));
    for (auto [node, ctx, rank] : contexts_)
      event(fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{}"}}}})", node, ctx,
                        ctx == rank ? fmt::format("rank {}", rank) : fmt::format("rank {} thread {}", rank, ctx)));
    for (auto [node, e] : engines_)
      event(fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"NIC {}"}}}})", node,
                        kEngineTid + e, json_escape(engine_names_.name(e))));
    if (counts.flows) event(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"bulk flows"}}}})", kFabricPid));
    if (counts.link_changes)
      event(fmt::format(R"x({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"link sharing (flows in flight)"}}}})x",
                        kLinkPid));
    std::fprintf(f,
                 "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ompisim\",\"cpu_spans\":%llu,"
                 "\"nic_spans\":%llu,\"flows\":%llu,\"messages\":%llu,\"amos\":%llu,\"link_changes\":%llu,"
                 "\"ranks\":\"%s\"}}\n",
                 static_cast<unsigned long long>(counts.cpu), static_cast<unsigned long long>(counts.nic),
                 static_cast<unsigned long long>(counts.flows), static_cast<unsigned long long>(counts.messages),
                 static_cast<unsigned long long>(counts.amos), static_cast<unsigned long long>(counts.link_changes),
                 filter.ranks.empty() ? "all" : "subset");
    file_.commit();
  }

protected:
  void write_cpu(int ctx, int rank, long long node, double start, double end, const char* what) override {
    contexts_.insert({node, ctx, rank});
    nodes_.insert(node);
    event(fmt::format(R"({{"ph":"X","cat":"cpu","name":"{}","pid":{},"tid":{},"ts":{:.6f},"dur":{:.6f}}})", what, node,
                      ctx, us(start), us(end - start)));
  }
  void write_nic(long long node, const char* engine, double start, double end, const char* what) override {
    int e = engine_names_.id(engine);
    engines_.insert({node, e});
    nodes_.insert(node);
    event(fmt::format(R"({{"ph":"X","cat":"nic","name":"{}","pid":{},"tid":{},"ts":{:.6f},"dur":{:.6f}}})", what, node,
                      kEngineTid + e, us(start), us(end - start)));
  }
  void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links) override {
    ++flow_id_;
    std::string args = fmt::format(R"({{"bytes":{:.0f},"src_node":{},"dst_node":{},"resources":"{}"}})", bytes, src,
                                   dst, json_escape(links));
    event(fmt::format(R"({{"ph":"b","cat":"flow","name":"flow {:.0f} B","id":{},"pid":{},"tid":0,"ts":{:.6f},"args":{}}})",
                      bytes, flow_id_, kFabricPid, us(start), args));
    event(fmt::format(R"({{"ph":"e","cat":"flow","name":"flow {:.0f} B","id":{},"pid":{},"tid":0,"ts":{:.6f}}})", bytes,
                      flow_id_, kFabricPid, us(end)));
  }
  // A counter track per resource ("C" events), in the link-sharing process.
  void write_link_load(std::uint32_t, const std::string& name, double t, int flows) override {
    event(fmt::format(R"({{"ph":"C","cat":"link","name":"{}","pid":{},"tid":0,"ts":{:.6f},"args":{{"flows":{}}}}})",
                      json_escape(name), kLinkPid, us(t), flows));
  }
  void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) override {
    arrow("message", fmt::format("send {} B tag {}", bytes, tag), fmt::format("match {} B tag {}", bytes, tag), src,
          dst, sent, matched, fmt::format(R"({{"bytes":{},"tag":{},"src":{},"dst":{}}})", bytes, tag, src, dst));
  }
  void write_amo(int src, int dst, double start, double at_target) override {
    arrow("amo", "AMO issue", "AMO at target", src, dst, start, at_target,
          fmt::format(R"({{"src":{},"dst":{}}})", src, dst));
  }

private:
  static constexpr long long kFabricPid = 1'000'000'000, kLinkPid = 1'000'000'001;
  static constexpr int kEngineTid = 100'000'000;
  static double us(double s) { return s * 1e6; }
  void event(const std::string& e) {
    std::FILE* f = file_.get();
    if (!first_) std::fputs(",\n", f);
    first_ = false;
    std::fputs(e.c_str(), f);
  }
  // A zero-length slice at each end (flow events bind to the slice enclosing them) and the flow arrow between them.
  void arrow(const char* cat, const std::string& from, const std::string& to, int src, int dst, double t0, double t1,
             const std::string& args) {
    ++arrow_id_;
    long long ns = node_of(src), nd = node_of(dst);
    nodes_.insert(ns), nodes_.insert(nd);
    contexts_.insert({ns, src, src}), contexts_.insert({nd, dst, dst});
    event(fmt::format(R"({{"ph":"X","cat":"{}","name":"{}","pid":{},"tid":{},"ts":{:.6f},"dur":0,"args":{}}})", cat, from,
                      ns, src, us(t0), args));
    event(fmt::format(R"({{"ph":"s","cat":"{}","name":"{}","id":{},"pid":{},"tid":{},"ts":{:.6f}}})", cat, cat,
                      arrow_id_, ns, src, us(t0)));
    event(fmt::format(R"({{"ph":"X","cat":"{}","name":"{}","pid":{},"tid":{},"ts":{:.6f},"dur":0,"args":{}}})", cat, to,
                      nd, dst, us(t1), args));
    event(fmt::format(R"({{"ph":"f","bp":"e","cat":"{}","name":"{}","id":{},"pid":{},"tid":{},"ts":{:.6f}}})", cat, cat,
                      arrow_id_, nd, dst, us(t1)));
  }
  TempFile file_;
  bool first_ = true;
  std::uint64_t flow_id_ = 0, arrow_id_ = 0;
  Interned engine_names_;
  std::set<long long> nodes_;
  std::set<std::tuple<long long, int, int>> contexts_;
  std::set<std::pair<long long, int>> engines_;
};

// ---------------------------------------------------------------------------------------------------------------------
// Paje. Event numbers as SimGrid's own traces use them; strings always quoted.
const char* kPajeHeader = R"(%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineVariableType 1
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineStateType 2
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 3
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineLinkType 4
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeCreateContainer 6
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetVariable 8
%       Time date
%       Type string
%       Container string
%       Value double
%EndEventDef
%EventDef PajePushState 12
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 13
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 15
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 16
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
0 N 0 "Node"
0 R N "Execution context"
0 E N "NIC engine"
0 L 0 "Resource"
1 FLOWS L "Flows in flight" "1 0 0"
2 CPU R "CPU"
2 ENG E "NIC engine state"
4 MSG 0 R R "MPI message"
4 AMO 0 R R "Remote atomic"
4 FLOW 0 N N "Bulk flow"
)";

// Paje needs its events in time order, and the models report them out of order (a CPU span when it is scheduled, which
// may be in the future; a flow, a message or a BTE span when it ends, with its start in the past). Each event is
// formatted into its line at once and kept with its sort key (time, phase, arrival number) in a chunk of bounded size;
// a full chunk is sorted and appended as a sorted run to a spill file (created beside the trace and unlinked at once:
// nothing is left if the process dies); finish() writes the header and the containers, then merges the runs into the
// trace (a small read buffer per run; past kMaxRuns runs they are first merged into one). Memory: the chunk, the
// buffers, and the containers (per traced rank, node, NIC engine and resource), whatever the run's length.
class Paje final : public TraceSink {
public:
  Paje(const std::string& path, std::size_t memory) : path_(path), file_(path), chunk_limit_(std::max<std::size_t>(memory, 4096)) {}
  ~Paje() override {
    if (spill_) std::fclose(spill_);
  }

  void finish() override {
    std::FILE* f = file_.get();
    std::fputs(kPajeHeader, f);
    // Each state a colour of its own (ViTE draws a state without a defined value in black), the same name the same
    // colour in every trace.
    std::size_t v = 0;
    for (auto& [type, name] : state_values_)
      std::fprintf(f, "3 v%zu %s %s \"%s\"\n", v++, type.c_str(), quote(name).c_str(), state_colour(name).c_str());
    for (auto n : nodes_) std::fprintf(f, "6 0 %s N 0 \"%s\"\n", node(n).c_str(), node_name(n).c_str());
    for (auto [n, ctx, rank] : contexts_)
      std::fprintf(f, "6 0 c%d R %s \"%s\"\n", ctx, node(n).c_str(),
                   (ctx == rank ? fmt::format("rank {}", rank) : fmt::format("rank {} thread {}", rank, ctx)).c_str());
    for (std::size_t i = 0; i < engines_.size(); ++i)
      std::fprintf(f, "6 0 e%zu E %s \"%s %s\"\n", i, node(engines_[i].first).c_str(), node_name(engines_[i].first).c_str(),
                   engine_names_.name(engines_[i].second).c_str());
    for (auto& [id, name] : resources_) std::fprintf(f, "6 0 r%u L 0 %s\n", id, quote(name).c_str());
    if (runs_.empty()) {  // everything fits in one chunk: sorted and written directly
      sort_chunk();
      for (auto& r : recs_) std::fwrite(arena_.data() + r.off, 1, r.len, f);
    } else {
      spill();
      merge(runs_, [f](const char* line, std::size_t n) { std::fwrite(line, 1, n, f); });
    }
    for (std::size_t i = 0; i < engines_.size(); ++i) std::fprintf(f, "7 %.12f E e%zu\n", end_, i);
    for (auto [n, ctx, rank] : contexts_) std::fprintf(f, "7 %.12f R c%d\n", end_, ctx);
    for (auto& [id, name] : resources_) std::fprintf(f, "7 %.12f L r%u\n", end_, id);
    for (auto n : nodes_) std::fprintf(f, "7 %.12f N %s\n", end_, node(n).c_str());
    file_.commit();
  }

protected:
  void write_cpu(int ctx, int rank, long long n, double start, double end, const char* what) override {
    contexts_.insert({n, ctx, rank});
    nodes_.insert(n);
    span("CPU", fmt::format("c{}", ctx), start, end, what);
  }
  void write_nic(long long n, const char* eng, double start, double end, const char* what) override {
    const int e = engine_names_.id(eng);
    auto [it, added] = engine_slot_.try_emplace({n, e}, static_cast<int>(engines_.size()));
    if (added) engines_.emplace_back(n, e);
    nodes_.insert(n);
    span("ENG", fmt::format("e{}", it->second), start, end, what);
  }
  void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links) override {
    nodes_.insert(src), nodes_.insert(dst);
    link("FLOW", node(src), node(dst), start, end, fmt::format("{:.0f} B over {}", bytes, links));
  }
  void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) override {
    rank_link("MSG", src, dst, sent, matched, fmt::format("{} B tag {}", bytes, tag));
  }
  void write_amo(int src, int dst, double start, double at_target) override {
    rank_link("AMO", src, dst, start, at_target, "AMO");
  }
  void write_link_load(std::uint32_t id, const std::string& name, double t, int flows) override {
    if (!resources_.count(id)) resources_.emplace(id, name);
    add(t, 1, fmt::format("8 {:.12f} FLOWS r{} {}\n", t, id, flows));
  }

private:
  // One event: its sort key and where its line is in the chunk's arena (in the spill file: key, length, line).
  struct Rec {
    double t;
    std::uint64_t seq;
    std::uint32_t off, len;
    std::uint8_t phase;  // order at equal times: spans that end, then starts, then links' ends, then zero-length ends
  };
  static constexpr std::size_t kRecHead = sizeof(double) + sizeof(std::uint64_t) + sizeof(std::uint8_t) + sizeof(std::uint32_t);
  static constexpr std::size_t kMaxRuns = 64;
  struct Run {
    std::FILE* file;  // the spill file holding it
    long long off, end;
  };
  static bool before(double ta, std::uint8_t pa, std::uint64_t sa, double tb, std::uint8_t pb, std::uint64_t sb) {
    return std::tie(ta, pa, sa) < std::tie(tb, pb, sb);
  }

  static std::string node(long long n) { return n < 0 ? std::string("fabric") : fmt::format("n{}", n); }
  static std::string node_name(long long n) { return n < 0 ? std::string("fabric") : fmt::format("node {}", n); }
  static std::string quote(const std::string& v) {
    std::string q = "\"";
    for (char c : v) q += c == '"' ? '\'' : c == '\n' ? ' ' : c;
    return q + "\"";
  }
  // A colour from the state's name (FNV-1a, hue from the hash, fixed saturation and value): "r g b" in [0, 1].
  static std::string state_colour(const std::string& name) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
    const double hue = static_cast<double>(h % 3600) / 600.0, sat = 0.65, val = 0.9;  // hue in [0, 6)
    const double c = val * sat, x = c * (1 - std::fabs(std::fmod(hue, 2.0) - 1)), m = val - c;
    double r = 0, g = 0, b = 0;
    switch (static_cast<int>(hue)) {
      case 0: r = c, g = x; break;
      case 1: r = x, g = c; break;
      case 2: g = c, b = x; break;
      case 3: g = x, b = c; break;
      case 4: r = x, b = c; break;
      default: r = c, b = x; break;
    }
    return fmt::format("{:.3f} {:.3f} {:.3f}", r + m, g + m, b + m);
  }
  void span(const char* type, const std::string& c, double start, double end, const char* what) {
    state_values_.emplace(type, what);
    add(start, 1, fmt::format("12 {:.12f} {} {} {}\n", start, type, c, quote(what)));
    add(end, end > start ? 0 : 3, fmt::format("13 {:.12f} {} {}\n", end, type, c));
  }
  void rank_link(const char* type, int src, int dst, double t0, double t1, const std::string& value) {
    long long ns = node_of(src), nd = node_of(dst);
    nodes_.insert(ns), nodes_.insert(nd);
    contexts_.insert({ns, src, src}), contexts_.insert({nd, dst, dst});
    link(type, fmt::format("c{}", src), fmt::format("c{}", dst), t0, t1, value);
  }
  void link(const char* type, const std::string& from, const std::string& to, double t0, double t1, const std::string& value) {
    ++key_;
    const std::string v = quote(value);
    add(t0, 1, fmt::format("15 {:.12f} {} 0 {} {} k{}\n", t0, type, v, from, key_));
    add(t1, 2, fmt::format("16 {:.12f} {} 0 {} {} k{}\n", t1, type, v, to, key_));
  }
  void add(double t, std::uint8_t phase, const std::string& line) {
    end_ = std::max(end_, t);
    if (chunk_bytes() + line.size() + sizeof(Rec) > chunk_limit_ && !recs_.empty()) spill();
    recs_.push_back({t, seq_++, static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(line.size()), phase});
    arena_ += line;
    counts.peak_buffer_bytes = std::max<std::uint64_t>(counts.peak_buffer_bytes, chunk_bytes());
  }
  std::size_t chunk_bytes() const { return arena_.size() + recs_.size() * sizeof(Rec); }
  void sort_chunk() {
    std::sort(recs_.begin(), recs_.end(), [](const Rec& a, const Rec& b) {
      return before(a.t, a.phase, a.seq, b.t, b.phase, b.seq);
    });
  }
  std::FILE* new_spill() {
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
  static void put_rec(std::FILE* f, double t, std::uint8_t phase, std::uint64_t seq, const char* line, std::uint32_t len) {
    std::fwrite(&t, sizeof t, 1, f);
    std::fwrite(&seq, sizeof seq, 1, f);
    std::fwrite(&phase, sizeof phase, 1, f);
    std::fwrite(&len, sizeof len, 1, f);
    std::fwrite(line, 1, len, f);
  }
  // The chunk, sorted, becomes a run at the end of the spill file.
  void spill() {
    if (recs_.empty()) return;
    if (!spill_) spill_ = new_spill();
    sort_chunk();
    std::fseek(spill_, 0, SEEK_END);
    const long long start = std::ftell(spill_);
    for (auto& r : recs_) put_rec(spill_, r.t, r.phase, r.seq, arena_.data() + r.off, r.len);
    if (std::fflush(spill_) != 0 || std::ferror(spill_))
      throw std::runtime_error(fmt::format("cannot write the spill file of {}: {}", path_, std::strerror(errno)));
    runs_.push_back({spill_, start, std::ftell(spill_)});
    ++counts.runs_spilled;
    recs_.clear();
    recs_.shrink_to_fit();
    arena_.clear();
    arena_.shrink_to_fit();
    if (runs_.size() >= kMaxRuns) {  // merge them into one run of a new spill file; the old one is freed
      std::FILE* next = new_spill();
      merge(runs_, [&](double t, std::uint8_t p, std::uint64_t s, const char* line, std::size_t n) {
        put_rec(next, t, p, s, line, static_cast<std::uint32_t>(n));
      });
      if (std::fflush(next) != 0 || std::ferror(next))
        throw std::runtime_error(fmt::format("cannot write the spill file of {}: {}", path_, std::strerror(errno)));
      std::fclose(spill_);
      spill_ = next;
      runs_.assign(1, Run{next, 0, std::ftell(next)});
    }
  }
  // Reads one run sequentially through a small buffer (pread: runs share their file).
  class Reader {
  public:
    Reader(const Run& r) : fd_(::fileno(r.file)), pos_(r.off), end_(r.end), buf_(1 << 16) {}
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
  // k-way merge of the runs in key order: out(line, length) or out(t, phase, seq, line, length).
  template <class Out>
  static void merge(const std::vector<Run>& runs, Out&& out) {
    std::vector<Reader> rd;
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
      Reader& r = rd[heap.back()];
      if constexpr (std::is_invocable_v<Out, const char*, std::size_t>) out(r.line.data(), r.line.size());
      else out(r.t, r.phase, r.seq, r.line.data(), r.line.size());
      if (r.next()) std::push_heap(heap.begin(), heap.end(), later);
      else heap.pop_back();
    }
  }

  std::string path_;
  TempFile file_;
  std::size_t chunk_limit_;
  std::vector<Rec> recs_;
  std::string arena_;
  std::uint64_t seq_ = 0, key_ = 0;
  double end_ = 0;
  std::FILE* spill_ = nullptr;
  std::vector<Run> runs_;
  Interned engine_names_;
  std::set<long long> nodes_;
  std::set<std::tuple<long long, int, int>> contexts_;
  std::map<std::pair<long long, int>, int> engine_slot_;
  std::vector<std::pair<long long, int>> engines_;
  std::map<std::uint32_t, std::string> resources_;
  std::set<std::pair<std::string, std::string>> state_values_;  // (state type, name): one colour each
};

}  // namespace

const TraceFormatRegistry& trace_formats() {
  static const TraceFormatRegistry reg = [] {
    TraceFormatRegistry r;
    r.add({"paje", "Paje (SimGrid's trace format): ViTE, pajeng's pj_dump",
           [](const std::string& p, std::size_t memory) { return std::make_unique<Paje>(p, memory); }});
    r.add({"json", "Chrome trace-event JSON: Perfetto (ui.perfetto.dev), chrome://tracing",
           [](const std::string& p, std::size_t) { return std::make_unique<ChromeJson>(p); }});
    return r;
  }();
  return reg;
}

const TraceFormatInfo& trace_format_of(const std::string& path, const std::string& option) {
  const std::string ext = fs::path(path).extension().string();
  const TraceFormatInfo* f = ext.size() > 1 ? trace_formats().find(ext.substr(1)) : nullptr;
  if (!f) {
    std::vector<std::string> known;
    for (auto& n : trace_formats().names()) known.push_back("." + n);
    throw InputError(option, path, fmt::format("unknown trace format '{}': the file name must end in {}", ext,
                                               fmt::join(known, " or ")));
  }
  return *f;
}

void check_trace_path(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(option, path, "empty path");
  (void)trace_format_of(path, option);
  check_output_path(path, option);
}

std::unique_ptr<TraceSink> open_trace(const std::string& path, const TraceFilter& filter, std::size_t memory) {
  auto sink = trace_format_of(path, "--trace").make(path, memory ? memory : kTraceMemoryDefault);
  sink->filter = filter;
  return sink;
}

std::vector<std::pair<long long, long long>> parse_rank_list(const std::string& text, const std::string& option) {
  std::vector<std::pair<long long, long long>> out;
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(option, text, fmt::format("'{}' is not a rank (a non-negative integer)", s));
    return std::stoll(s);
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::size_t dash = item.find('-');
    long long a = number(item.substr(0, dash)), b = dash == std::string::npos ? a : number(item.substr(dash + 1));
    if (b < a) throw InputError(option, text, fmt::format("range '{}' ends before it starts", item));
    out.emplace_back(a, b);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::pair<double, double> parse_time_window(const std::string& text, const std::string& option) {
  std::size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw InputError(option, text, "expected START:END with units (e.g. 10us:50us; either side may be empty)");
  if (text.size() == 1) throw InputError(option, text, "an empty window: give START:, :END or START:END (e.g. 10us:50us)");
  auto time = [&](const std::string& s, double dflt) {
    if (s.empty()) return dflt;
    if (s.find_first_not_of("0.") == std::string::npos && s.find('0') != std::string::npos) return 0.0;  // "0" needs no unit
    try {
      double v = parse_quantity(s, Dim::Time);
      if (!(v >= 0)) throw std::invalid_argument("negative");
      return v;
    } catch (const std::exception&) {
      throw InputError(option, text, fmt::format("'{}' is not a time with a unit (e.g. 10us, 2.5 ms)", s));
    }
  };
  double a = time(text.substr(0, colon), 0), b = time(text.substr(colon + 1), std::numeric_limits<double>::infinity());
  if (!(b > a)) throw InputError(option, text, "the window ends before it starts");
  return {a, b};
}

}  // namespace ompisim
