#include "validation/sensitivity.hpp"

#include "core/errors.hpp"
#include "core/override_text.hpp"
#include "core/params.hpp"
#include "core/progress.hpp"
#include "core/units.hpp"
#include "protocols/register.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <fmt/format.h>
#include <fmt/ranges.h>

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

// One parameter to vary: its name and declaration, the value varied around, what the result shows as its value; the
// keys of its copies, all set to each stepped value (empty: the name alone is set).
struct Target {
  std::string name;
  ParamInfo info;
  double x;
  Json shown;
  std::string source;
  std::vector<std::string> copies = {};
};

// The overrides that give the parameter value `v`: its own key, or each of its copies.
Overrides overrides_of(const Target& t, const std::string& v) {
  if (t.copies.empty()) return {{t.name, v}};
  Overrides o;
  for (auto& k : t.copies) o.emplace_back(k, v);
  return o;
}

// A row of the result for target `t`: its name, value and source, and the copies it sets when it has them.
Json row_of(const Target& t) {
  Json r = {{"name", t.name}, {"value", t.shown}, {"source", t.source}};
  if (!t.copies.empty()) r["copies"] = t.copies;
  return r;
}

// Host-side software costs that several networks' files each give (networks.<net>.software.<cost>): the stack reads
// one value and refuses copies that differ (Machine::software_cost), so one copy stepped alone is refused. Copies
// with one value are one parameter, "networks.{a,b}.software.<cost>", all stepped together. Returns each copy's key ->
// that parameter (its name and the copies' keys).
struct SharedCost {
  std::string name;
  std::vector<std::string> keys;
};
std::map<std::string, SharedCost> shared_costs(Machine& m) {
  struct Copy {
    std::string net;
    double value;
  };
  std::map<std::string, std::vector<Copy>> by_cost;
  for (auto& n : m.networks())
    for (auto& [section, list] : n.nic->sections())
      if (section == "software")
        for (auto& r : list) by_cost[r.info.name].push_back({n.name, r.p->value});
  std::map<std::string, SharedCost> out;
  for (auto& [cost, copies] : by_cost) {
    const double first = copies.front().value;
    if (copies.size() < 2 || std::any_of(copies.begin(), copies.end(), [first](const Copy& c) { return c.value != first; }))
      continue;
    SharedCost sc;
    std::vector<std::string> nets;
    for (auto& c : copies) {
      nets.push_back(c.net);
      sc.keys.push_back("networks." + c.net + ".software." + cost);
    }
    sc.name = fmt::format("networks.{{{}}}.software.{}", fmt::join(nets, ","), cost);
    for (auto& k : sc.keys) out[k] = sc;
  }
  return out;
}

// The overrides of the two runs and the values the model receives from them: each text parsed back as the run parses
// an override (param_text_value, set_param's parser). Times, rates and ratios are written to round-trip, so they get
// x e^(+-h) to the last bit; sizes and counts are whole, so they get x e^(+-h) rounded.
struct Step {
  std::string up, down;
  double up_value, down_value;
};
Step step_of(const Target& t, double h) {
  Step st{format_quantity_exact(t.x * std::exp(h), t.info.dim), format_quantity_exact(t.x * std::exp(-h), t.info.dim), 0, 0};
  st.up_value = param_text_value(st.up, t.info, t.name);
  st.down_value = param_text_value(st.down, t.info, t.name);
  return st;
}

// The declaration of an MCA parameter (dimension, range, choices), from the component that owns it.
ParamInfo mca_info(const std::string& key) {
  if (const ComponentInfo* c = mca_owner(key)) {
    McaParams own;
    c->params.declare(own);
    for (auto& r : c->param_list(own))
      if (r.info.name == key) return r.info;
  }
  throw InputError("--mca", key, "no component declares this MCA parameter");
}

