#include "core/trace_file.hpp"

#include "core/errors.hpp"
#include "core/units.hpp"

#include <algorithm>
#include <cerrno>
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
    std::fprintf(f,
                 "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ompisim\",\"cpu_spans\":%llu,"
                 "\"nic_spans\":%llu,\"flows\":%llu,\"messages\":%llu,\"amos\":%llu,\"ranks\":\"%s\"}}\n",
                 static_cast<unsigned long long>(counts.cpu), static_cast<unsigned long long>(counts.nic),
                 static_cast<unsigned long long>(counts.flows), static_cast<unsigned long long>(counts.messages),
                 static_cast<unsigned long long>(counts.amos), filter.ranks.empty() ? "all" : "subset");
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
  void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) override {
    arrow("message", fmt::format("send {} B tag {}", bytes, tag), fmt::format("match {} B tag {}", bytes, tag), src,
          dst, sent, matched, fmt::format(R"({{"bytes":{},"tag":{},"src":{},"dst":{}}})", bytes, tag, src, dst));
  }
  void write_amo(int src, int dst, double start, double at_target) override {
    arrow("amo", "AMO issue", "AMO at target", src, dst, start, at_target,
          fmt::format(R"({{"src":{},"dst":{}}})", src, dst));
  }

private:
  static constexpr long long kFabricPid = 1'000'000'000;
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
%EventDef PajeDefineStateType 2
%       Alias string
%       Type string
%       Name string
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
2 CPU R "CPU"
2 ENG E "NIC engine state"
4 MSG 0 R R "MPI message"
4 AMO 0 R R "Remote atomic"
4 FLOW 0 N N "Bulk flow"
)";

class Paje final : public TraceSink {
public:
  explicit Paje(const std::string& path) : file_(path) {}

  void finish() override {
    // Same time: spans that end before spans that start, then links' ends, then the ends of zero-length spans.
    std::stable_sort(ev_.begin(), ev_.end(), [](const Ev& a, const Ev& b) {
      return std::tie(a.t, a.phase) < std::tie(b.t, b.phase);
    });
    std::FILE* f = file_.get();
    std::fputs(kPajeHeader, f);
    double end = ev_.empty() ? 0.0 : ev_.back().t;
    for (auto n : nodes_) std::fprintf(f, "6 0 %s N 0 \"%s\"\n", node(n).c_str(), node_name(n).c_str());
    for (auto [n, ctx, rank] : contexts_)
      std::fprintf(f, "6 0 c%d R %s \"%s\"\n", ctx, node(n).c_str(),
                   (ctx == rank ? fmt::format("rank {}", rank) : fmt::format("rank {} thread {}", rank, ctx)).c_str());
    for (std::size_t i = 0; i < engines_.size(); ++i)
      std::fprintf(f, "6 0 e%zu E %s \"%s %s\"\n", i, node(engines_[i].first).c_str(), node_name(engines_[i].first).c_str(),
                   engine_names_.name(engines_[i].second).c_str());
    static const char* kType[] = {"CPU", "ENG", "MSG", "AMO", "FLOW"};
    for (auto& e : ev_) {
      const std::string c = container(e.type, e.a);
      switch (e.code) {
        case 12: std::fprintf(f, "12 %.12f %s %s %s\n", e.t, kType[e.type], c.c_str(), value(e.value).c_str()); break;
        case 13: std::fprintf(f, "13 %.12f %s %s\n", e.t, kType[e.type], c.c_str()); break;
        default:
          std::fprintf(f, "%d %.12f %s 0 %s %s k%llu\n", e.code, e.t, kType[e.type], value(e.value).c_str(), c.c_str(),
                       static_cast<unsigned long long>(e.key));
      }
    }
    for (std::size_t i = 0; i < engines_.size(); ++i) std::fprintf(f, "7 %.12f E e%zu\n", end, i);
    for (auto [n, ctx, rank] : contexts_) std::fprintf(f, "7 %.12f R c%d\n", end, ctx);
    for (auto n : nodes_) std::fprintf(f, "7 %.12f N %s\n", end, node(n).c_str());
    file_.commit();
  }

protected:
  void write_cpu(int ctx, int rank, long long n, double start, double end, const char* what) override {
    contexts_.insert({n, ctx, rank});
    nodes_.insert(n);
    span(kCpu, ctx, start, end, what);
  }
  void write_nic(long long n, const char* eng, double start, double end, const char* what) override {
    const int e = engine_names_.id(eng);
    auto [it, added] = engine_slot_.try_emplace({n, e}, static_cast<int>(engines_.size()));
    if (added) engines_.emplace_back(n, e);
    nodes_.insert(n);
    span(kEng, it->second, start, end, what);
  }
  void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links) override {
    nodes_.insert(src), nodes_.insert(dst);
    link(kFlow, static_cast<int>(src), static_cast<int>(dst), start, end, fmt::format("{:.0f} B over {}", bytes, links));
  }
  void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) override {
    rank_link(kMsg, src, dst, sent, matched, fmt::format("{} B tag {}", bytes, tag));
  }
  void write_amo(int src, int dst, double start, double at_target) override {
    rank_link(kAmo, src, dst, start, at_target, "AMO");
  }

