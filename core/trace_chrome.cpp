// The Chrome trace-event JSON writer (core/trace_file.hpp, ".json").
#include "core/trace_writers.hpp"
#include "core/trace_writer_io.hpp"

#include <fmt/format.h>
#include <set>
#include <tuple>

namespace ompisim {

namespace {
using trace_io::Interned;
using trace_io::json_escape;
using trace_io::TempFile;

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
    if (counts.flows || counts.trains)
      event(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"{}"}}}})", kFabricPid,
                        counts.trains == 0 ? "bulk flows" : counts.flows == 0 ? "packet trains" : "bulk flows and packet trains"));
    if (counts.link_changes)
      event(fmt::format(R"x({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"link sharing (flows in flight)"}}}})x",
                        kLinkPid));
    std::fprintf(f,
                 "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ompisim\",\"cpu_spans\":%llu,"
                 "\"nic_spans\":%llu,\"flows\":%llu,\"trains\":%llu,\"messages\":%llu,\"amos\":%llu,\"link_changes\":%llu,"
                 "\"ranks\":\"%s\"}}\n",
                 static_cast<unsigned long long>(counts.cpu), static_cast<unsigned long long>(counts.nic),
                 static_cast<unsigned long long>(counts.flows), static_cast<unsigned long long>(counts.trains),
                 static_cast<unsigned long long>(counts.messages),
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
  // A train is an async pair of its own category ("train"), on the flows' track.
  void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links,
                  bool train) override {
    ++flow_id_;
    const char* cat = train ? "train" : "flow";
    std::string args = fmt::format(R"({{"bytes":{:.0f},"src_node":{},"dst_node":{},"resources":"{}"}})", bytes, src,
                                   dst, json_escape(links));
    event(fmt::format(R"({{"ph":"b","cat":"{}","name":"{} {:.0f} B","id":{},"pid":{},"tid":0,"ts":{:.6f},"args":{}}})",
                      cat, cat, bytes, flow_id_, kFabricPid, us(start), args));
    event(fmt::format(R"({{"ph":"e","cat":"{}","name":"{} {:.0f} B","id":{},"pid":{},"tid":0,"ts":{:.6f}}})", cat, cat,
                      bytes, flow_id_, kFabricPid, us(end)));
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

}  // namespace

std::unique_ptr<TraceSink> make_chrome_trace(const std::string& path) { return std::make_unique<ChromeJson>(path); }

}  // namespace ompisim
