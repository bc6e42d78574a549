// See decision.hpp. Mirrors ompi_coll_tuned_barrier_intra_dec_fixed (coll_tuned_decision_fixed.c, v1.7–v4.0) by
// evaluating the rule list of collectives/decision/barrier_tuned.json.
#include "collectives/decision.hpp"

#include "core/errors.hpp"
#include "core/json_input.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ompisim::coll {

namespace {

bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

bool eval_condition(const std::string& cond, int nranks, bool node_aware, std::size_t idx,
                    const Tunables& tunables = {}) {
  if (cond == "always") return true;
  if (cond.rfind("tunable ", 0) == 0) {
    auto it = tunables.find(cond.substr(8));
    return it != tunables.end() && it->second != 0;
  }
  if (cond == "node_aware") return node_aware;
  if (cond == "pow2") return is_pow2(nranks);
  std::istringstream in(cond);
  std::string lhs, op;
  long long value = 0;
  std::string rest;
  if ((in >> lhs >> op >> value) && lhs == "nranks" && !(in >> rest)) {
    if (op == "==") return nranks == value;
    if (op == "<") return nranks < value;
    if (op == "<=") return nranks <= value;
    if (op == ">") return nranks > value;
    if (op == ">=") return nranks >= value;
  }
  throw std::invalid_argument("decision rule " + std::to_string(idx) + ": unknown condition \"" + cond +
                              "\" (allowed: \"always\", \"pow2\", \"node_aware\", \"tunable NAME\", \"nranks <op> N\" "
                              "with op one of == < <= > >=)");
}

}  // namespace

nlohmann::json load_decision(const std::string& path) {
  // A data file ($OMPISIM_DATA may point at another data folder): missing or malformed is bad input (exit 2) naming
  // it, read with the bounds of every input file.
  return load_json_file(path);
}

std::string tuned_barrier_algorithm(int nranks, const nlohmann::json& rule) {
  if (nranks < 1) throw std::invalid_argument("tuned_barrier_algorithm: nranks = " + std::to_string(nranks));
  if (!rule.is_object() || !rule.contains("rules") || !rule.at("rules").is_array())
    throw std::invalid_argument("tuned_barrier_algorithm: decision rule has no \"rules\" array");
  const auto& rules = rule.at("rules");
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto& r = rules[i];
    if (!r.is_object() || !r.contains("when") || !r.at("when").is_string() || !r.contains("algorithm") ||
        !r.at("algorithm").is_string())
      throw std::invalid_argument("decision rule " + std::to_string(i) +
                                  ": needs string fields \"when\" and \"algorithm\", got " + r.dump());
    if (eval_condition(r.at("when").get<std::string>(), nranks, false, i)) return r.at("algorithm").get<std::string>();
  }
  throw std::invalid_argument("tuned_barrier_algorithm: no rule matches nranks = " + std::to_string(nranks));
}

std::string decide_algorithm(const nlohmann::json& lib, const std::string& coll, int nranks, std::uint64_t bytes) {
  return decide_algorithm(lib, coll, CommShape{nranks, false}, bytes);
}

