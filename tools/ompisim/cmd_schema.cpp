// `ompisim schema KIND`: the JSON Schema of a scenario file or of a result file.
#include "core/errors.hpp"
#include "runner/schema.hpp"
#include "tools/ompisim/commands.hpp"

#include <iostream>

namespace ompisim::cli {
namespace {

int schema_command(const CLI::App&, const std::string& kind, Context&) {
  static const std::vector<std::pair<std::string, Json (*)()>> kinds = {{"scenario", scenario_schema},
                                                                        {"result", result_schema}};
  for (auto& [name, make] : kinds)
    if (name == kind) {
      std::cout << make().dump(2) << "\n";
      return 0;
    }
  throw InputError("schema", kind, "unknown schema: expected scenario or result");
}

}  // namespace

void add_schema(CLI::App& app, Context& ctx) {
  auto [sch, kind] = ctx.command(app, "schema", "print the JSON Schema of a scenario file or of a result file",
                                 schema_command);
  sch->add_option("kind", *kind, "scenario | result")->required();
}

}  // namespace ompisim::cli
