// The replay driver's tables, apart from its interpreter (replay_run.cpp): the fallback algorithm of each collective
// the registry has, the collectives the registry covers, the size classes of its point-to-point histogram and the
// text table of a replay's result.
#pragma once
#include "core/json_input.hpp"

#include <map>
#include <string>
#include <vector>

namespace ompisim::bench::replay {

// The algorithm of a collective when neither the scenario nor the decision library chooses one.
const std::map<std::string, std::string>& fallback();
// The collectives the collectives registry covers (the others are built by replay_collectives.cpp as coll/base's
// basic ones).
const std::vector<std::string>& registry_colls();
// The name of point-to-point size class k: sizes in (2^(k-1), 2^k] ("0 B" for k < 0).
std::string size_class(int k);
// A replay result's points as text: the totals, per collective, per algorithm, per size class.
std::string replay_table(const Json& res);

}  // namespace ompisim::bench::replay
