// `ompisim machine template NAME`: a machine file to start from, written as NAME.json into --out (default the folder
// `run` writes under without --out, ompisim-out/, never the repository's results/) or to --file PATH: a copy of an
// existing machine's file (--like; default NAME's own when NAME is a machine, else cielo) whose every physical parameter carries a "note" with its meaning
// and unit, and whose description says what to replace. It loads as it is (--machine-file), so a user edits values
// and sources one by one. An existing file is replaced only with --force (it may hold the user's edits).
#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "core/safe_name.hpp"
#include "core/units.hpp"
#include "platform/machine.hpp"
#include "platform/machine_json.hpp"
#include "runner/registries.hpp"
#include "tools/ompisim/commands.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace ompisim::cli {
namespace {

struct TemplateOptions {
  std::string name, like, out_dir, file;  // like: "" until given (template_command's default)
  bool force = false;
};

// The machine's file with a note on every parameter entry (its long name is its key path). A file that extends a
// "base" is given with its base merged in (as the loader reads it), so that every parameter is in the template.
Json annotated(Machine& m) {
  Json mj = load_json_file(m.file);
  if (mj.contains("base")) mj = load_machine_json(m.file, m.file);
  for (const ParamRef& p : m.physical_params_long()) {
    Json* e = &mj;
    std::string rest = p.info.name;
    for (std::size_t dot; e && (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1))
      e = e->contains(rest.substr(0, dot)) ? &(*e)[rest.substr(0, dot)] : nullptr;
    if (!e || !e->contains(rest) || !(*e)[rest].is_object()) continue;
    // a range (the value's uncertainty, sampled for prediction intervals) must hold the value: edited with it
    const bool ranged = (*e)[rest].contains("range");
    (*e)[rest]["note"] = fmt::format("{} [{}]: replace value and source (or fit) with your machine's{}", p.info.description,
                                     to_string(p.info.dim),
                                     ranged ? ", and the range around it (or remove range and range_source)" : "");
  }
  return mj;
}

int template_command(const CLI::App& sub, const TemplateOptions& opt, Context& ctx) {
  refuse_empty_values(sub, {"--out", "--like", "--file"});
  check_safe_name(opt.name, "template", "NAME");
  // Without --like, a NAME that is a machine starts from that machine's file (`machine template frontier` edits
  // frontier, as a user typing it expects), any other from cielo's.
  std::string like = opt.like;
  if (like.empty()) {
    const auto known = list_machines();
    like = std::any_of(known.begin(), known.end(), [&](const auto& k) { return k.first == opt.name; }) ? opt.name
                                                                                                       : "cielo";
  }
  std::unique_ptr<Machine> m;
  try {
    m = load_machine(like);
  } catch (const InputError& e) {  // an unknown machine: said of --like, the option the user typed it in
    if (e.key() != "machine") throw;
    throw InputError("--like", like, e.reason());
  }
  const Json own = load_json_file(m->file);
  const std::string base = own.contains("base") && own["base"].is_string() ? own["base"].get<std::string>() : "";
  Json mj = annotated(*m);
  if (mj.contains("machine")) mj["machine"] = opt.name;
  mj["description"] = fmt::format("{}: a machine file started from {} ({}{}); every value and source below is {}'s until "
                                  "replaced", opt.name, m->name, repo_relative(m->file),
                                  base.empty() ? "" : ", with its base " + base + " merged in", m->name);
  std::string path;
  if (!opt.file.empty()) {  // a path of the user's choice: its folder exists, it is no folder and no symbolic link
    if (!opt.out_dir.empty()) throw InputError("--file", opt.file, "give --file PATH or --out DIR, not both");
    check_output_path(opt.file, "--file");
    refuse_inside_data(opt.file, "--file");
    path = std::filesystem::absolute(opt.file).lexically_normal().string();
  } else {
    ctx.out = output_dir(opt.out_dir.empty() ? kDefaultOutRoot : opt.out_dir);
    path = ctx.out->file(opt.name + ".json");
  }
  // A template is where a user's measured values go: an existing file is replaced only when asked.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !opt.force) {
    if (ctx.out) ctx.out->discard_if_unused();
    throw InputError(opt.file.empty() ? "template" : "--file", opt.file.empty() ? opt.name : opt.file,
                     fmt::format("{} exists (it may hold your edits): give another {}, --force to replace it, or "
                                 "remove it", path, opt.file.empty() ? "NAME or --out" : "--file"));
  }
  write_file_atomic(path, mj.dump(2) + "\n");
  std::cerr << fmt::format("ompisim: wrote {} (use it with run --machine-file {})\n", path, path);
  return 0;
}

}  // namespace

void add_machine(CLI::App& app, Context& ctx) {
  CLI::App* machine = app.add_subcommand("machine", "machine files: `machine template NAME` writes one to start from");
  machine->require_subcommand(1);
  auto [tpl, opt] = ctx.command(*machine, "template",
                                "write NAME.json into --out (or --file PATH): a copy of --like's machine file, every "
                                "parameter with a note on its meaning and unit, to edit into a new machine; prints the "
                                "path written",
                                template_command);
  tpl->add_option("name", opt->name, "the new machine's name (the file is NAME.json)")->required();
  tpl->add_option("--like", opt->like,
                  "the machine to start from (ompisim list; default NAME's own file when NAME is a machine, else "
                  "cielo)");
  tpl->add_option(
      "--out", opt->out_dir,
      "folder for NAME.json, created when missing (default: ompisim-out/ under the current directory, where run "
      "writes without --out; never results/, which holds the committed results)");
  tpl->add_option("--file", opt->file,
                  "write to this file instead of --out/NAME.json (its folder must exist; not with --out)");
  tpl->add_flag("--force", opt->force, "replace an existing file (without it an existing file is refused, exit 2: it may "
                                       "hold your edits)");
}

}  // namespace ompisim::cli