namespace {

// Whether size entry `e` holds for `bytes` on `nranks` (see decision.hpp; an entry with no bound always holds).
bool size_entry_holds(const nlohmann::json& e, int nranks, std::uint64_t bytes, std::uint32_t elem_bytes,
                      const std::string& where) {
  const auto n = static_cast<std::uint64_t>(nranks);
  if (e.contains("below")) return bytes < e.at("below").get<std::uint64_t>();
  if (e.contains("at_most")) return bytes <= e.at("at_most").get<std::uint64_t>();
  if (e.contains("total_below")) return bytes * n < e.at("total_below").get<std::uint64_t>();
  if (e.contains("per_rank_at_most")) return bytes <= e.at("per_rank_at_most").get<std::uint64_t>() * n;
  if (e.contains("count_below_pof2")) {
    const std::uint64_t count = bytes / std::max<std::uint32_t>(elem_bytes, 1);
    return (count < static_cast<std::uint64_t>(detail::floor_pow2(nranks))) == e.at("count_below_pof2").get<bool>();
  }
  if (e.contains("count_above_ranks"))
    return (bytes / std::max<std::uint32_t>(elem_bytes, 1) > n) == e.at("count_above_ranks").get<bool>();
  if (e.contains("ranks_below")) return n < e.at("ranks_below").get<std::uint64_t>();
  for (const char* key : {"ranks_below_line", "ranks_above_line"}) {  // P < (>) a * message_size + b, in double
    if (!e.contains(key)) continue;
    const auto& ab = e.at(key);
    if (!ab.is_array() || ab.size() != 2 || !ab[0].is_number() || !ab[1].is_number())
      throw std::invalid_argument(where + "\"" + key + "\" must be [a, b], got " + ab.dump());
    const double line = ab[0].get<double>() * static_cast<double>(bytes) + ab[1].get<double>();
    return std::string(key) == "ranks_below_line" ? static_cast<double>(nranks) < line : static_cast<double>(nranks) > line;
  }
  return true;
}

// The size entry of lib[coll]'s table that decides (see decision.hpp).
const nlohmann::json& decide_entry(const nlohmann::json& lib, const std::string& coll, const CommShape& comm,
                                   std::uint64_t bytes, const Tunables& tunables, std::uint32_t elem_bytes) {
  const int nranks = comm.nranks;
  const std::string where = "decide_algorithm(" + coll + "): ";
  if (nranks < 1) throw std::invalid_argument(where + "nranks = " + std::to_string(nranks));
  if (!lib.is_object() || !lib.contains(coll) || !lib.at(coll).contains("table") || !lib.at(coll).at("table").is_array())
    throw std::invalid_argument(where + "the decision data has no table for this collective");
  const auto& table = lib.at(coll).at("table");
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& row = table[i];
    if (!row.is_object() || !row.contains("when") || !row.at("when").is_string() || !row.contains("sizes") ||
        !row.at("sizes").is_array())
      throw std::invalid_argument(where + "row " + std::to_string(i) + " needs \"when\" and \"sizes\"");
    if (!eval_condition(row.at("when").get<std::string>(), nranks, comm.node_aware, i, tunables)) continue;
    for (const auto& e : row.at("sizes")) {
      if (!e.is_object() || !e.contains("algorithm") || !e.at("algorithm").is_string())
        throw std::invalid_argument(where + "row " + std::to_string(i) + ": a size entry without \"algorithm\"");
      if (e.contains("segsize") &&
          (!e.at("segsize").is_number_unsigned() || e.at("segsize").get<std::uint64_t>() > 0xffffffffull))
        throw std::invalid_argument(where + "row " + std::to_string(i) + ": \"segsize\" must be a byte count, got " +
                                    e.at("segsize").dump());
      if (!size_entry_holds(e, nranks, bytes, elem_bytes, where)) continue;
      // A segment is a round of operations on every rank of the tree: bounded, as every input is.
      constexpr std::uint64_t kMaxSegments = 1u << 16;
      if (const std::uint64_t seg = e.value("segsize", std::uint64_t{0}); seg > 0 && bytes / seg > kMaxSegments)
        throw std::invalid_argument(where + "row " + std::to_string(i) + ": \"segsize\" " + std::to_string(seg) +
                                    " cuts " + std::to_string(bytes) + " B into more than " +
                                    std::to_string(kMaxSegments) + " segments");
      return e;
    }
    throw std::invalid_argument(where + "row " + std::to_string(i) + " has no entry for " + std::to_string(bytes) + " B");
  }
  throw std::invalid_argument(where + "no row matches nranks = " + std::to_string(nranks));
}

}  // namespace

Decision decide(const nlohmann::json& lib, const std::string& coll, const CommShape& comm, std::uint64_t bytes,
                const Tunables& tunables, std::uint32_t elem_bytes) {
  const nlohmann::json& e = decide_entry(lib, coll, comm, bytes, tunables, elem_bytes);
  return {e.at("algorithm").get<std::string>(), e.contains("segsize") ? e.at("segsize").get<std::uint32_t>() : 0u};
}

std::string decide_algorithm(const nlohmann::json& lib, const std::string& coll, const CommShape& comm,
                             std::uint64_t bytes, const Tunables& tunables, std::uint32_t elem_bytes) {
  return decide(lib, coll, comm, bytes, tunables, elem_bytes).algorithm;
}

StageChooser library_stages(const nlohmann::json& lib, const std::string& coll, std::uint64_t bytes,
                            const Tunables& tunables, std::uint32_t elem_bytes, const CollRegistry& registry) {
  return [&lib, coll, bytes, &tunables, elem_bytes, &registry](Stage stage, int nranks) -> StageChoice {
    const std::string table = stage_table(lib, coll, stage);
    const Decision d = decide(lib, table, CommShape{nranks, false}, bytes, tunables, elem_bytes);
    const AlgoInfo* a = registry.find(table, d.algorithm);
    if (!a || a->composition)
      throw std::invalid_argument("the " + coll + " composition's " + to_string(stage) + " stage: the decision chooses " +
                                  table + " '" + d.algorithm + "' for " + std::to_string(nranks) + " ranks at " +
                                  std::to_string(bytes) + " B, which is not implemented here as a flat algorithm");
    return {a->make, d.segsize};
  };
}

