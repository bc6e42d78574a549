// A machine file's JSON as the machine loader reads it (load_machine, machine.cpp): the file's "base" machine merged
// under it (JSON merge patch; parameter entries replaced whole) and every "transferred_from" entry given the value of
// the parameter it names in another machine, scaled, with its origin written into its source.
#pragma once
#include "core/json_input.hpp"

#include <string>

namespace ompisim {

// `path` read, merged over its bases and with its transfers resolved; `file` is the name errors give it. InputError
// names the file (a base's or a transfer source's own, with the chain it was reached through) and the key.
Json load_machine_json(const std::string& path, const std::string& file);

}  // namespace ompisim
