#include "validation/sensitivity.hpp"

#include "core/params.hpp"
#include "core/progress.hpp"
#include "core/units.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ompisim::validation {

namespace {
// The field a scenario's result is read from: its plot field, else the first of the drivers' usual metrics.
std::string metric_of(const Scenario& s, const Json& res) {
  const Json& p0 = res.at("points").at(0);
  if (!s.plot.empty() && p0.contains(s.plot)) return s.plot;
  for (const char* m : {"latency_us", "bandwidth_GBps", "availability_pct", "runtime_s", "messages_per_s"})
    if (p0.contains(m)) return m;
  throw InputError(s.file, "points", "the result has no metric to differentiate");
}

std::vector<double> values(const Json& res, const std::string& metric) {
  std::vector<double> v;
  for (auto& p : res.at("points")) v.push_back(p.at(metric).get<double>());
  return v;
}

std::string text_of(double v, const ParamInfo& info) {
  if (info.dim == Dim::Ratio) return fmt::format("{:.12g}", v);
  return fmt::format("\"{}\"", format_quantity(v, info.dim));
}
}  // namespace

// An MCA parameter's resolved text ("8192 B", "32", "1.5 us") as a number and the dimension it was written in.
static std::pair<double, Dim> mca_value(const Json& base, const std::string& key, const std::string& file) {
  const Json& mca = base["provenance"]["mca"];
  if (!mca.contains(key) || !mca[key].is_string()) {
    std::vector<std::string> known;
    for (auto it = mca.begin(); it != mca.end(); ++it) known.push_back(it.key());
    const std::string hint = did_you_mean(key, known);
    throw InputError("--mca", key, "no such MCA parameter in " + file + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  const std::string text = mca[key].get<std::string>();
  for (Dim d : {Dim::Bytes, Dim::Time, Dim::Rate}) {
    try {
      return {parse_quantity(text, d), d};
    } catch (const std::exception&) {
    }
  }
  std::size_t n = 0;
  double v = 0;
  try {
    v = std::stod(text, &n);
  } catch (const std::exception&) {
  }
  if (n == 0 || n != text.size()) throw InputError("--mca", key, "its value '" + text + "' is not a number");
  return {v, Dim::Ratio};
}

Json sensitivity(const std::string& scenario_file, double h, const std::vector<std::string>& mca) {
  Scenario s = load_scenario(scenario_file);
  auto m = s.machine_file.empty() ? load_machine(s.machine) : load_machine(s.machine_file);
  check_mca_names(s, mca, "--mca");  // before the first run: a name the stack does not read is refused at once
  auto run = [&](const Overrides& sets) { return Json::parse(run_isolated([&] { return run_scenario(s, sets).dump(); })); };
  Json base = run({});
  const std::string metric = metric_of(s, base);
  const std::vector<double> v0 = values(base, metric);
  Json xs = Json::array();
  for (auto& p : base["points"]) xs.push_back(p.contains("bytes") ? p["bytes"] : p.contains("ranks") ? p["ranks"] : p.value("app", Json("")));
  Json params = Json::array(), skipped = Json::array();
  auto derivative = [&](const std::string& name, const std::string& up_text, const std::string& down_text) {
    std::vector<double> vu = values(run({{name, up_text}}), metric);
    std::vector<double> vd = values(run({{name, down_text}}), metric);
    Json d = Json::array();
    double worst = 0;
    for (std::size_t i = 0; i < v0.size(); ++i) {
      double s_i = (vu[i] > 0 && vd[i] > 0) ? (std::log(vu[i]) - std::log(vd[i])) / (2 * h) : 0.0;
      if (std::fabs(s_i) < 1e-9) s_i = 0.0;
      d.push_back(s_i);
      worst = std::max(worst, std::fabs(s_i));
    }
    return std::make_pair(d, worst);
  };
  const ParamList physical = m->physical_params();
  const std::size_t total = physical.size() + mca.size();
  std::size_t done = 0;
  for (const std::string& key : mca) {
    progress::points(done++, total, key);
    auto [x, dim] = mca_value(base, key, s.file);
    Json shown = base["provenance"]["mca"][key];
    // A value of 0 that means "auto" (btl_ugni_smsg_limit) is varied around the value the run used (the result's
    // provenance.derived "<key> (effective)"): the parameter was asked for by name, so it is not skipped silently.
    const Json effective = base["provenance"].value("derived", Json::object()).value(key + " (effective)", Json());
    if (x <= 0 && effective.is_number() && effective.get<double>() > 0) {
      x = effective.get<double>();
      shown = fmt::format("{} (effective; value {})", format_quantity(x, dim),
                          shown.is_string() ? shown.get<std::string>() : shown.dump());
    }
    if (x <= 0) {
      skipped.push_back(key);
      continue;
    }
    auto text = [dim = dim](double v) { return dim == Dim::Ratio ? fmt::format("{:.12g}", v) : format_quantity(v, dim); };
    auto [d, worst] = derivative(key, text(x * std::exp(h)), text(x * std::exp(-h)));
    params.push_back({{"name", key}, {"value", shown}, {"source", "MCA parameter (--mca)"},
                      {"derivatives", d}, {"max_abs", worst}});
  }
  for (auto& r : physical) {
    progress::points(done++, total, r.info.name);
    const double x = r.p->value;
    if (x <= 0 || !r.info.choices.empty() || r.info.dim == Dim::Count) {
      skipped.push_back(r.info.name);
      continue;
    }
    const double up = x * std::exp(h), down = x * std::exp(-h);
    if (up > r.info.max || down < r.info.min) {
      skipped.push_back(r.info.name);
      continue;
    }
    auto [d, worst] = derivative(r.info.name, text_of(up, r.info), text_of(down, r.info));
    params.push_back({{"name", r.info.name}, {"value", format_param(x, r.info)}, {"source", r.p->source},
                      {"derivatives", d}, {"max_abs", worst}});
  }
  progress::clear();
  std::stable_sort(params.begin(), params.end(), [](const Json& a, const Json& b) {
    return a["max_abs"].get<double>() > b["max_abs"].get<double>();
  });
  return Json{{"scenario", s.file}, {"metric", metric}, {"step", h}, {"points", xs}, {"nominal", v0},
              {"parameters", params}, {"not_varied", skipped}};
}

std::string render_sensitivity(const Json& s) {
  std::string out = fmt::format("# sensitivity of {} ({}): d ln(result) / d ln(parameter), central differences at "
                                "+-{:g} in log space\n",
                                s["scenario"].get<std::string>(), s["metric"].get<std::string>(), s["step"].get<double>());
  std::string pts;
  for (auto& x : s["points"]) pts += " " + (x.is_string() ? x.get<std::string>() : x.dump());
  // one column per field: the names padded to the longest, max|S| right-aligned under its header
  std::size_t w = std::string("# parameter").size();
  for (auto& p : s["parameters"]) w = std::max(w, p["name"].get<std::string>().size());
  out += fmt::format("# points:{}\n{:<{}}  {:>6}  S per point\n", pts, "# parameter", w, "max|S|");
  for (auto& p : s["parameters"]) {
    std::string d;
    for (auto& x : p["derivatives"]) d += fmt::format(" {:+.3f}", x.get<double>());
    out += fmt::format("{:<{}}  {:>6.3f}{}\n", p["name"].get<std::string>(), w, p["max_abs"].get<double>(), d);
  }
  if (!s["not_varied"].empty()) {
    std::string n;
    for (auto& x : s["not_varied"]) n += (n.empty() ? "" : ", ") + x.get<std::string>();
    out += "# not varied (zero, an integer count, a choice, or at a limit): " + n + "\n";
  }
  return out;
}

}  // namespace ompisim::validation