// An MCA parameter to vary: its resolved value (provenance.mca: "8192 B", "32", "1.5 us") read as its declaration
// reads it; one at 0 = auto is varied around the value the run used (provenance.derived "<key> (effective)").
Target mca_target(const Json& base, const std::string& key, const std::string& file) {
  const Json& mca = base["provenance"]["mca"];
  if (!mca.contains(key) || !mca[key].is_string()) {
    std::vector<std::string> known;
    for (auto it = mca.begin(); it != mca.end(); ++it) known.push_back(it.key());
    const std::string hint = did_you_mean(key, known);
    throw InputError("--mca", key, "no such MCA parameter in " + file + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  Target t{key, mca_info(key), 0, mca[key], "MCA parameter (--mca)"};
  t.x = param_value(mca[key], t.info, "--mca", key);
  // The parameter was asked for by name, so a 0 that means "auto" (btl_ugni_smsg_limit) is not skipped silently.
  const Json effective = base["provenance"].value("derived", Json::object()).value(key + " (effective)", Json());
  if (t.info.choices.empty() && t.x <= 0 && effective.is_number() && effective.get<double>() > 0) {
    t.x = effective.get<double>();
    t.shown = fmt::format("{} (effective; value {})", format_quantity(t.x, t.info.dim), mca[key].get<std::string>());
  }
  return t;
}

// What one parameter's pair of runs adds to the result: a row of "parameters", or its name under "not_varied" (zero,
// a choice, or a step beyond its range), or an entry of "step_too_small" (both runs would get the same value).
struct Rows {
  Json params = Json::array(), skipped = Json::array(), too_small = Json::array(), refused = Json::array();
};
using RunFn = std::function<std::vector<double>(const Overrides&)>;

// S = (ln v_up - ln v_down) / (ln x_up - ln x_down) at every point, x_up and x_down the values the two runs received.
void vary(const Target& t, double h, const std::vector<double>& v0, const RunFn& run, Rows& out) {
  if (t.x <= 0 || !t.info.choices.empty()) return void(out.skipped.push_back(t.name));
  const Step st = step_of(t, h);
  if (st.up_value > t.info.max || st.down_value < t.info.min || st.down_value <= 0)
    return void(out.skipped.push_back(t.name));
  if (st.up_value == st.down_value) {
    Json r = row_of(t);
    r["applied"] = st.up;
    r["reason"] = fmt::format("step too small for this parameter's resolution (value {}, step {:g}): both runs would "
                              "get {}", format_quantity(t.x, t.info.dim), h, st.up);
    out.too_small.push_back(r);
    return;
  }
  std::vector<double> vu, vd;
  try {
    vu = run(overrides_of(t, st.up));
    vd = run(overrides_of(t, st.down));
  } catch (const InputError& e) {  // the nominal run passed: the stepped value breaks a rule across parameters
    Json r = row_of(t);
    r["applied"] = {st.down, st.up};
    r["reason"] = e.key().empty() ? e.reason() : fmt::format("key '{}': {}", e.key(), e.reason());
    out.refused.push_back(r);
    return;
  }
  const double dlnx = std::log(st.up_value) - std::log(st.down_value);
  Json d = Json::array();
  double worst = 0;
  for (std::size_t i = 0; i < v0.size(); ++i) {
    double s_i = (vu[i] > 0 && vd[i] > 0) ? (std::log(vu[i]) - std::log(vd[i])) / dlnx : 0.0;
    if (std::fabs(s_i) < 1e-9) s_i = 0.0;
    d.push_back(s_i);
    worst = std::max(worst, std::fabs(s_i));
  }
  Json r = row_of(t);
  r["derivatives"] = d;
  r["max_abs"] = worst;
  r["applied"] = {st.down, st.up};
  r["applied_step"] = dlnx / 2;
  out.params.push_back(r);
}
// The machine parameters that no part of the scenario's run reads (provenance.unread_overrides of one run with every
// varied parameter set to its own value, written to the last bit): stepping one of them cannot move a point, so it is
// listed as not read instead of run twice. Empty, and nothing skipped, if that run's points are not the nominal ones
// to the last bit, or if it is refused.
std::set<std::string> unread_params(const ParamList& physical, const std::map<std::string, SharedCost>& shared,
                                    const std::function<Json(const Overrides&)>& run_json, const std::string& metric,
                                    const std::vector<double>& v0) {
  Overrides all;
  for (auto& r : physical)
    if (r.info.dim != Dim::Count) all.emplace_back(r.info.name, format_quantity_exact(r.p->value, r.info.dim));
  Json probe;
  try {
    probe = run_json(all);
  } catch (const InputError&) {
    return {};
  }
  if (values(probe, metric) != v0) return {};
  std::set<std::string> unread;
  for (auto& k : probe["provenance"].value("unread_overrides", Json::array())) unread.insert(k.get<std::string>());
  // A host cost with copies is one parameter: unread only when no copy was read.
  for (auto& [key, sc] : shared)
    if (std::any_of(sc.keys.begin(), sc.keys.end(), [&](const std::string& k) { return !unread.count(k); }))
      for (auto& k : sc.keys) unread.erase(k);
  return unread;
}

// Each point's label in the table: its size, else its rank count, else its application; where two points would have
// one label (a barrier over ranks x radix), every axis a point has, "ranks=32 radix=4".
Json point_labels(const Json& points) {
  Json xs = Json::array();
  for (auto& p : points) xs.push_back(p.contains("bytes") ? p["bytes"] : p.contains("ranks") ? p["ranks"] : p.value("app", Json("")));
  std::set<std::string> seen;
  bool repeated = false;
  for (auto& x : xs) repeated = repeated || !seen.insert(x.dump()).second;
  if (!repeated) return xs;
  xs = Json::array();
  for (auto& p : points) {
    std::string label;
    for (const char* k : {"bytes", "ranks", "radix", "app", "row"})
      if (p.contains(k) && !p[k].is_null())
        label += fmt::format("{}{}={}", label.empty() ? "" : " ", k, p[k].is_string() ? p[k].get<std::string>() : p[k].dump());
    xs.push_back(label);
  }
  return xs;
}

// `--set` overrides under the names the stepped runs give their parameters (a machine parameter's path as
// physical_params lists it, from its long name or its last part; an MCA parameter's bare name), so that a stepped
// parameter's override can replace its --set; each machine parameter's value set on `physical` (the nominal x). A key
// that names nothing is kept as given: the nominal run refuses it as run does.
Overrides named_as_stepped(const Overrides& sets, Machine& m, const ParamList& physical) {
  const ParamList longs = m.physical_params_long();
  Overrides out;
  for (const auto& [k, v] : sets) {
    const Sourced* p = nullptr;
    for (auto& r : longs)
      if (r.info.name == k) p = r.p;
    std::string name = k;
    int suffix_hits = 0;
    for (auto& r : physical) {
      if (r.info.name == k || r.p == p) name = r.info.name;
      else if (r.info.name.ends_with("." + k) && ++suffix_hits == 1 && !p) p = r.p;
    }
    if (name == k && suffix_hits == 1)
      for (auto& r : physical)
        if (r.p == p) name = r.info.name;
    if (name == k && k.starts_with("mca.")) name = k.substr(4);
    for (auto& r : physical)
      if (r.info.name == name) {
        ParamList one{r};
        set_param(one, name, v, "--set");
      }
    out.emplace_back(name, v);
  }
  return out;
}

// The overrides of one run: the --set ones, less those of the parameters `stepped` sets, then `stepped`.
Overrides with_sets(const Overrides& sets, const Overrides& stepped) {
  Overrides o;
  for (const auto& kv : sets)
    if (std::none_of(stepped.begin(), stepped.end(), [&](const auto& st) { return st.first == kv.first; }))
      o.push_back(kv);
  o.insert(o.end(), stepped.begin(), stepped.end());
  return o;
}

}  // namespace

Json sensitivity(const std::string& scenario_file, double h, const std::vector<std::string>& mca,
                 const std::string& machine_file, const Overrides& user_sets) {
  Scenario s = load_scenario(scenario_file);
  if (!machine_file.empty()) s.machine_file = machine_file;  // --machine-file; else the scenario's machine by name
  // Exact completion dates unless the scenario sets a grid: the default 1 ns grid rounds every flow's end date, so a
  // step of 1e-4 on a 2 us cost (0.2 ns) would move a result by 0 or by 1 ns, and S by 0 or by the grid over the step.
  const EngineInfo* engine = engines().find(s.engine);
  const bool exact_dates = s.engine_grid < 0 && engine && engine->set_grid;  // an engine that takes a grid
  if (exact_dates) s.engine_grid = 0;
  auto m = s.machine_file.empty() ? load_machine(s.machine) : load_machine(s.machine_file);
  check_mca_names(s, mca, "--mca");  // before the first run: a name the stack does not read is refused at once
  const ParamList physical = m->physical_params();
  const Overrides sets = named_as_stepped(user_sets, *m, physical);
  auto run_json = [&](const Overrides& stepped) {
    return Json::parse(run_isolated([&] { return run_scenario(s, with_sets(sets, stepped)).dump(); }));
  };
  Json base = run_json({});
  const std::string metric = metric_of(s, base);
  const RunFn run = [&](const Overrides& stepped) { return values(run_json(stepped), metric); };
  const std::vector<double> v0 = values(base, metric);
  Json xs = point_labels(base["points"]);
  Rows rows;
  const std::map<std::string, SharedCost> shared = shared_costs(*m);
  const std::set<std::string> unread = unread_params(physical, shared, run_json, metric, v0);
  Json not_read = Json::array();
  const std::size_t total = physical.size() + mca.size();
  std::size_t done = 0;
  for (const std::string& key : mca) {
    progress::points(done++, total, key);
    vary(mca_target(base, key, s.file), h, v0, run, rows);
  }
  for (auto& r : physical) {
    progress::points(done++, total, r.info.name);
    if (r.info.dim == Dim::Count) {  // a count of the machine's structure is not varied
      rows.skipped.push_back(r.info.name);
      continue;
    }
    if (unread.count(r.info.name)) {
      not_read.push_back(r.info.name);
      continue;
    }
    Target t{r.info.name, r.info, r.p->value, format_param(r.p->value, r.info), r.p->source};
    if (auto c = shared.find(r.info.name); c != shared.end()) {
      if (c->second.keys.front() != r.info.name) continue;  // varied with its first copy
      t.name = c->second.name;
      t.copies = c->second.keys;
    }
    vary(t, h, v0, run, rows);
  }
  progress::clear();
  std::stable_sort(rows.params.begin(), rows.params.end(), [](const Json& a, const Json& b) {
    return a["max_abs"].get<double>() > b["max_abs"].get<double>();
  });
  Json overrides = Json::array();
  for (const auto& [k, v] : user_sets) overrides.push_back({k, v});
  // what a bare label is ("8" a size in bytes, a rank count, an application), for the table's header
  const Json& p0 = base["points"].empty() ? Json::object() : base["points"][0];
  const char* axis = p0.contains("bytes") ? "bytes" : p0.contains("ranks") ? "ranks" : "app";
  return Json{{"scenario", s.file}, {"metric", metric}, {"step", h}, {"points", xs}, {"points_axis", axis},
              {"nominal", v0},
              {"overrides", overrides}, {"parameters", rows.params}, {"not_varied", rows.skipped},
              {"step_too_small", rows.too_small}, {"step_refused", rows.refused}, {"not_read", not_read},
              {"exact_dates", exact_dates}};
}

std::string render_sensitivity(const Json& s) {
  std::string out = fmt::format("# sensitivity of {} ({}): d ln(result) / d ln(parameter), central differences at "
                                "+-{:g} in log space\n",
                                s["scenario"].get<std::string>(), s["metric"].get<std::string>(), s["step"].get<double>());
  std::string with;
  for (auto& kv : s.value("overrides", Json::array()))
    with += fmt::format("{}--set {}={}", with.empty() ? "" : " ", kv[0].get<std::string>(), kv[1].get<std::string>());
  if (!with.empty()) out += "# around the what-if " + with + " (a stepped parameter's two runs replace its --set)\n";
  if (s.value("exact_dates", false))
    out += "# every run with exact completion dates (engine_grid 0 s): a run's default 1 ns grid would round the "
           "stepped results\n";
  std::string pts;
  bool bare = false;  // labels of one axis (a size, a rank count), named once in the header
  for (auto& x : s["points"]) {
    const std::string l = x.is_string() ? x.get<std::string>() : x.dump();
    bare = bare || l.find('=') == std::string::npos;
    pts += l.find(' ') == std::string::npos ? " " + l : " [" + l + "]";  // a label of several axes, bracketed
  }
  if (bare && s.contains("points_axis") && s["points_axis"].is_string())
    pts = fmt::format(" ({}){}", s["points_axis"].get<std::string>(), pts);
  // one column per field: the names padded to the longest, max|S| right-aligned under its header
  std::size_t w = std::string("# parameter").size();
  for (auto& p : s["parameters"]) w = std::max(w, p["name"].get<std::string>().size());
  out += fmt::format("# points:{}\n{:<{}}  {:>6}  S per point\n", pts, "# parameter", w, "max|S|");
  for (auto& p : s["parameters"]) {
    std::string d;
    for (auto& x : p["derivatives"]) d += fmt::format(" {:+.3f}", x.get<double>());
    out += fmt::format("{:<{}}  {:>6.3f}{}\n", p["name"].get<std::string>(), w, p["max_abs"].get<double>(), d);
  }
  // Whole sizes and counts move by what their rounding allows; S is taken over the step they moved by.
  const double h = s["step"].get<double>();
  std::string moved;
  for (auto& p : s["parameters"])
    if (const double a = p.value("applied_step", h); std::fabs(a / h - 1) > 1e-3)
      moved += fmt::format("{}{} +-{:.4g}", moved.empty() ? "" : ", ", p["name"].get<std::string>(), a);
  if (!moved.empty())
    out += "# S over the step the applied values moved by (whole sizes and counts are rounded): " + moved + "\n";
  if (!s["not_varied"].empty()) {
    std::string n;
    for (auto& x : s["not_varied"]) n += (n.empty() ? "" : ", ") + x.get<std::string>();
    out += "# not varied (zero, an integer count, a choice, or at a limit): " + n + "\n";
  }
  if (!s.value("not_read", Json::array()).empty())
    out += fmt::format("# not varied, no part of this scenario's run reads them (another stack's or path's costs): {}\n",
                       fmt::join(s["not_read"].get<std::vector<std::string>>(), ", "));
  for (auto& p : s["parameters"])
    if (p.contains("copies"))
      out += fmt::format("# {}: one host cost that {} networks' files each give (the stack reads one value): its copies "
                         "{} stepped together\n", p["name"].get<std::string>(), p["copies"].size(),
                         fmt::join(p["copies"].get<std::vector<std::string>>(), ", "));
  for (auto& p : s.value("step_too_small", Json::array()))
    out += fmt::format("# {}: not varied, {}\n", p["name"].get<std::string>(), p["reason"].get<std::string>());
  for (auto& p : s.value("step_refused", Json::array()))
    out += fmt::format("# {}: not varied, a run at {} or {} is refused: {}\n", p["name"].get<std::string>(),
                       p["applied"][0].get<std::string>(), p["applied"][1].get<std::string>(),
                       p["reason"].get<std::string>());
  return out;
}

}  // namespace ompisim::validation
