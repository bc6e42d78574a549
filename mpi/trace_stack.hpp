// A Stack that reports every MPI message and remote atomic to the run's trace (core/trace.hpp), around the stack that
// does the work: the runner puts it around the built stack only when the run is traced, so an untraced run has no
// extra call. A message is traced from its send call to the completion of the receive that took it (when the
// receive's MPI_Status is known): sends are paired with receive completions in MPI's non-overtaking order on
// (communicator, source, destination, tag). A remote atomic is traced from its call to its update at the target.
// LIMITATIONS: two messages of one envelope whose receives complete out of their matching order (a long message
// matched before a short one that completes first) get each other's send times; messages sent inside a stack without
// its start_send (none today) are not seen.
#pragma once
#include "core/trace.hpp"
#include "mpi/stack.hpp"

#include <deque>
#include <map>
#include <memory>
#include <tuple>

namespace ompisim {

class TracingStack final : public Stack {
public:
  TracingStack(std::unique_ptr<Stack> inner, Simulator& sim, TraceSink& trace)
      : inner_(std::move(inner)), sim_(sim), trace_(trace) {}
  std::string name() const override { return inner_->name(); }
  void start_send(const mpi::P2P& m, Completion done) override {
    sent_[{m.comm.context_id, m.rank, m.peer, m.tag}].push_back({sim_.now(), m.bytes()});
    inner_->start_send(m, std::move(done));
  }
  void start_recv(const mpi::P2P& m, Completion done) override {
    auto st = std::make_shared<mpi::Status>();
    mpi::P2P mine = m;
    mine.status = st.get();
    inner_->start_recv(mine, [this, st, m, done = std::move(done)]() mutable {
      if (m.status) *m.status = *st;
      auto it = sent_.find({m.comm.context_id, st->source, m.rank, st->tag});
      if (it != sent_.end() && !it->second.empty()) {
        auto [t, bytes] = it->second.front();
        it->second.pop_front();
        if (it->second.empty()) sent_.erase(it);
        trace_.message(st->source, m.rank, st->tag, bytes, t, sim_.now());
      }
      done();
    });
  }
  void amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via) override {
    inner_->amo_add(rank, target, std::move(local_done),
                    [this, rank, target, t0 = sim_.now(), at_target = std::move(at_target)]() mutable {
                      trace_.amo(rank, target, t0, sim_.now());
                      if (at_target) at_target();
                    }, via);
  }
  StackStats stats() const override { return inner_->stats(); }
  std::uint32_t max_contextid() const override { return inner_->max_contextid(); }
  // the library's collective cut-offs: a traced run takes the decisions the untraced one does
  std::map<std::string, double> coll_tunables() const override { return inner_->coll_tunables(); }
  std::vector<std::string> idle_components() const override { return inner_->idle_components(); }
  bool reads_buffer_allocation() const override { return inner_->reads_buffer_allocation(); }

private:
  std::unique_ptr<Stack> inner_;
  Simulator& sim_;
  TraceSink& trace_;
  std::map<std::tuple<std::uint32_t, int, int, int>, std::deque<std::pair<double, std::uint64_t>>> sent_;
};

}  // namespace ompisim
