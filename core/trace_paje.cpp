// The Paje writer (core/trace_file.hpp, ".paje").
#include "core/external_sort.hpp"
#include "core/hash.hpp"
#include "core/trace_writers.hpp"
#include "core/trace_writer_io.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace ompisim {

namespace {
using trace_io::Interned;
using trace_io::TempFile;

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
%       Info string
%EndEventDef
%EventDef PajeEndLink 16
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%       Info string
%EndEventDef
0 N 0 "Node"
0 R N "Execution context"
0 E N "NIC engine"
0 L 0 "Resource"
1 FLOWS L "Flows in flight" "1 0 0"
2 CPU R "CPU"
2 ENG E "NIC engine state"
)";

// The link types. Each has one entity value with a colour of its own, which every link of the type names as its Value
// (pajeng and Paje's own viewers colour a link by it); what a link carries ("1024 B tag 3", "65536 B over n0-ht
// n1-ht") is the user field Info (pj_dump -u). ViTE (1.2, Debian 12) accepts entity values for state types only
// (it reports "define_entity_value: EntityType class is 1 instead of 0" for each of these and goes on) and draws an
// arrow white unless the link palette of its own settings gives the value's name ("MPI message") a colour
// (core/README.md; e2e.paje_viewers).
struct PajeLinkType {
  const char* alias;
  const char* ends;  // container type of both ends
  const char* name;
  const char* colour;  // "r g b" in [0, 1], dark enough to stand out on the states' light colours
};
constexpr PajeLinkType kPajeLinks[] = {
    {"MSG", "R", "MPI message", "0.10 0.20 0.80"},
    {"AMO", "R", "Remote atomic", "0.80 0.10 0.10"},
    {"FLOW", "N", "Bulk flow", "0.05 0.45 0.15"},
    {"TRAIN", "N", "Packet train", "0.60 0.35 0.00"},
};

// Paje needs its events in time order, and the models report them out of order (a CPU span when it is scheduled, which
// may be in the future; a flow, a message or a BTE span when it ends, with its start in the past). Each event is
// formatted into its line at once and handed with its sort key (time, phase) to an external merge sort
// (core/external_sort.hpp); finish() writes the header and the containers, then the sorted lines. Memory: the sort's
// chunk and buffers, and the containers (per traced rank, node, NIC engine and resource), whatever the run's length.
// Phase: order at equal times: spans that end, then starts, then links' ends, then zero-length ends.
class Paje final : public TraceSink {
public:
  Paje(const std::string& path, std::size_t memory) : file_(path), sort_(path, memory) {}

