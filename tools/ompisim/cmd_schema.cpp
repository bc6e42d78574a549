// `ompisim schema KIND`: the JSON Schema of a scenario file, a result file, a sweep's grid, its merged table, the
// validation table or a machine file.
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "runner/schema.hpp"
#include "tools/ompisim/commands.hpp"

#include <fmt/format.h>
#include <functional>
#include <fmt/ranges.h>
#include <iostream>

namespace ompisim::cli {
namespace {

struct SchemaOptions {
  std::string kind;
  std::vector<std::string> machine_files;  // machines of one's own, listed beside the installed ones
};

int schema_command(const CLI::App& sub, const SchemaOptions& opt, Context&) {
  refuse_empty_values(sub, {"--machine-file"});
  std::vector<std::string> machines;
  for (auto& f : opt.machine_files) {
    refuse_not_machine_file(f);
    machines.push_back(load_machine(f)->name);
  }
  const std::vector<std::pair<std::string, std::function<Json()>>> kinds = {
      {"scenario", [&] { return scenario_schema(machines); }},
      {"result", result_schema},
      {"grid", [&] { return grid_schema(machines); }},
      {"sweep", sweep_schema},
      {"validation", validation_schema},
      {"machine", machine_schema}};
  for (auto& [name, make] : kinds)
    if (name == opt.kind) {
      std::cout << make().dump(2) << "\n";
      return 0;
    }
  std::vector<std::string> names;
  for (auto& k : kinds) names.push_back(k.first);
  std::string hint = did_you_mean(opt.kind, names);
  throw InputError::of_argument("schema", opt.kind, fmt::format("unknown schema{}: expected one of {}",
                                                   hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                                   fmt::join(names, ", ")));
}

}  // namespace

void add_schema(CLI::App& app, Context& ctx) {
  auto [sch, opt] = ctx.command(app, "schema",
                                "print the JSON Schema of a scenario file, a result file, a sweep's grid (sweep "
                                "GRID.json), a sweep's merged table (sweep.json), the validation table "
                                "(validation.json) or a machine file",
                                schema_command);
  sch->add_option("kind", opt->kind, "scenario | result | grid | sweep | validation | machine")->required();
  sch->add_option("--machine-file", opt->machine_files,
                  "a machine file of one's own (run --machine-file): its machine name joins the installed machines "
                  "in the scenario's \"machine\" enumeration; repeatable")
      ->allow_extra_args(false);  // one file each: `--machine-file m.json scenario` leaves the kind to the positional
}

}  // namespace ompisim::cli