private:
  enum : std::uint8_t { kCpu, kEng, kMsg, kAmo, kFlow };
  // 32 bytes per event (a full trace holds two per span or link until finish()): strings are interned.
  struct Ev {
    double t;
    std::uint64_t key;     // a link's key
    std::uint32_t value;   // interned state or link value
    std::int32_t a;        // container: context (CPU, MSG, AMO), engine slot (ENG), node (FLOW; -1 fabric)
    std::uint8_t phase;    // order at equal times (see finish)
    std::uint8_t code;     // Paje event number
    std::uint8_t type;
  };
  static std::string node(long long n) { return n < 0 ? std::string("fabric") : fmt::format("n{}", n); }
  static std::string node_name(long long n) { return n < 0 ? std::string("fabric") : fmt::format("node {}", n); }
  static std::string container(std::uint8_t type, int a) {
    if (type == kEng) return fmt::format("e{}", a);
    if (type == kFlow) return node(a);
    return fmt::format("c{}", a);
  }
  std::uint32_t intern(const std::string& v) {
    auto [it, added] = value_ids_.try_emplace(v, static_cast<std::uint32_t>(values_.size()));
    if (added) {
      std::string q = "\"";
      for (char c : v) q += c == '"' ? '\'' : c;
      values_.push_back(q + "\"");
    }
    return it->second;
  }
  const std::string& value(std::uint32_t id) const { return values_[id]; }
  void span(std::uint8_t type, int container, double start, double end, const char* what) {
    const std::uint32_t v = intern(what);
    ev_.push_back({start, 0, v, container, 1, 12, type});
    ev_.push_back({end, 0, v, container, static_cast<std::uint8_t>(end > start ? 0 : 3), 13, type});
  }
  void rank_link(std::uint8_t type, int src, int dst, double t0, double t1, const std::string& value) {
    long long ns = node_of(src), nd = node_of(dst);
    nodes_.insert(ns), nodes_.insert(nd);
    contexts_.insert({ns, src, src}), contexts_.insert({nd, dst, dst});
    link(type, src, dst, t0, t1, value);
  }
  void link(std::uint8_t type, int from, int to, double t0, double t1, const std::string& value) {
    const std::uint32_t v = intern(value);
    ++key_;
    ev_.push_back({t0, key_, v, from, 1, 15, type});
    ev_.push_back({t1, key_, v, to, 2, 16, type});
  }
  TempFile file_;
  std::vector<Ev> ev_;
  std::uint64_t key_ = 0;
  Interned engine_names_;
  std::unordered_map<std::string, std::uint32_t> value_ids_;
  std::vector<std::string> values_;
  std::set<long long> nodes_;
  std::set<std::tuple<long long, int, int>> contexts_;
  std::map<std::pair<long long, int>, int> engine_slot_;
  std::vector<std::pair<long long, int>> engines_;
};

}  // namespace

const TraceFormatRegistry& trace_formats() {
  static const TraceFormatRegistry reg = [] {
    TraceFormatRegistry r;
    r.add({"paje", "Paje (SimGrid's trace format): ViTE, pajeng's pj_dump",
           [](const std::string& p) { return std::make_unique<Paje>(p); }});
    r.add({"json", "Chrome trace-event JSON: Perfetto (ui.perfetto.dev), chrome://tracing",
           [](const std::string& p) { return std::make_unique<ChromeJson>(p); }});
    return r;
  }();
  return reg;
}

static const TraceFormatInfo& format_of(const std::string& path, const std::string& option) {
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
  (void)format_of(path, option);
  fs::path p(path);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(option, path, fmt::format("folder '{}' does not exist", dir.string()));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(option, path, fmt::format("folder '{}' is not writable: {}", dir.string(), std::strerror(errno)));
  if (fs::is_directory(p, ec)) throw InputError(option, path, "is a folder, expected a file name");
}

std::unique_ptr<TraceSink> open_trace(const std::string& path, const TraceFilter& filter) {
  auto sink = format_of(path, "--trace").make(path);
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