std::string stage_table(const nlohmann::json& lib, const std::string& coll, Stage stage) {
  const char* key = to_string(stage);
  const std::string where = "stage_table(" + coll + "): ";
  if (!lib.is_object() || !lib.contains(coll) || !lib.at(coll).contains("stages") || !lib.at(coll).at("stages").is_object())
    throw std::invalid_argument(where + "the decision data has no \"stages\" for this collective");
  const auto& st = lib.at(coll).at("stages");
  if (!st.contains(key) || !st.at(key).is_string())
    throw std::invalid_argument(where + "\"stages\" has no string \"" + key + "\"");
  return st.at(key).get<std::string>();
}

int stage_radix(const nlohmann::json& lib, const std::string& coll, Stage stage, const Tunables& tunables) {
  if (!lib.is_object() || !lib.contains(coll) || !lib.at(coll).contains("stages")) return 0;
  const auto& st = lib.at(coll).at("stages");
  const char* key = to_string(stage);
  if (!st.is_object() || !st.contains("radix") || !st.at("radix").contains(key)) return 0;
  if (!st.at("radix").at(key).is_string())
    throw std::invalid_argument("stage_radix(" + coll + "): \"stages.radix." + key + "\" must name a tunable");
  auto it = tunables.find(st.at("radix").at(key).get<std::string>());
  return it == tunables.end() ? 0 : static_cast<int>(it->second);
}

bool stage_tunables(const nlohmann::json& lib, const std::string& coll) {
  if (!lib.is_object() || !lib.contains(coll) || !lib.at(coll).contains("stages")) return true;
  const auto& st = lib.at(coll).at("stages");
  if (!st.is_object() || !st.contains("library_tunables")) return true;
  if (!st.at("library_tunables").is_boolean())
    throw std::invalid_argument("stage_tunables(" + coll + "): \"stages.library_tunables\" must be true or false");
  return st.at("library_tunables").get<bool>();
}

std::vector<Stage> stage_list(const nlohmann::json& lib, const std::string& coll) {
  std::vector<Stage> out;
  if (!lib.is_object() || !lib.contains(coll) || !lib.at(coll).contains("stages")) return out;
  const auto& st = lib.at(coll).at("stages");
  for (Stage s : {Stage::Roots, Stage::Node, Stage::NodeAfter, Stage::Comm, Stage::CommAfter})
    if (st.is_object() && st.contains(to_string(s))) out.push_back(s);
  return out;
}

nlohmann::json load_library(const std::string& data, const std::string& name) {
  const std::string file = decision_file(name);
  if (file.empty()) throw std::invalid_argument("load_library: no decision table named '" + name + "'");
  nlohmann::json lib = load_decision(data + "/" + file);
  if (!lib.contains("base")) return lib;
  const auto& b = lib.at("base");
  const std::string base = b.is_string() ? b.get<std::string>() : std::string();
  if (decision_file(base).empty() || base == name)
    throw InputError(file, "base", "expected the name of another decision table (" + b.dump() + ")");
  nlohmann::json parent = load_decision(data + "/" + decision_file(base));
  if (parent.contains("base")) throw InputError(decision_file(base), "base", "a base table has no base of its own");
  for (const auto& [key, value] : parent.items())
    if (!lib.contains(key)) lib[key] = value;
  return lib;
}

std::string decision_file(const std::string& name) {
  static const std::map<std::string, std::string> files{{"tuned", "collectives/decision/ompi_v5_tuned.json"},
                                                        {"mpich", "collectives/decision/mpich_default.json"},
                                                        {"tuned-v1.1", "collectives/decision/ompi_v1_1_tuned.json"},
                                                        {"tuned-v1.3", "collectives/decision/ompi_v1_3_tuned.json"},
                                                        {"tuned-r26242", "collectives/decision/ompi_r26242_tuned.json"},
                                                        {"mpich2-1.0", "collectives/decision/mpich2_v1_0.json"}};
  auto it = files.find(name);
  return it == files.end() ? std::string() : it->second;
}

}  // namespace ompisim::coll
