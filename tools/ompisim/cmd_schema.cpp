// `ompisim schema KIND`: the JSON Schema of a scenario file, a result file, a sweep's grid, its merged table or the
// validation table.
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "runner/schema.hpp"
#include "tools/ompisim/commands.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace ompisim::cli {
namespace {

int schema_command(const CLI::App&, const std::string& kind, Context&) {
  static const std::vector<std::pair<std::string, Json (*)()>> kinds = {
      {"scenario", scenario_schema}, {"result", result_schema}, {"grid", grid_schema}, {"sweep", sweep_schema},
      {"validation", validation_schema}};
  for (auto& [name, make] : kinds)
    if (name == kind) {
      std::cout << make().dump(2) << "\n";
      return 0;
    }
  std::vector<std::string> names;
  for (auto& k : kinds) names.push_back(k.first);
  std::string hint = did_you_mean(kind, names);
  throw InputError("schema", kind, fmt::format("unknown schema{}: expected one of {}",
                                               hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
}

}  // namespace

void add_schema(CLI::App& app, Context& ctx) {
  auto [sch, kind] = ctx.command(app, "schema", "print the JSON Schema of a scenario file, a result file, a sweep's grid "
                                 "(sweep GRID.json), a sweep's merged table (sweep.json) or the validation table "
                                 "(validation.json)",
                                 schema_command);
  sch->add_option("kind", *kind, "scenario | result | grid | sweep | validation")->required();
}

}  // namespace ompisim::cli
