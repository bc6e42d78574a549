#pragma once
// An input file as a user names it, found in the tool's data folder when it is not in the current one.

#include <string>

namespace ompisim {

// `path` when it exists (or is absolute), else data_dir()/path when that exists (so a scenario named as
// scenarios/gemini/fig5_latency_2p_inter_openmpi.json and a grid's "base" are found from any folder with an installed
// tool), else `path` as given (the error then names it).
std::string data_path(const std::string& path);

}  // namespace ompisim
