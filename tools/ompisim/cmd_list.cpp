// `ompisim list [CATEGORY]`: the machines, components, stack presets, engines, NIC kinds, topologies, benchmarks,
// collectives, papers (validate --paper) and scenarios there are, and the example sweep grids (or those of one
// category): every name `describe` takes is listed here.
#include "benchmarks/driver.hpp"
#include "collectives/registry.hpp"
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "platform/machine.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology_registry.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"
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

struct ListOptions {
  std::string category;  // empty: every category
};

void print_machines() {
  std::cout << "machines:\n";
  const auto machines = ompisim::list_machines();
  for (auto& [n, f] : machines) std::cout << "  " << n << "  (" << f << ")\n";
  if (machines.empty()) std::cout << "  (none: " << ompisim::known_machines_text({}) << ")\n";
}
void print_components() {
  std::cout << "components (by framework; a scenario's \"stack\" may compose them, e.g. {\"pml\": \"ob1\", \"btl\": "
               "[\"self\", \"vader\", \"ugni\"]}):\n";
  for (auto& fw : component_registry().frameworks()) {
    std::cout << "  " << fw << ":\n";
    for (auto& c : component_registry().all())
      if (c.framework == fw)
        std::cout << "    " << component_row(c) << "\n";
  }
  // Open MPI's coll framework: here the collectives and their algorithms (collectives/), listed in their own section
  std::cout << "  coll: the collectives and their algorithms, under \"collectives\" (ompisim describe coll)\n";
}
void print_stacks() {
  std::cout << "stacks (presets):\n";
  for (auto& s : stack_registry().all())
    std::cout << "  " << s.name << " [" << s.nic_kind << "] " << s.spec.to_json().dump() << "  " << s.description
              << (s.collectives.name.empty() ? "" : "; collectives " + s.collectives.name) << "\n";
}
void print_engines() {
  std::cout << "engines (a scenario's \"engine\"):\n";
  for (auto& e : engines().all()) std::cout << fmt::format("  {:<8} {}\n", e.name, e.description);
}
void print_nic_kinds() {
  std::cout << "NIC kinds:\n";
  for (auto& k : nic_kinds().all()) std::cout << "  " << k.name << "  " << k.description << "\n";
}
void print_topologies() {
  std::cout << "topologies (a machine file's networks.<name>.topology.kind):\n";
  for (auto& t : topology::topologies().all()) std::cout << fmt::format("  {:<10} {}\n", t.name, t.description);
}
void print_route_policies() {
  std::cout << "route policies (a machine file's networks.<name>.topology.routing, or a scenario's \"routing\"):\n";
  for (auto& r : topology::route_policies().all())
    std::cout << fmt::format("  {:<16} [{}]  {}\n", r.name, r.kinds.empty() ? std::string("every topology")
                                                                            : fmt::format("{}", fmt::join(r.kinds, ", ")),
                             r.description);
}
void print_benchmarks() {
  std::cout << "benchmarks (ompisim describe NAME: the keys of its \"benchmark\" block):\n";
  for (auto& b : bench::driver_registry().all())
    std::cout << fmt::format("  {:<14} [{}]  {}\n", b.name, b.family, b.description);
  std::cout << "benchmark keys that name one of a list (benchmark.key: values):\n";
  for (auto& b : bench::driver_registry().all())
    for (auto& p : b.params)
      if (p.choices) std::cout << fmt::format("  {}.{}: {}\n", b.name, p.name, fmt::join(p.choices(), ", "));
}
void print_collectives() {
  std::cout << "collectives (ompisim describe NAME: each algorithm and the Open MPI or MPICH function it mirrors):\n";
  for (auto& [c, algos] : collectives_with_algorithms()) std::cout << fmt::format("  {:<14} {}\n", c, fmt::join(algos, ", "));
}
// The papers with reference data: the names validate --paper and calibrate --paper take.
void print_papers() {
  std::cout << "papers (validate --paper, calibrate --paper, describe):\n";
  for (auto& f : validation::reference_files("")) {
    std::string title;
    try {
      title = load_json_file(f).value("title", "");
    } catch (const std::exception&) {
    }
    std::cout << fmt::format("  {:<16} {}\n", std::filesystem::path(f).stem().string(), title);
  }
}
void print_scenarios() {
  std::cout << "scenarios:\n";
  for (auto& f : validation::scenario_files()) std::cout << "  " << f << "\n";
}
// The grids a user copies to start a sweep (`sweep` takes them by this name from any folder), with the folder they
// are in, which for an installed tool is not the current one.
void print_grids() {
  namespace fs = std::filesystem;
  const fs::path examples = fs::path(data_dir()) / "scenarios" / "examples";
  std::vector<std::string> grids;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(examples, ec))
    if (e.path().extension() == ".json" && e.path().filename().string().starts_with("grid_"))
      grids.push_back(e.path().filename().string());
  std::sort(grids.begin(), grids.end());
  if (!grids.empty()) {
    std::cout << fmt::format("example grids (ompisim sweep FILE; copy one from {} to make your own):\n",
                             fs::weakly_canonical(examples, ec).string());
    for (auto& g : grids) std::cout << "  scenarios/examples/" << g << "\n";
  }
}

