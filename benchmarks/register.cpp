// The benchmark driver registry: each family's registration function, called once, in the order `ompisim list` shows.
#include "benchmarks/driver.hpp"

#include <fmt/format.h>

namespace ompisim::bench {

std::vector<std::string> DriverInfo::keys() const {
  std::vector<std::string> k{"name"};
  for (auto& p : params) k.push_back(p.name);
  return k;
}

void register_drivers(DriverRegistry& reg) {
  register_osu_drivers(reg);
  register_smb_driver(reg);
  register_barrier_driver(reg);
  register_osu_coll_drivers(reg);
  register_app_driver(reg);
  register_layers_driver(reg);
  register_storm_driver(reg);
  register_imb_drivers(reg);
  register_replay_driver(reg);
}

const DriverRegistry& driver_registry() {
  static const DriverRegistry reg = [] {
    DriverRegistry r;
    register_drivers(r);
    return r;
  }();
  return reg;
}

const DriverInfo& find_driver(const std::string& name, const std::string& file, const std::string& key) {
  if (const DriverInfo* d = driver_registry().find(name)) return *d;
  auto names = driver_registry().names();
  std::string hint = did_you_mean(name, names);
  // A suite's name for a benchmark registered under another ("osu_barrier", "imb_barrier": barrier_loop): the names
  // holding the part after the suite's prefix.
  if (hint.empty()) {
    std::string core = name;
    for (const char* prefix : {"osu_", "imb_", "IMB-"})
      if (core.starts_with(prefix)) core = core.substr(std::string(prefix).size());
    std::vector<std::string> with;
    if (core.size() >= 4)
      for (const auto& n : names)
        if (n.find(core) != std::string::npos) with.push_back(n);
    if (!with.empty()) hint = fmt::format("{}", fmt::join(with, "' or '"));
  }
  throw InputError(file, key, fmt::format("unknown benchmark '{}'{} (known: {})", name,
                                          hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
}

std::unique_ptr<Driver> parse_benchmark(ObjectReader& block, const DriverContext& ctx) {
  const DriverInfo& info = find_driver(block.str("name"), block.file(), block.key_path("name"));
  DriverContext with_keys = ctx;
  with_keys.keys = &info.params;
  std::unique_ptr<Driver> d = info.parse(block, with_keys);
  block.finish(info.keys());
  d->check(ctx);
  return d;
}

}  // namespace ompisim::bench
