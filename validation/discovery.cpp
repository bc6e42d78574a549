// What validation reads before it runs anything: the scenarios, the reference files of a paper, the machines their
// scenarios run on, and the machine file validate --machine-file puts in place of one of them. See discovery.hpp.
#include "validation/discovery.hpp"

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "validation/plot_overlays.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>

namespace fs = std::filesystem;

namespace ompisim::validation {

std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  fs::path root = fs::path(data_dir()) / "scenarios";
  if (!fs::exists(root)) return out;
  for (auto& e : fs::recursive_directory_iterator(root))
    // grid_*.json are sweep grids (scenarios/examples/), not scenarios: `ompisim sweep` runs them
    if (e.path().extension() == ".json" && !e.path().filename().string().starts_with("grid_"))
      out.push_back(fs::relative(e.path(), data_dir()).string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<ScenarioEntry> scenario_entries() {
  std::vector<ScenarioEntry> out;
  for (const std::string& rel : scenario_files()) {
    const Json j = load_json_file(data_dir() + "/" + rel);
    // a file without "id" is named by its stem, as the runner names its result (runner/scenario.cpp)
    ScenarioEntry e{rel, j.value("id", fs::path(rel).stem().string()), j.value("paper", ""), j.value("figure", ""), ""};
    const std::string sub = fs::path(rel).parent_path().filename().string();
    e.key = sub + "/" + (e.figure.empty() ? e.id : figure_file_stem(e.figure, rel));
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<ScenarioEntry> paper_scenarios(const std::string& paper) {
  (void)reference_files(paper);  // an unknown paper: InputError with the close name
  const std::vector<ScenarioEntry> all = scenario_entries();
  std::set<std::string> keys;
  for (auto& e : all)
    if (e.paper == paper) keys.insert(e.key);
  std::vector<ScenarioEntry> out;
  for (auto& e : all)
    if (keys.count(e.key)) out.push_back(e);
  return out;
}

std::string committed_scenario(const std::string& file) {
  std::error_code ec;
  const fs::path given = fs::weakly_canonical(file, ec);
  if (ec) return "";
  for (const std::string& rel : scenario_files())
    if (fs::weakly_canonical(fs::path(data_dir()) / rel, ec) == given && !ec) return rel;
  return "";
}

std::set<std::string> scenarios_named(const Json& j) {
  std::set<std::string> out;
  std::function<void(const Json&)> walk = [&](const Json& x) {
    if (x.is_string()) {
      const std::string s = x.get<std::string>();
      if (s.starts_with("scenarios/") && s.ends_with(".json")) out.insert(s);
    } else if (x.is_structured()) {
      for (const auto& e : x) walk(e);
    }
  };
  walk(j);
  return out;
}

std::vector<std::string> reference_files(const std::string& paper) {
  std::vector<std::string> out, papers;
  fs::path root = fs::path(data_dir()) / "validation" / "reference";
  if (!fs::exists(root)) return out;
  for (auto& e : fs::directory_iterator(root)) {
    if (e.path().extension() != ".json") continue;
    papers.push_back(e.path().stem().string());
    if (paper.empty() || e.path().stem() == paper) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  std::sort(papers.begin(), papers.end());
  if (!paper.empty() && out.empty()) {
    const std::string hint = did_you_mean(paper, papers);
    throw InputError("--paper", paper,
                     fmt::format("no reference data for this paper{} (papers: {})",
                                 hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(papers, ", ")));
  }
  return out;
}

namespace {
std::string g_machine_file, g_machine_file_name;
}  // namespace

// The machine file to load for a machine name: validate --machine-file's for its machine, else the name.
std::string machine_path(const std::string& name) {
  return !g_machine_file.empty() && name == g_machine_file_name ? g_machine_file : name;
}

bool machine_file_given() { return !g_machine_file.empty(); }

std::string machine_file_for(const std::string& machine) {
  return !g_machine_file.empty() && machine == g_machine_file_name ? g_machine_file : std::string();
}

std::set<std::string> reference_machines(const std::string& paper) {
  std::set<std::string> scenarios, machines;
  for (auto& f : reference_files(paper))
    for (auto& rel : scenarios_named(load_json_file(f))) scenarios.insert(rel);
  std::error_code ec;  // a name the file system refuses (too long, ...) names no file: the checks name it later
  for (auto& rel : scenarios)
    if (fs::path file = fs::path(data_dir()) / rel; fs::is_regular_file(file, ec))
      if (Json s = load_json_file(file.string()); s.contains("machine") && s["machine"].is_string())
        machines.insert(s["machine"].get<std::string>());
  return machines;
}

void set_machine_file(const std::string& path) {
  g_machine_file = path;
  g_machine_file_name = path.empty() ? "" : load_machine(path)->name;
}

}  // namespace ompisim::validation
