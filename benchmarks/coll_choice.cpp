#include "benchmarks/coll_choice.hpp"

#include "collectives/decision.hpp"
#include "core/errors.hpp"
#include "platform/machine.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::bench {

CollChoice CollChoice::read(ObjectReader& b, const std::string& coll, const std::string& deflt,
                            const std::vector<std::string>& tables) {
  CollChoice c;
  c.coll = coll;
  c.algorithm = b.opt_str("algorithm").value_or(deflt);
  std::vector<std::string> names = coll::default_registry().nameable(coll);
  if (std::string f = coll::decision_file(c.algorithm); !f.empty()) {
    c.rules = c.algorithm;
    c.lib = coll::load_library(data_dir(), c.algorithm);
    if (!c.lib.contains(coll))  // the library's choice for this collective is not transcribed
      b.fail("algorithm", fmt::format("the '{}' decision ({}) has no {} table: name one of the {} algorithms instead "
                                      "({})",
                                      c.algorithm, f, coll, coll, fmt::join(names, ", ")));
    return c;
  }
  if (const coll::AlgoInfo* a = coll::default_registry().find(coll, c.algorithm); a && a->composition)
    b.fail("algorithm", fmt::format("{} '{}' is a composition whose stages a library's decision table "
                                    "chooses: name the table ({}) instead",
                                    coll, c.algorithm, fmt::join(tables, ", ")));
  if (std::find(names.begin(), names.end(), c.algorithm) == names.end()) {
    names.insert(names.end(), tables.begin(), tables.end());
    std::string hint = did_you_mean(c.algorithm, names);
    b.fail("algorithm", fmt::format("unknown {} algorithm '{}'{} (known: {})", coll, c.algorithm,
                                    hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
  }
  return c;
}

std::string stack_library_or(const std::string& stack_lib, const std::vector<std::string>& offered,
                             const std::string& fallback) {
  return std::find(offered.begin(), offered.end(), stack_lib) != offered.end() ? stack_lib : fallback;
}

bool CollChoice::offers(const std::string& lib, const std::string& coll, const std::vector<std::string>& tables) {
  if (lib.empty() || stack_library_or(lib, tables, "").empty()) return false;
  const std::string f = coll::decision_file(lib);
  return !f.empty() && coll::load_library(data_dir(), lib).contains(coll);
}

CollChoice CollChoice::stack_default(const std::string& coll, const std::string& stack_lib, const std::string& deflt,
                                     const std::vector<std::string>& tables) {
  CollChoice c;
  c.coll = coll;
  c.algorithm = offers(stack_lib, coll, tables) ? stack_lib : deflt;
  if (std::string f = coll::decision_file(c.algorithm); !f.empty()) {
    c.rules = c.algorithm;
    c.lib = coll::load_library(data_dir(), c.algorithm);
  }
  return c;
}

coll::Decision CollChoice::decide(int nranks, std::uint64_t bytes, bool node_aware) const {
  return rules.empty() ? coll::Decision{algorithm, 0}
                       : coll::decide(lib, coll, coll::CommShape{nranks, node_aware}, bytes, tunables, elem_bytes);
}

const coll::AlgoInfo* CollChoice::find(int nranks, std::uint64_t bytes, const std::string& file,
                                       bool node_aware) const {
  std::string name;
  try {
    name = decide(nranks, bytes, node_aware).algorithm;
  } catch (const std::invalid_argument& e) {
    throw InputError(file, "benchmark.algorithm", e.what());
  }
  const coll::AlgoInfo* a = coll::default_registry().find(coll, name);
  if (!a)
    throw InputError(file, "benchmark.algorithm",
                     fmt::format("the '{}' decision chooses {} '{}' for {} B at {} ranks, which is not implemented here",
                                 rules, coll, name, bytes, nranks));
  if (std::string why = coll::ranks_rule_violation(*a, nranks); !why.empty())
    throw InputError(file, "benchmark.algorithm", why);
  return a;
}

coll::Decision CollChoice::stage_decision(coll::Stage stage, int nranks, std::uint64_t bytes) const {
  return coll::decide(lib, coll::stage_table(lib, coll, stage), coll::CommShape{nranks, false}, bytes,
                      stage_tunables(), elem_bytes);
}

const coll::Tunables& CollChoice::stage_tunables() const {
  static const coll::Tunables upstream;
  return coll::stage_tunables(lib, coll) ? tunables : upstream;
}

std::vector<coll::Stage> CollChoice::stages() const { return coll::stage_list(lib, coll); }

int CollChoice::stage_radix(coll::Stage stage) const {
  return rules.empty() ? 0 : coll::stage_radix(lib, coll, stage, tunables);
}

coll::StageChooser CollChoice::stages_for(std::uint64_t bytes, const std::string& file) const {
  return [choose = coll::library_stages(lib, coll, bytes, stage_tunables(), elem_bytes, coll::default_registry()),
          file](coll::Stage stage, int nranks) -> coll::StageChoice {
    try {
      return choose(stage, nranks);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, "benchmark.algorithm", e.what());
    }
  };
}

}  // namespace ompisim::bench
