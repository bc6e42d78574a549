// What validation reads before it runs anything: the scenarios, the reference files (validation/reference/*.json),
// the machines their scenarios run on, and the machine file validate --machine-file puts in place of one of them.
#pragma once
#include <set>
#include <string>
#include <vector>

namespace ompisim::validation {

std::vector<std::string> scenario_files();  // every scenarios/**/*.json but the grids (grid_*.json), sorted
// The reference files of `paper` (every paper for ""); InputError naming --paper, with a did-you-mean, when it has none.
std::vector<std::string> reference_files(const std::string& paper);
// validate --machine-file: scenarios whose machine has this file's machine name use the file instead ("": none).
void set_machine_file(const std::string& path);
bool machine_file_given();
// validate --machine-file's file when `machine` is its machine, else "".
std::string machine_file_for(const std::string& machine);
// The machine file to load for a machine name: validate --machine-file's for its machine, else the name.
std::string machine_path(const std::string& name);
// The machines of the scenarios a paper's reference file names (every "scenario" in it: points, held-out values,
// claims, comparisons; every paper for ""): validate --machine-file refuses a file of a machine none of them runs on.
std::set<std::string> reference_machines(const std::string& paper);

}  // namespace ompisim::validation
