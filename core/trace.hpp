// The protocol timeline (`ompisim run FILE --trace out.paje|out.json`): what the models report while they run, for a
// trace viewer. The simulator holds a TraceSink pointer (Simulator::trace), null unless the user asked for a trace:
// every report site is `if (auto* t = sim.trace) t->...`, so a run without a trace pays one pointer test per site.
//
// What is reported, and by whom:
//  - cpu: a span of work on an execution context (a rank's main thread or a progress thread), named after the Open MPI
//    or library function it models ("btl_ugni_smsg_send", "PtlEQGet", ...), reported by platform/World::cpu;
//  - nic: a span of one NIC engine of a node ("FMA", "BTE", "AMO", "firmware", "thread processor", ...), reported by
//    the NIC models (models/<nic>/);
//  - flow: a bulk flow through the engine's shared resources (bytes, the resources it crosses), reported by the
//    engines when the flow ends; World names its end nodes just before it starts one (flow_nodes);
//  - train: a transfer timed as a packet train (a scenario's "packet_trains"), from the moment it leaves its source
//    to its end, with the resources it was queued on, reported by the fabric (platform/fabric.cpp);
//  - message: an MPI message from the send call to the receive's completion (mpi/trace_stack.hpp), and remote atomics;
//  - link sharing: for every resource a traced flow or train crosses (NIC ports, links, memory), the number of traced
//    flows and trains in flight on it, written as a counter each time it changes (derived from their starts and ends).
// The sink filters (ranks, time window) and counts what it wrote; writers of a format derive from it (core/trace_file).
#pragma once
#include "core/sim.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

// Which ranks and which interval of simulated time are traced ("0-15,1024", "10us:50us"). A NIC is traced when a
// traced rank runs on its node; a flow when one of its end nodes is traced (or its ends are not known).
struct TraceFilter {
  std::vector<std::pair<long long, long long>> ranks;  // inclusive ranges; empty: every rank
  double t0 = 0, t1 = std::numeric_limits<double>::infinity();
  bool rank(long long r) const {
    if (ranks.empty()) return true;
    for (auto& [a, b] : ranks)
      if (r >= a && r <= b) return true;
    return false;
  }
  // A span [a, b] is kept when it meets the window (an instant at its edge counts).
  bool window(double a, double b) const { return b >= t0 && a <= t1; }
};

class TraceSink {
public:
  virtual ~TraceSink() = default;
  // Declarations, before the run: the engine's resources (for flow paths), each rank's node and its name.
  void resource(std::uint32_t id, const std::string& name) {
    if (resources_.size() <= id) resources_.resize(id + 1);
    resources_[id] = name;
  }
  void rank_node(int rank, long long node) {
    if (rank_node_.size() <= static_cast<std::size_t>(rank)) rank_node_.resize(static_cast<std::size_t>(rank) + 1, -1);
    rank_node_[static_cast<std::size_t>(rank)] = node;
    if (filter.rank(rank)) {
      if (node_traced_.size() <= static_cast<std::size_t>(node)) node_traced_.resize(static_cast<std::size_t>(node) + 1, 0);
      node_traced_[static_cast<std::size_t>(node)] = 1;
    }
  }
  // Progress threads: context ctx runs for rank (contexts below the rank count are the ranks themselves).
  void context_rank(int ctx, int rank) {
    if (ctx_rank_.size() <= static_cast<std::size_t>(ctx)) ctx_rank_.resize(static_cast<std::size_t>(ctx) + 1, -1);
    ctx_rank_[static_cast<std::size_t>(ctx)] = rank;
  }

