// What validation reads before it runs anything: the scenarios, the reference files (validation/reference/*.json),
// the machines their scenarios run on, and the machine file validate --machine-file puts in place of one of them.
#pragma once
#include "core/json_input.hpp"

#include <set>
#include <string>
#include <vector>

namespace ompisim::validation {

std::vector<std::string> scenario_files();  // every scenarios/**/*.json but the grids (grid_*.json), sorted
// A scenario of scenario_files() as `list` and `describe` show it, read from its JSON alone: its paper and figure, and
// the figure's key as reproduce names its plot (<folder>/<figure file stem>, the scenario id where it has no figure).
struct ScenarioEntry {
  std::string rel, id, paper, figure, key;
};
std::vector<ScenarioEntry> scenario_entries();  // every scenario_files() entry, in that order
// A paper's scenarios, as `describe PAPER` lists them and `reproduce --paper` runs them: those whose "paper" is
// `paper`, and every other scenario plotted in one of their figures (same key), so that each figure is whole; in
// scenario_files() order. InputError naming --paper, with a did-you-mean, for a paper without a reference file.
std::vector<ScenarioEntry> paper_scenarios(const std::string& paper);
// The path of `file` (as given) relative to the data folder when it is one of scenario_files() ("scenarios/..."),
// else "": a committed scenario, whatever path names it.
std::string committed_scenario(const std::string& file);
// Every scenario file a reference entry names, at any depth: each string that starts with the folder scenarios/ and
// ends in .json (a "scenario" key's value, a claim check's a and b).
std::set<std::string> scenarios_named(const Json& entry);
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
