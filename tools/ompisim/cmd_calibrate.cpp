// `ompisim calibrate`: the free parameters of a machine fitted (least squares) on a paper's calibration points.
#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "runner/registries.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/calibrate.hpp"
#include "validation/validate.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace ompisim::cli {
namespace {

struct CalibrateOptions {
  std::string paper, machine, out_dir;
  bool write = false;
  std::vector<std::string> free;
};

// --write writes a new machine file "<machine>.json" into --out (checked before the fit); the repository's machine
// file is never edited.
int calibrate_command(const CLI::App& sub, const CalibrateOptions& opt, Context& ctx) {
  refuse_empty_values(sub, {"--out", "--machine", "--paper", "--free"});
  const std::string paper = opt.paper.empty() ? "gemini-xe-xk" : opt.paper;
  std::string machine = opt.machine;
  if (!machine.empty()) {  // an unknown name is said of the option that gave it
    try {
      (void)load_machine(machine);
    } catch (const InputError& e) {
      if (e.file().empty()) throw InputError("--machine", machine, e.reason());
      throw;
    }
  }
  if (machine.empty()) {
    const std::string ref = validation::reference_files(paper).at(0);
    machine = validation::calibration_machine(load_json_file(ref), ref);
  }
  std::string write_to;
  if (opt.write) {
    if (opt.out_dir.empty())
      throw InputError("--write", "", "give --out DIR: the fitted machine file is written there as a new file");
    ctx.out = output_dir(opt.out_dir);
    // named by the machine's own name (a file's "machine"), never the input file replaced, nor a file already there
    const std::string name = load_machine(machine)->name;
    write_to = ctx.out->file(name + ".json");
    refuse_overwriting({{"--machine", machine}}, {{"--out", write_to}});
    if (std::error_code ec; std::filesystem::exists(write_to, ec)) {
      ctx.out->discard_if_unused();
      throw InputError("--out", opt.out_dir, fmt::format("{} exists (it may hold your edits): calibrate --write writes a "
                                                         "new file; give another --out or remove it", write_to));
    }
  } else if (!opt.out_dir.empty()) {
    throw InputError("--out", opt.out_dir, "calibrate writes into --out only with --write");
  }
  return validation::calibrate(paper, machine, write_to, opt.free);
}

}  // namespace

void add_calibrate(CLI::App& app, Context& ctx) {
  auto [cal, opt] = ctx.command(app, "calibrate", "fit the free parameters (least squares) on the calibration points",
                                calibrate_command);
  cal->add_option("--paper", opt->paper, "paper whose calibration points are used (ompisim list: papers; default gemini-xe-xk)");
  cal->add_option("--machine", opt->machine,
                  "the machine fitted: the one the paper's calibration points run on, which is the default (a name, "
                  "or a file of that machine name)");
  cal->add_flag("--write", opt->write,
                "write the machine file with the fitted values as a new file <machine>.json into --out (the "
                "repository's machine file is never edited)");
  cal->add_option("--out", opt->out_dir, "folder for --write's machine file (required with --write; calibrate has no "
                                         "default output folder)");
  cal->add_option("--free", opt->free,
                  "fit only the parameters whose name contains this (repeatable; the others keep their file values)")
      ->allow_extra_args(false);  // one name each: a word after it is not taken as a second
}

}  // namespace ompisim::cli