  // --- Reports (filtered here, then written by the format) ---
  void cpu(int ctx, double start, double end, const char* what) {
    const int rank = rank_of_ctx(ctx);
    if (!filter.rank(rank) || !filter.window(start, end)) return;
    ++counts.cpu;
    write_cpu(ctx, rank, node_of(rank), start, end, what ? what : "cpu");
  }
  void nic(long long node, const char* engine, double start, double end, const char* what) {
    if (!node_traced(node) || !filter.window(start, end)) return;
    ++counts.nic;
    write_nic(node, engine, start, end, what ? what : engine);
  }
  // Set by the platform just before it starts a flow: the flow's end nodes (-1: not known), read by flow_started.
  void flow_nodes(long long src, long long dst) { next_src_ = src, next_dst_ = dst; }
  struct FlowRec {
    long long src = -1, dst = -1;
    double start = 0, bytes = 0;
    std::vector<std::uint32_t> path;
    bool train = false;  // a packet train (the fabric's), not an engine flow
  };
  // The engine: a flow starts now (returns its record, handed back to flow_ended). The fabric: a packet train issued
  // now leaves its source at `start` (>= now): its rise on each resource waits until the trace reaches that time
  // (pending_), so the counters change in time order and the train costs the run no event of its own.
  FlowRec flow_started(double start, const std::vector<std::uint32_t>& path, double bytes, bool train = false,
                       double now = -1) {
    if (now < 0) now = start;
    FlowRec r{next_src_, next_dst_, start, bytes, path, train};
    next_src_ = next_dst_ = -1;
    if (flow_traced(r)) {
      if (start > now) {
        pending_.push_back(Pending{start, pending_seq_++, r.path});
        std::push_heap(pending_.begin(), pending_.end());
      } else {
        rise(r.path, start);
      }
    }
    return r;
  }
  void flow_ended(const FlowRec& r, double end) {
    ++(r.train ? counts.trains_seen : counts.flows_seen);
    const bool nodes = flow_traced(r);
    if (nodes) {
      flush_pending(end);
      for (auto id : r.path) load_change(id, end, -1);
    }
    if (!nodes || !filter.window(r.start, end)) return;
    ++(r.train ? counts.trains : counts.flows);
    std::string links;
    for (auto id : r.path) {
      if (!links.empty()) links += ' ';
      links += id < resources_.size() ? resources_[id] : std::to_string(id);
    }
    write_flow(r.src, r.dst, r.start, end, r.bytes, links, r.train);
  }
  void message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) {
    ++counts.messages_seen;
    if (!(filter.rank(src) || filter.rank(dst)) || !filter.window(sent, matched)) return;
    ++counts.messages;
    write_message(src, dst, tag, bytes, sent, matched);
  }
  void amo(int src, int dst, double start, double at_target) {
    ++counts.amos_seen;
    if (!(filter.rank(src) || filter.rank(dst)) || !filter.window(start, at_target)) return;
    ++counts.amos;
    write_amo(src, dst, start, at_target);
  }
  // Writes the whole file (temporary, then renamed into place). Called once, after the run.
  virtual void finish() = 0;

  TraceFilter filter;
  // What was written (and, *_seen, what was reported before the filters).
  struct Counts {
    std::uint64_t cpu = 0, nic = 0, flows = 0, flows_seen = 0, messages = 0, messages_seen = 0, amos = 0, amos_seen = 0;
    std::uint64_t trains = 0, trains_seen = 0;  // packet trains (flows counts the engine's flows only)
    std::uint64_t link_changes = 0;  // counter values written (flows in flight on a resource)
    // A format that sorts in bounded memory (Paje): the most bytes of events it held, the sorted runs it spilled.
    std::uint64_t peak_buffer_bytes = 0, runs_spilled = 0;
    // The simulated time a format writes as its time 0 (Paje with a window: its first event), in seconds.
    double time_origin = 0;
  } counts;

