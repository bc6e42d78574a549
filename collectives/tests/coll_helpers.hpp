// The collective tests' helpers: every round's operations of a schedule, and the decision files of
// collectives/decision/ as the tests read them: from the data folder (data_dir(), which $OMPISIM_DATA may point
// elsewhere), by file name.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

inline nlohmann::json decision_data(const std::string& file) {
  return load_decision(data_dir() + "/collectives/decision/" + file);
}

}  // namespace ompisim::coll
