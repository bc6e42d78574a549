// The decision files of collectives/decision/ as the collective tests read them: from the data folder (data_dir(),
// which $OMPISIM_DATA may point elsewhere), by file name.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "collectives/decision.hpp"
#include "platform/machine.hpp"

namespace ompisim::coll::test {

inline nlohmann::json decision_data(const std::string& file) {
  return load_decision(data_dir() + "/collectives/decision/" + file);
}

}  // namespace ompisim::coll::test
