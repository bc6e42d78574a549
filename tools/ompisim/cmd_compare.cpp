// `ompisim compare A B` / `ompisim compare --against DIR`: two results (files or folders) metric by metric, or the
// committed results of a folder against this build's rerun; exit 1 beyond the tolerance.
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "core/progress.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/compare.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <map>
#include <set>
#include <utility>

namespace ompisim::cli {
namespace {

// How a result file was run, from its provenance and its head: benchmark, machine, stack, ranks, overrides (run
// --set), machine file, engine and MCA values. Empty overrides when the file is no result or has no provenance
// (compare_paths then reports the file).
struct RunSetting {
  std::string overrides, machine_file, engine, machine, stack, ranks, benchmark, routing, nodes;
  std::map<std::string, std::string> mca;
  std::set<std::string> set_keys;  // the --set names (an MCA value they changed is said once, as the --set)
};
std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
// A sweep's table (sweep.json) stands for its points: how they were run is its first point's result, but for the
// values its axes set, which differ from point to point. Null when the table or that point's file does not load.
Json sweep_first_point(const std::string& path, const Json& table, std::set<std::string>& axes) {
  if (!table.contains("rows") || !table["rows"].is_array() || table["rows"].empty() || !table["rows"][0].is_object())
    return nullptr;
  const Json& point = table["rows"][0].value("point", Json());
  if (!point.is_string()) return nullptr;
  const std::string id = point.get<std::string>();
  if (id.empty() || id.find_first_of("/\\.") != std::string::npos) return nullptr;  // a file name, never a path
  const Json p = load_json_file((std::filesystem::path(path).parent_path() / "points" / (id + ".json")).string());
  if (!p.is_object() || !p.contains("result") || !p["result"].is_object()) return nullptr;
  for (auto& a : table.value("axes", Json::array()))
    if (a.is_string()) axes.insert(a.get<std::string>());
  return p["result"];
}
RunSetting run_setting(const std::string& path) {
  RunSetting s;
  try {
    Json doc = load_json_file(path);
    if (!doc.is_object() || !doc.contains("provenance") || !doc["provenance"].is_object()) return s;  // not a result
    std::set<std::string> axes;  // a sweep's axes: not a setting of the whole sweep
    if (doc.contains("grid") && doc.contains("rows")) {
      Json first = sweep_first_point(path, doc, axes);
      if (!first.is_object() || !first.contains("provenance") || !first["provenance"].is_object()) return s;
      first["provenance"]["overrides"] = doc["provenance"].value("overrides", Json::array());
      doc = std::move(first);
    }
    const Json& prov = doc["provenance"];
    std::vector<std::string> sets;
    for (auto& o : prov.value("overrides", Json::array()))
      if (o.is_array() && o.size() == 2 && o[0].is_string() && o[1].is_string())
        sets.push_back(o[0].get<std::string>() + "=" + o[1].get<std::string>()), s.set_keys.insert(o[0].get<std::string>());
    s.overrides = sets.empty() ? "no --set" : set_words(sets);
    s.machine_file = prov.value("machine_file", "");
    s.engine = prov.value("engine", "");
    if (doc.contains("machine")) s.machine = text_of(doc["machine"]);
    if (doc.contains("stack")) s.stack = text_of(doc["stack"]);
    if (doc.contains("benchmark")) s.benchmark = text_of(doc["benchmark"]);
    if (doc.contains("ranks"))
      s.ranks = text_of(doc["ranks"]) +
                (doc.contains("ranks_per_node") ? ", " + text_of(doc["ranks_per_node"]) + " per node" : std::string());
    if (auto it = prov.find("routing"); it != prov.end() && it->is_string()) {  // the route policy
      s.routing = it->get<std::string>();
    } else if (it != prov.end() && it->is_object()) {  // network -> route policy
      std::vector<std::string> r;
      for (auto n = it->begin(); n != it->end(); ++n) r.push_back(n.key() + " " + text_of(n.value()));
      s.routing = fmt::format("{}", fmt::join(r, ", "));
    }
    // the scenario's nodes ("[0, 1000]"; a long list by its ends and count), else the placement's default
    s.nodes = "as placed by default";
    if (auto m = prov.find("mapping"); m != prov.end() && m->is_object() && m->contains("nodes") && (*m)["nodes"].is_array()) {
      const Json& n = (*m)["nodes"];
      std::vector<std::string> shown;
      for (std::size_t i = 0; i < n.size(); ++i)
        if (n.size() <= 6 || i < 2 || i + 1 == n.size()) shown.push_back((i + 1 == n.size() && n.size() > 6 ? "..., " : "") + n[i].dump());
      s.nodes = fmt::format("[{}]{}", fmt::join(shown, ", "), n.size() > 6 ? fmt::format(" ({} nodes)", n.size()) : "");
    }
    if (auto it = prov.find("mca"); it != prov.end() && it->is_object())
      for (auto m = it->begin(); m != it->end(); ++m)
        if (!axes.count("mca." + m.key())) s.mca[m.key()] = text_of(m.value());
    // an axis the sweep varies is no setting of it: left equal on both sides (not stored), so never said
    for (auto [key, field] : {std::pair{"machine", &s.machine}, {"stack", &s.stack}, {"ranks", &s.ranks},
                              {"nodes", &s.nodes}, {"engine", &s.engine}})
      if (axes.count(key)) field->clear();
  } catch (const std::exception&) {
  }
  return s;
}
// Two result files compared side by side: what each was run with, where the two differ (a stack, a machine, a rank
// count, a route policy, "--set nic.bte_bandwidth=6 GB/s" against "no --set", a machine file, an engine, the MCA values of one
// stack), as the two names' suffixes (both empty when they agree, or when either file has no provenance).
std::pair<std::string, std::string> setting_suffixes(const std::string& a, const std::string& b) {
  const RunSetting sa = run_setting(a), sb = run_setting(b);
  if (sa.overrides.empty() || sb.overrides.empty()) return {};
  std::vector<std::string> na, nb;
  auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
    // a side whose provenance lacks it says so, not "machine file " with nothing after it
    auto shown = [](const std::string& v) { return v.empty() ? std::string("not stored") : v; };
    if (x != y) na.push_back(what + " " + shown(x)), nb.push_back(what + " " + shown(y));
  };
  differ("benchmark", sa.benchmark, sb.benchmark);  // two benchmarks: their metrics differ, said first
  differ("machine", sa.machine, sb.machine);
  differ("stack", sa.stack, sb.stack);
  differ("ranks", sa.ranks, sb.ranks);
  if (sa.machine == sb.machine) differ("nodes", sa.nodes, sb.nodes);
  if (sa.machine == sb.machine) differ("routing", sa.routing, sb.routing);
  if (sa.overrides != sb.overrides) na.push_back(sa.overrides), nb.push_back(sb.overrides);
  if (sa.machine == sb.machine) differ("machine file", sa.machine_file, sb.machine_file);
  differ("engine", sa.engine, sb.engine);
  if (sa.stack == sb.stack) {  // one stack's MCA values that differ (the scenario's mca block or a --set of one)
    std::vector<std::string> ma, mb;
    for (auto& [k, v] : sa.mca)
      if (auto it = sb.mca.find(k); it != sb.mca.end() && it->second != v && !sa.set_keys.count(k) && !sb.set_keys.count(k))
        ma.push_back(k + "=" + v), mb.push_back(k + "=" + it->second);
    constexpr std::size_t kShown = 4;
    auto words = [&](std::vector<std::string> w) {
      const std::size_t more = w.size() > kShown ? w.size() - kShown : 0;
      w.resize(std::min(w.size(), kShown));
      return fmt::format("mca {}{}", fmt::join(w, ", "), more ? fmt::format(" and {} more", more) : "");
    };
    if (!ma.empty()) na.push_back(words(ma)), nb.push_back(words(mb));
  }
  if (na.empty()) return {};
  return {fmt::format(" (run with {})", fmt::join(na, "; ")), fmt::format(" (run with {})", fmt::join(nb, "; "))};
}
// The header's names say what the ratios are ratios of: for two files, how each was run where they differ; for two
// folders, the same for the result files paired by relative path when every pair differs alike (the usual A/B of
// one setting over several scenarios), else that the settings differ from file to file.
void name_settings(const std::string& a, const std::string& b, std::string& name_a, std::string& name_b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::pair<std::string, std::string> suffixes;
  // a folder of one result against a file (validation::compare_paths): that result and the file
  auto one = [&](const std::string& p) {
    if (!fs::is_directory(p, ec)) return p;
    const auto r = validation::results_below(p);
    return r.size() == 1 ? r.begin()->second : p;
  };
  if (fs::is_regular_file(one(a), ec) && fs::is_regular_file(one(b), ec)) {
    suffixes = setting_suffixes(one(a), one(b));
  } else if (fs::is_directory(a, ec) && fs::is_directory(b, ec)) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& e : fs::recursive_directory_iterator(a, ec)) {
      const fs::path other = fs::path(b) / fs::relative(e.path(), a, ec);
      if (e.is_regular_file() && e.path().extension() == ".json" && fs::is_regular_file(other, ec))
        seen.insert(setting_suffixes(e.path().string(), other.string()));
    }
    // two folders of one result each, compared with each other (validation::compare_paths)
    if (seen.empty())
      if (const auto ra = validation::results_below(a), rb = validation::results_below(b); ra.size() == 1 && rb.size() == 1)
        seen.insert(setting_suffixes(ra.begin()->second, rb.begin()->second));
    if (seen.size() == 1) suffixes = *seen.begin();
    else if (seen.size() > 1) suffixes = {" (run settings differ from file to file)", ""};
  }
  name_a += suffixes.first;
  name_b += suffixes.second;
}

