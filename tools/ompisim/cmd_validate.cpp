// `ompisim validate`: the scenarios with reference data, checked against the papers; the validation table (or JSON),
// exit 1 when a calibration point is outside its tolerance.
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "core/limits.hpp"
#include "runner/registries.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace ompisim::cli {
namespace {

struct ValidateOptions {
  std::string paper, machine_file;
  bool json = false;
  int samples = validation::kDefaultIntervalSamples;
  int jobs = 1;  // papers at once
  std::vector<std::string> sets;
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// --paper names a paper with reference data; a misspelling, or a part of one paper's name ("gemini" for gemini-xe-xk),
// is refused with that paper as the suggestion.
void check_paper(const std::string& paper) {
  if (paper.empty()) return;
  std::vector<std::string> papers;
  for (auto& f : validation::reference_files("")) papers.push_back(std::filesystem::path(f).stem().string());
  if (std::find(papers.begin(), papers.end(), paper) != papers.end()) return;
  std::string hint = did_you_mean(paper, papers);
  if (hint.empty()) {
    std::vector<std::string> holding;
    for (auto& p : papers)
      if (lower(p).find(lower(paper)) != std::string::npos) holding.push_back(p);
    if (holding.size() == 1) hint = holding.front();
  }
  throw InputError("--paper", paper,
                   fmt::format("no reference data for this paper{} (papers: {})",
                               hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(papers, ", ")));
}

int validate_command(const CLI::App& sub, const ValidateOptions& opt, Context&) {
  refuse_empty_values(sub, {"--paper", "--machine-file"});
  if (opt.samples < 0 || opt.samples > limits::kMaxIntervalSamples)
    throw InputError("--samples", std::to_string(opt.samples),
                     fmt::format("must be 0 to {} (each sample reruns every scenario of the paper)",
                                 limits::kMaxIntervalSamples));
  check_paper(opt.paper);
  if (!opt.machine_file.empty()) {
    refuse_not_machine_file(opt.machine_file);
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
  validation::set_interval_samples(opt.samples);
  Json v = validation::validate(opt.paper, parse_sets(opt.sets), nullptr, opt.jobs);
  // A table of changed parameters says so: in the JSON (a list, as every top-level entry is) and above the text.
  std::vector<std::string> what_if;
  if (!opt.sets.empty()) what_if.push_back(set_words(opt.sets));
  if (!opt.machine_file.empty()) what_if.push_back("--machine-file " + opt.machine_file);
  if (!what_if.empty()) v["what_if"] = what_if;
  if (opt.json) std::cout << v.dump(2) << "\n";
  else {
    if (!what_if.empty())
      std::cout << "What-if: every scenario run with " << fmt::format("{}", fmt::join(what_if, " and "))
                << " (not the committed parameters).\n\n";
    std::cout << validation::render_table(v);
  }
  // the verdict last, where a reader of a long table looks: the exit status and what it counts
  const int status = validation::all_calibration_pass(v) ? 0 : 1;
  std::cerr << fmt::format("ompisim validate: exit {} ({}): {}\n", status,
                           status ? "a calibration point or pair out of tolerance" : "every calibration point and pair within",
                           validation::summary_counts(v));
  return status;
}

}  // namespace

void add_validate(CLI::App& app, Context& ctx) {
  auto [val, opt] = ctx.command(app, "validate", "run the scenarios with reference data and print the validation table",
                                validate_command);
  val->add_option("--paper", opt->paper, "only this paper (ompisim list: papers; e.g. gemini-xe-xk)");
  val->add_flag("--json", opt->json, "print JSON");
  val->add_option("--machine-file", opt->machine_file,
                  "machine file used by every scenario whose machine has this file's name (a what-if machine); a "
                  "file of a machine no scenario runs on is refused");
  val->add_option("--samples", opt->samples,
                  fmt::format("Latin-hypercube samples of the machines' estimate ranges and undetermined directions per "
                              "paper, and of the placements a paper leaves unstated (taken in turn), for the prediction "
                              "intervals and the claims' intervals (0: none, at most {}); default {}",
                              limits::kMaxIntervalSamples, validation::kDefaultIntervalSamples));
  val->add_option("-j,--jobs", opt->jobs,
                  "interval samples evaluated at once on this machine (each in its own process; the same table in any "
                  "number); default 1")
      ->check(jobs_range());
  CLI::Option* set = add_scenario_overrides(*val, opt->sets, nullptr, "every scenario");
  set->description(set->get_description() +
                   ": the table for a what-if parameter set (calibration points may then leave their tolerance)");
}

}  // namespace ompisim::cli