// The categories, in the order `list` prints them: the name `list CATEGORY` takes (its heading's), its singular, and
// what prints it.
struct Category {
  const char* name;
  const char* singular;
  void (*print)();
};
constexpr Category kCategories[] = {
    {"machines", "machine", print_machines},       {"components", "component", print_components},
    {"stacks", "stack", print_stacks},             {"engines", "engine", print_engines},
    {"nic-kinds", "nic-kind", print_nic_kinds},    {"topologies", "topology", print_topologies},
    {"route-policies", "route-policy", print_route_policies},
    {"benchmarks", "benchmark", print_benchmarks}, {"collectives", "collective", print_collectives},
    {"papers", "paper", print_papers},             {"scenarios", "scenario", print_scenarios},
    {"grids", "grid", print_grids}};

// The category a user typed: its name or singular, in any case, with '_' or ' ' for '-' ("NIC kinds", "nic_kind");
// "algorithms" (the collectives' heading lists them) and "example-grids" (the grids' heading) too. InputError naming
// the categories, with the closest one, for any other word.
const Category& category(const std::string& given) {
  std::string w;
  for (char ch : given) w += ch == '_' || ch == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (w == "algorithms" || w == "algorithm") w = "collectives";
  if (w == "example-grids" || w == "example-grid") w = "grids";
  std::vector<std::string> names;
  for (const Category& c : kCategories) {
    if (w == c.name || w == c.singular) return c;
    names.push_back(c.name);
  }
  if (given.empty())
    throw InputError("list", "", fmt::format("an empty category: give one of {}, or none for all", fmt::join(names, ", ")));
  const std::string hint = did_you_mean(w, names);
  throw InputError::of_argument("list", given, fmt::format("no such category{} (categories: {})",
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")));
}

int list_command(const CLI::App& sub, const ListOptions& opt, Context&) {
  if (sub.get_option("category")->count() > 0) {  // given, even empty: an empty word is no category
    category(opt.category).print();
    return 0;
  }
  for (const Category& c : kCategories) c.print();
  return 0;
}

}  // namespace

void add_list(CLI::App& app, Context& ctx) {
  auto [list, opt] = ctx.command(app, "list", "list machines, components, stacks, engines, NIC kinds, topologies, "
                                              "benchmarks, collectives and their algorithms, papers (validate --paper), "
                                              "scenarios and example sweep grids; or only those of CATEGORY",
                                 list_command);
  std::string names;
  for (const Category& c : kCategories) names += std::string(names.empty() ? "" : " | ") + c.name;
  list->add_option("category", opt->category, names);
}

}  // namespace ompisim::cli
