#include "validation/table1.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <vector>

namespace ompisim::validation {

const Json* point_field(const Json& point, const std::string& metric) {
  if (point.contains(metric)) return &point[metric];
  const auto dot = metric.find('.');
  if (dot == std::string::npos) return nullptr;
  const std::string outer = metric.substr(0, dot), inner = metric.substr(dot + 1);
  return point.contains(outer) && point[outer].is_object() && point[outer].contains(inner) ? &point[outer][inner]
                                                                                         : nullptr;
}

namespace {

const Json& point_of(const Json& res, const Json& sel, const std::string& file, const std::string& key) {
  const Json& pts = res.at("points");
  if (pts.empty()) throw InputError(file, key, "the scenario gave no point");
  if (sel.is_null()) return pts.at(0);
  for (auto& p : pts)
    for (const char* k : {"ranks", "bytes"})
      if (sel.contains(k) && p.contains(k) && p[k] == sel[k]) return p;
  throw InputError(file, key + ".select", "no point " + sel.dump() + " in the scenario's result");
}

// The simulated value a reference names, or null with `why` set when the point does not provide it.
// `lacking`: the quantities the point's "table1_lacks" names (a list value leaves them out of its comparison).
Json value_at(const Json& ref, const std::string& file, const std::string& key, const ResultOf& result,
              std::string& why, std::map<std::string, std::string>* lacking = nullptr) {
  ObjectReader r(ref, file, key);
  const std::string scenario = r.str("scenario"), metric = r.str("metric");
  const Json sel = r.has("select") ? r.raw("select") : Json();
  r.finish();
  const Json& p = point_of(result(scenario), sel, file, key);
  const auto dot = metric.find('.');
  const std::string field = metric.substr(0, dot), sub = dot == std::string::npos ? "" : metric.substr(dot + 1);
  if (lacking)
    for (auto& l : p.value("table1_lacks", Json::array())) (*lacking)[l.value("quantity", "")] = l.value("lacks", "");
  for (auto& l : p.value("table1_lacks", Json::array()))
    if (l.value("quantity", "") == "routine " + sub || (!sub.empty() && l.value("quantity", "") == sub)) {
      why = l.value("lacks", "");
      return nullptr;
    }
  if (!p.contains(field) || p[field].is_null()) {
    why = fmt::format("the scenario reports no '{}'", field);
    for (auto& l : p.value("table1_lacks", Json::array()))
      if (l.value("quantity", "").find(field) != std::string::npos) why = l.value("lacks", why);
    return nullptr;
  }
  if (const Json* v = point_field(p, metric)) return *v;
  why = fmt::format("the scenario reports no '{}' in '{}'", sub, field);
  return nullptr;
}

double combine(const Json& a, const Json& b, const std::string& op) {
  const double x = a.get<double>(), y = b.get<double>();
  return op == "difference" ? x - y : x / y;
}

std::string text_of(const Json& v) {
  if (v.is_null()) return "n/a";
  if (v.is_number()) return fmt::format("{:.4g}", v.get<double>());
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + (x.is_string() ? x.get<std::string>() : x.dump());
  return s;
}

const std::vector<std::string> kKeys{"id", "text", "role", "reads", "source", "value", "a", "b", "op",
                                     "tolerance_pct", "tolerance_points", "factor", "reason", "quotes"};

Json eval_one(const Json& e, const std::string& file, const std::string& key, const ResultOf& result) {
  ObjectReader r(e, file, key);
  Json row{{"id", r.str("id")}, {"text", r.opt_str("text").value_or("")}, {"role", r.str("role")}};
  if (row["role"] != "prediction" && row["role"] != "reads_input")
    r.fail("role", "expected 'prediction' or 'reads_input'");
  if (row["role"] == "reads_input") row["reads"] = r.str("reads");
  (void)r.str("source");
  const Json& ref = r.raw("value");
  row["reference"] = ref;
  std::string why;
  std::map<std::string, std::string> lacking;
  Json sim = value_at(r.raw("a"), file, r.key_path("a"), result, why, &lacking);
  if (r.has("b")) {
    const std::string op = r.str("op");
    if (op != "difference" && op != "ratio") r.fail("op", "expected 'difference' or 'ratio'");
    Json other = value_at(r.raw("b"), file, r.key_path("b"), result, why);
    sim = sim.is_null() || other.is_null() ? Json() : Json(combine(sim, other, op));
  }
  row["simulated"] = sim;
  if (r.has("reason")) row["reason"] = r.str("reason");  // why the model misses it, recorded beside the entry
  if (sim.is_null()) {
    row["status"] = "untested";
    row["detail"] = why;
    r.finish(kKeys);
    return row;
  }
  if (ref.is_array()) {
    // The names the point cannot produce are left out (and named): the rest must lead the simulated order.
    Json want = Json::array();
    std::string left_out;
    for (auto& n : ref)
      if (auto it = lacking.find("routine " + n.get<std::string>()); it != lacking.end())
        left_out += fmt::format("; {} untested: {}", n.get<std::string>(), it->second);
      else
        want.push_back(n);
    bool holds = sim.is_array() && sim.size() >= want.size();
    for (std::size_t i = 0; holds && i < want.size(); ++i) holds = sim[i] == want[i];
    row["status"] = holds ? "holds" : "fails";
    row["detail"] = fmt::format("simulated order {}{}", text_of(sim), left_out);
  } else {
    if (!ref.is_number()) r.fail("value", "expected a number or a list of names");
    if (!sim.is_number()) r.fail("a", "the simulated value is not a number");
    const double want = ref.get<double>(), got = sim.get<double>();
    bool holds;
    if (r.has("tolerance_pct") + r.has("tolerance_points") + r.has("factor") != 1)
      r.fail("tolerance_pct", "give exactly one of 'tolerance_pct', 'tolerance_points' and 'factor'");
    if (r.has("factor")) {  // an amount by which two values differ: within the factor, with the paper's sign
      const double f = r.number("factor", 1, 100);
      holds = want != 0 && got * want > 0 && std::fabs(got) >= std::fabs(want) / f && std::fabs(got) <= std::fabs(want) * f;
      const double err = want != 0 ? 100.0 * (got - want) / std::fabs(want) : INFINITY;
      row["detail"] = fmt::format("{:+.1f} % (within the factor {:g}: {:.3g} to {:.3g})", err, f, want / f, want * f);
    } else if (r.has("tolerance_points")) {
      const double t = r.number("tolerance_points", 0, 1e12);
      holds = std::fabs(got - want) <= t;
      row["detail"] = fmt::format("{:+.3g} (tolerance ±{:g})", got - want, t);
    } else {
      const double t = r.number("tolerance_pct", 0, 1e6);
      const double err = want != 0 ? 100.0 * (got - want) / std::fabs(want) : (got == 0 ? 0.0 : INFINITY);
      holds = std::fabs(err) <= t;
      row["detail"] = fmt::format("{:+.1f} % (tolerance ±{:g} %)", err, t);
    }
    row["status"] = holds ? "holds" : "fails";
  }
  r.finish(kKeys);
  return row;
}

}  // namespace

Json eval_value_checks(const Json& entries, const std::string& file, const std::string& key, const ResultOf& result) {
  if (!entries.is_array()) throw InputError(file, key, "expected a list of checks");
  Json rows = Json::array();
  for (std::size_t i = 0; i < entries.size(); ++i)
    rows.push_back(eval_one(entries[i], file, fmt::format("{}[{}]", key, i), result));
  return rows;
}

std::string render_value_checks(const Json& rows, const std::string& title) {
  if (rows.empty()) return "";
  std::map<std::string, int> count;
  std::string table;
  for (auto& r : rows) {
    const std::string st = r["status"].get<std::string>(), role = r["role"].get<std::string>();
    ++count[st + (role == "reads_input" ? " (reads an input)" : "")];
    table += fmt::format("| {} | {} | {} | {} | {} | {} |\n", r["id"].get<std::string>(), role,
                         text_of(r["reference"]), text_of(r["simulated"]),
                         st == "fails" ? "**fails**" : st,
                         r["detail"].get<std::string>() + (r.contains("reason") && st != "holds"
                                                                ? " — " + r["reason"].get<std::string>() : ""));
  }
  std::string summary;
  for (auto& [k, n] : count) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, k);
  return fmt::format("\n{} ({}; a 'reads_input' row checks a number the model's input was derived from):\n\n"
                     "| id | role | paper | simulated | status | detail |\n|---|---|---|---|---|---|\n",
                     title, summary) +
         table;
}

}  // namespace ompisim::validation