struct CompareOptions {
  std::string a, b, against, tolerance = "1e-9", only, engine;
  bool all = false, diff_only = false, json = false;
  std::vector<std::string> sets;
};

int compare_command(const CLI::App& sub, const CompareOptions& opt, Context&) {
  refuse_empty_values(sub, {"--against", "--only", "--engine"});
  const double tol = validation::parse_tolerance(opt.tolerance);
  validation::Comparison c;
  std::string name_a = opt.a, name_b = opt.b;
  if (!opt.against.empty()) {
    if (!opt.a.empty()) throw InputError::of_argument("compare", opt.a, "--against reruns the results it names: give no A or B");
    c = validation::compare_against(opt.against, tol, opt.only, parse_sets(opt.sets), progress::points, opt.engine);
    name_a = opt.against + " (as stored)";
    name_b = "this build's rerun" + (opt.sets.empty() ? std::string() : " with " + set_words(opt.sets));
    if (!opt.engine.empty()) name_b += " on engine " + opt.engine;
  } else {
    if (opt.a.empty() || opt.b.empty()) throw InputError::of_argument("compare", opt.a, "give A and B, or --against DIR");
    if (!opt.engine.empty()) throw InputError("--engine", opt.engine, "applies to --against only");
    if (!opt.only.empty() || !opt.sets.empty())
      throw InputError(opt.only.empty() ? "--set" : "--only", opt.only.empty() ? opt.sets.front() : opt.only,
                       "applies to --against only");
    c = validation::compare_paths(opt.a, opt.b, tol);
    name_settings(opt.a, opt.b, name_a, name_b);
  }
  if (opt.json) std::cout << validation::comparison_json(c, opt.diff_only).dump(2) << "\n";
  else std::cout << validation::render_comparison(c, name_a, name_b, !opt.all);
  return c.ok() ? 0 : 1;
}

}  // namespace

