// `ompisim validate`: the scenarios with reference data, checked against the papers; the validation table (or JSON),
// exit 1 when a calibration point is outside its tolerance.
#include "core/errors.hpp"
#include "runner/registries.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

#include <fmt/format.h>
#include <iostream>

namespace ompisim::cli {
namespace {

struct ValidateOptions {
  std::string paper, machine_file;
  bool json = false;
  int samples = validation::kDefaultIntervalSamples;
  std::vector<std::string> sets;
};

int validate_command(const CLI::App&, const ValidateOptions& opt, Context&) {
  if (!opt.machine_file.empty()) {
    validation::set_machine_file(opt.machine_file);
    // A file whose machine no scenario of the papers runs on would be read and then used by none.
    const std::string name = load_machine(opt.machine_file)->name;
    const auto machines = validation::reference_machines(opt.paper);
    if (!machines.count(name))
      throw InputError("--machine-file", opt.machine_file,
                       fmt::format("its machine '{}' is the machine of no scenario {} (they run on {}), so no scenario "
                                   "would use it: give the file the name of the machine it stands for",
                                   name, opt.paper.empty() ? "with reference data" : "of " + opt.paper,
                                   fmt::join(machines, ", ")));
  }
  if (opt.samples < 0) throw InputError("--samples", std::to_string(opt.samples), "must be 0 or more");
  validation::set_interval_samples(opt.samples);
  Json v = validation::validate(opt.paper, parse_sets(opt.sets));
  if (opt.json) std::cout << v.dump(2) << "\n";
  else std::cout << validation::render_table(v);
  return validation::all_calibration_pass(v) ? 0 : 1;
}

}  // namespace

void add_validate(CLI::App& app, Context& ctx) {
  auto [val, opt] = ctx.command(app, "validate", "run the scenarios with reference data and print the validation table",
                                validate_command);
  val->add_option("--paper", opt->paper, "only this paper (e.g. gemini-xe-xk)");
  val->add_flag("--json", opt->json, "print JSON");
  val->add_option("--machine-file", opt->machine_file,
                  "machine file used by every scenario whose machine has this file's name (a what-if machine); a "
                  "file of a machine no scenario runs on is refused");
  val->add_option("--samples", opt->samples,
                  fmt::format("Latin-hypercube samples of the machines' estimate ranges and undetermined directions per "
                              "paper, and of the placements a paper leaves unstated (taken in turn), for the prediction "
                              "intervals and the claims' intervals (0: none); default {}",
                              validation::kDefaultIntervalSamples));
  CLI::Option* set = add_scenario_overrides(*val, opt->sets, nullptr, "every scenario");
  set->description(set->get_description() +
                   ": the table for a what-if parameter set (calibration points may then leave their tolerance)");
}

}  // namespace ompisim::cli