protected:
  virtual void write_cpu(int ctx, int rank, long long node, double start, double end, const char* what) = 0;
  virtual void write_nic(long long node, const char* engine, double start, double end, const char* what) = 0;
  // A flow or (train) a packet train.
  virtual void write_flow(long long src, long long dst, double start, double end, double bytes, const std::string& links,
                          bool train) = 0;
  virtual void write_message(int src, int dst, int tag, std::uint64_t bytes, double sent, double matched) = 0;
  virtual void write_amo(int src, int dst, double start, double at_target) = 0;
  // Resource `id` (named `name`) carries `flows` traced flows and trains from time t on.
  virtual void write_link_load(std::uint32_t id, const std::string& name, double t, int flows) = 0;
  int rank_of_ctx(int ctx) const {
    auto c = static_cast<std::size_t>(ctx);
    return c < ctx_rank_.size() && ctx_rank_[c] >= 0 ? ctx_rank_[c] : ctx;
  }
  long long node_of(int rank) const {
    auto r = static_cast<std::size_t>(rank);
    return r < rank_node_.size() ? rank_node_[r] : -1;
  }
  bool node_traced(long long node) const {
    return node >= 0 && static_cast<std::size_t>(node) < node_traced_.size() && node_traced_[static_cast<std::size_t>(node)];
  }

private:
  // A train's rise not yet applied: at time t (seq: the order of the calls, for equal times).
  struct Pending {
    double t;
    std::uint64_t seq;
    std::vector<std::uint32_t> path;
    bool operator<(const Pending& o) const { return t != o.t ? t > o.t : seq > o.seq; }  // a min-heap by (t, seq)
  };
  void rise(const std::vector<std::uint32_t>& path, double t) {
    flush_pending(t);
    for (auto id : path) load_change(id, t, +1);
  }
  // Applies the pending rises at or before t, in time order.
  void flush_pending(double t) {
    while (!pending_.empty() && pending_.front().t <= t) {
      std::pop_heap(pending_.begin(), pending_.end());
      Pending p = std::move(pending_.back());
      pending_.pop_back();
      for (auto id : p.path) load_change(id, p.t, +1);
    }
  }
  bool flow_traced(const FlowRec& r) const {
    return (r.src < 0 && r.dst < 0) || node_traced(r.src) || node_traced(r.dst);
  }
  // A traced flow starts or ends on resource id at time t. Changes before the window only update the count. The first
  // change at or after the window's start is preceded by the count at the window's start when that was not zero (also
  // when the change comes after the window's end: flows that span the whole window show); changes after the window's
  // end are not written.
  void load_change(std::uint32_t id, double t, int delta) {
    if (load_.size() <= id) load_.resize(id + 1);
    Load& l = load_[id];
    const int before = l.flows;
    l.flows += delta;
    if (t < filter.t0 || (l.shown && t > filter.t1)) return;
    const std::string& name = id < resources_.size() && !resources_[id].empty() ? resources_[id] : unnamed(id);
    if (!l.shown && before != 0 && t > filter.t0) {
      ++counts.link_changes;
      write_link_load(id, name, filter.t0, before);
    }
    l.shown = true;
    if (t > filter.t1) return;
    ++counts.link_changes;
    write_link_load(id, name, t, l.flows);
  }
  const std::string& unnamed(std::uint32_t id) {
    tmp_name_ = "resource " + std::to_string(id);
    return tmp_name_;
  }
  struct Load {
    int flows = 0;
    bool shown = false;
  };
  std::vector<Load> load_;
  std::string tmp_name_;
  std::vector<std::string> resources_;
  std::vector<long long> rank_node_;
  std::vector<int> ctx_rank_;
  std::vector<std::uint8_t> node_traced_;
  long long next_src_ = -1, next_dst_ = -1;
  std::vector<Pending> pending_;  // a heap (std::push_heap with Pending's order)
  std::uint64_t pending_seq_ = 0;
};

// The engines wrap a flow's completion with this when sim.trace is set: the flow is reported when it ends.
inline Callback traced_flow(Simulator& sim, const std::vector<ResourceId>& path, double bytes, Callback done) {
  return [&sim, rec = sim.trace->flow_started(sim.now(), path, bytes), done = std::move(done)]() mutable {
    if (sim.trace) sim.trace->flow_ended(rec, sim.now());
    done();
  };
}

}  // namespace ompisim