void add_compare(CLI::App& app, Context& ctx) {
  auto [cmp, opt] = ctx.command(app, "compare",
                                "compare two results (files or folders) metric by metric, or rerun the committed "
                                "scenarios of a results folder (--against) and report drift; exit 1 beyond the "
                                "tolerance",
                                compare_command);
  cmp->add_option("A", opt->a, "result JSON file or folder of results");
  cmp->add_option("B", opt->b, "result JSON file or folder of results (paired with A by relative path)");
  cmp->add_option("--against", opt->against, "rerun the scenario of every result in this folder as it was run (its "
                                             "stored --set, machine file and engine) and compare");
  cmp->add_option("--only", opt->only, "with --against: only results whose path below the folder, or whose scenario file (scenarios/...), contains this text");
  add_scenario_overrides(*cmp, opt->sets, &opt->engine, "every scenario rerun by --against");
  cmp->add_option("--tolerance", opt->tolerance,
                  "relative tolerance (0.02 or 2%), of the larger of the two values: |B - A| > tolerance x "
                  "max(|A|, |B|) is beyond it, so 100 against 105 differs by 4.8 % either way; default 1e-9: two "
                  "values equal to nine digits are equal (a "
                  "what-if may sum the same times in another order, a difference in the last bits); 0: any difference");
  cmp->add_flag("--all", opt->all, "print every value compared (default: only the values beyond the tolerance, then the "
                "summary line)");
  cmp->add_flag("--diff-only", opt->diff_only, "print only the values beyond the tolerance (the default; kept for scripts)");
  cmp->add_flag("--json", opt->json, "print JSON: every value compared (\"values\" counts them), or with --diff-only only the rows "
                "beyond the tolerance");
}

}  // namespace ompisim::cli
