// The collective tests' helpers: every round's operations of a schedule, a schedule's completion check, and the
// decision files of collectives/decision/ as the tests read them: from the data folder (data_dir(), which
// $OMPISIM_DATA may point elsewhere), by file name.
#pragma once
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "collectives/check.hpp"
#include "collectives/decision.hpp"
#include "collectives/schedule.hpp"
#include "platform/machine.hpp"

namespace ompisim::coll {

// Every round's operations of a schedule, in order.
inline std::vector<std::vector<Op>> all_ops(const Schedule& s) {
  std::vector<std::vector<Op>> r;
  for (const auto& round : s.rounds) r.push_back(round.ops);
  return r;
}

// run_schedules of `g` on `nranks` ranks, `bytes` to `root`: Catch requires completion and checks that every send was
// matched, naming P, the root and the checker's error; the counts for further checks.
inline CheckResult completes(Generator g, int nranks, int root, std::uint32_t bytes) {
  AlgoParams a;
  a.bytes = bytes;
  a.root = root;
  CheckResult r = run_schedules(nranks, g, a);
  INFO("P=" << nranks << " root=" << root << ": " << r.error);
  REQUIRE(r.completed);
  CHECK(r.unmatched_sends == 0);
  return r;
}

inline nlohmann::json decision_data(const std::string& file) {
  return load_decision(data_dir() + "/collectives/decision/" + file);
}

}  // namespace ompisim::coll
