// SimGrid 3.32's flow arithmetic without SimGrid: the values the SimGrid engine gives, bit for bit, at a cost per
// flow start or end that does not include SimGrid's walk over every comm in flight.
// It repeats, step for step, what SimGrid 3.32 does with this project's settings (network/model CM02,
// crosstraffic 0, TCP-gamma 0, zero-latency links, equal weights, network/maxmin-selective-update, the lazy action
// update, surf/precision 1e-12, maxmin/precision 1e-5):
//  - a flow start expands its variable over the route link by link; each expansion puts the element first in the
//    link's list and marks the link modified with SimGrid's depth-first walk (update_modified_cnst_set_rec) through
//    the flows crossing it; a flow end marks its first link modified (with the walk), then leaves every link;
//  - a solve (lmm::System::solve with selective update) is progressive filling over the modified links, in the
//    modified set's order, each link's flows newest first; then every flow of the solved set, in that order, has its
//    remaining bytes brought up to now at its previous rate (NetworkCm02Action::update_remains_lazy: remains -=
//    rate x elapsed, below 1e-5 x 1e-12 counts as zero) and its completion date set to now + remains / rate
//    (Model::next_occurring_event_lazy); equal dates complete in the order they were set (the action heap);
//  - the clock advances to an event's date, or by the distance to the next completion; every flow due within
//    1e-12 s of it ends there (NetworkCm02Model::update_actions_state_lazy), the model's events of that date run,
//    the ended flows are freed and their callbacks queued at that date in start order (as the SimGrid engine does).
//  - at()     -> the shared event queue (EngineBase), as in the other engines;
//  - stream() -> an endless flow started when run() begins with work and stopped when the model's events and flows
//               are done, as in the SimGrid engine.
// LIMITATIONS: a solve covers the whole connected component of what changed (an alltoall is one component), so a
// start or end among F connected flows costs O(F x path length x log), as in SimGrid; SimGrid's work-amount
// precision inside the solver (a link whose remaining capacity falls below 1e-5 of its capacity during a solve is
// dropped) is not reproduced; the values equal SimGrid's only as long as the operations above are repeated in the
// same order (the cross-check and `compare --against results --engine lmm` at tolerance 0 watch this).
#pragma once
#include "engine/sharing_engine.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ompisim::engine {

struct LmmEngineImpl;  // its state and flow arithmetic (lmm_engine.cpp)

class LmmEngine final : public SharingEngine<LmmEngineImpl> {
public:
  LmmEngine();
  void run() override;
  std::string name() const override { return "lmm"; }
  // For tests and measurements: max-min solves run, and the flows they re-solved in total.
  std::uint64_t solves() const;
  std::uint64_t flows_resolved() const;
  // For tests: the current rate of every model flow in flight (bytes/s), in start order, after solving.
  std::vector<double> rates();
};

}  // namespace ompisim::engine