  void finish() override {
    std::FILE* f = file_.get();
    std::fputs(kPajeHeader, f);
    for (auto& l : kPajeLinks) {
      std::fprintf(f, "4 %s 0 %s %s \"%s\"\n", l.alias, l.ends, l.ends, l.name);
      std::fprintf(f, "3 l%s %s \"%s\" \"%s\"\n", l.alias, l.alias, l.name, l.colour);
    }
    // Each state a colour of its own (ViTE draws a state without a defined value in black), the same name the same
    // colour in every trace. A PajePushState names its value by this alias: ViTE looks a state's value up by alias
    // only (by name it makes a new value without a colour: black); pajeng takes either and prints the name.
    for (auto& [key, v] : state_values_)
      std::fprintf(f, "3 v%d %s %s \"%s\"\n", v, key.first.c_str(), quote(key.second).c_str(),
                   state_colour(key.second).c_str());
    // ViTE opens a trace on [0, its end] whatever its first event (`vite -t T0:T1` aside), so a trace of a window
    // written in simulated time opens on the whole run with every event in its last instants. With a window, every
    // time is written from the first traced event (time 0 there; counts.time_origin, printed by `run`); without one,
    // in simulated time. Containers are created at the first traced event.
    origin_ = filter.t0 > 0 && begin_ <= end_ ? begin_ : 0.0;
    counts.time_origin = origin_;
    const double t0 = begin_ <= end_ ? begin_ - origin_ : 0.0;
    const double t_end = end_ - origin_;
    for (auto n : nodes_) std::fprintf(f, "6 %.12f %s N 0 \"%s\"\n", t0, node(n).c_str(), node_name(n).c_str());
    for (auto [n, ctx, rank] : contexts_)
      std::fprintf(f, "6 %.12f c%d R %s \"%s\"\n", t0, ctx, node(n).c_str(),
                   (ctx == rank ? fmt::format("rank {}", rank) : fmt::format("rank {} thread {}", rank, ctx)).c_str());
    for (std::size_t i = 0; i < engines_.size(); ++i)
      std::fprintf(f, "6 %.12f e%zu E %s \"%s %s\"\n", t0, i, node(engines_[i].first).c_str(),
                   node_name(engines_[i].first).c_str(), engine_names_.name(engines_[i].second).c_str());
    for (auto& [id, name] : resources_) std::fprintf(f, "6 %.12f r%u L 0 %s\n", t0, id, quote(name).c_str());
    // Each event line is kept as "<code> <fields>"; its time goes in between here.
    sort_.write_sorted([f, this](double t, std::string_view line) {
      const std::size_t sp = line.find(' ');
      std::fprintf(f, "%.*s %.12f%.*s", static_cast<int>(sp), line.data(), t - origin_,
                   static_cast<int>(line.size() - sp), line.data() + sp);
    });
    for (std::size_t i = 0; i < engines_.size(); ++i) std::fprintf(f, "7 %.12f E e%zu\n", t_end, i);
    for (auto [n, ctx, rank] : contexts_) std::fprintf(f, "7 %.12f R c%d\n", t_end, ctx);
    for (auto& [id, name] : resources_) std::fprintf(f, "7 %.12f L r%u\n", t_end, id);
    for (auto n : nodes_) std::fprintf(f, "7 %.12f N %s\n", t_end, node(n).c_str());
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
  void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links,
                  bool train) override {
    nodes_.insert(src), nodes_.insert(dst);
    link(train ? "TRAIN" : "FLOW", node(src), node(dst), start, end, fmt::format("{:.0f} B over {}", bytes, links));
  }
  void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) override {
    rank_link("MSG", src, dst, sent, matched, fmt::format("{} B tag {}", bytes, tag));
  }
  void write_amo(int src, int dst, double start, double at_target) override {
    rank_link("AMO", src, dst, start, at_target, "AMO");
  }
  void write_link_load(std::uint32_t id, const std::string& name, double t, int flows) override {
    if (!resources_.count(id)) resources_.emplace(id, name);
    add(t, 1, fmt::format("8 FLOWS r{} {}\n", id, flows));
  }

private:
  static std::string node(long long n) { return n < 0 ? std::string("fabric") : fmt::format("n{}", n); }
  static std::string node_name(long long n) { return n < 0 ? std::string("fabric") : fmt::format("node {}", n); }
  static std::string quote(const std::string& v) {
    std::string q = "\"";
    for (char c : v) q += c == '"' ? '\'' : c == '\n' ? ' ' : c;
    return q + "\"";
  }
  // A colour from the state's name (FNV-1a, hue from the hash, fixed saturation and value): "r g b" in [0, 1].
  static std::string state_colour(const std::string& name) {
    const std::uint64_t h = fnv1a(name);
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
    const int v = state_values_.try_emplace({type, what}, static_cast<int>(state_values_.size())).first->second;
    add(start, 1, fmt::format("12 {} {} v{}\n", type, c, v));
    add(end, end > start ? 0 : 3, fmt::format("13 {} {}\n", type, c));
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
    add(t0, 1, fmt::format("15 {} 0 l{} {} k{} {}\n", type, type, from, key_, v));
    add(t1, 2, fmt::format("16 {} 0 l{} {} k{} {}\n", type, type, to, key_, v));
  }
  void add(double t, std::uint8_t phase, const std::string& line) {
    end_ = std::max(end_, t);
    begin_ = std::min(begin_, t);
    sort_.add(t, phase, line);
    counts.peak_buffer_bytes = sort_.peak_bytes();
    counts.runs_spilled = sort_.runs_spilled();
  }

  TempFile file_;
  ExternalLineSort sort_;
  std::uint64_t key_ = 0;
  double end_ = 0;
  double begin_ = std::numeric_limits<double>::infinity();  // the first event's time (containers are created there)
  Interned engine_names_;
  std::set<long long> nodes_;
  std::set<std::tuple<long long, int, int>> contexts_;
  std::map<std::pair<long long, int>, int> engine_slot_;
  std::vector<std::pair<long long, int>> engines_;
  std::map<std::uint32_t, std::string> resources_;
  std::map<std::pair<std::string, std::string>, int> state_values_;  // (state type, name) -> alias number, one colour each
  double origin_ = 0;  // the simulated time written as 0
};

}  // namespace

std::unique_ptr<TraceSink> make_paje_trace(const std::string& path, std::size_t memory) {
  return std::make_unique<Paje>(path, memory);
}

}  // namespace ompisim
