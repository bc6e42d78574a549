// The comparator: runs the scenarios that carry reference data (validation/reference/*.json), compares every point
// (calibration points within their tolerance, predictions reported with their error, held-out values reported as
// predictions without a reference) and evaluates the papers' qualitative claims. Also: calibration (Eigen
// Levenberg-Marquardt on the calibration points) and the reproduce job (results/, plots, validation.md).
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"

#include <string>
#include <vector>

namespace ompisim::validation {

std::vector<std::string> scenario_files();               // every scenarios/**/*.json, sorted
std::vector<std::string> reference_files(const std::string& paper);
Json validate(const std::string& paper, const Overrides& sets = {});                  // {"points": [...], "held_out": [...], "claims": [...]}
std::string render_table(const Json& v);                  // Markdown
bool all_calibration_pass(const Json& v);
int calibrate(const std::string& paper, const std::string& machine, bool write);
int reproduce(const std::string& out_dir);
// validate --machine-file: scenarios whose machine has this file's machine name use the file instead.
void set_machine_file(const std::string& path);

}  // namespace ompisim::validation
