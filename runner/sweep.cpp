#include "runner/sweep.hpp"

#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/signals.hpp"
#include "platform/machine.hpp"
#include "runner/isolate.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ompisim {

namespace {

std::string fnv1a_hex(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

bool is_scenario_key(const std::string& k) {
  for (auto& sk : scenario_keys())
    if (k == sk.name) return true;
  return false;
}

// Sets one axis value into the point's scenario JSON or overrides.
void apply_axis(SweepPoint& p, const std::string& key, const Json& v, const std::string& file) {
  p.values[key] = v;
  if (key.starts_with("benchmark.")) {
    p.scenario["benchmark"][key.substr(10)] = v;
  } else if (key.starts_with("mca.")) {
    if (!p.scenario.contains("mca")) p.scenario["mca"] = Json::object();
    p.scenario["mca"][key.substr(4)] = v;
  } else if (is_scenario_key(key)) {
    if (key == "benchmark") throw InputError(file, "axes." + key, "sweep the benchmark's keys (benchmark.<key>), not the block");
    p.scenario[key] = v;
  } else {
    if (!(v.is_string() || v.is_number())) throw InputError(file, "axes." + key, "a parameter's values are numbers or strings with units");
    p.sets.emplace_back(key, v.is_string() ? v.get<std::string>() : v.dump());
  }
}

std::string point_file(const std::string& out, const SweepPoint& p) { return out + "/points/" + p.hash + ".json"; }

std::string label(const SweepPoint& p) {
  std::string s;
  for (auto it = p.values.begin(); it != p.values.end(); ++it)
    s += (s.empty() ? "" : " ") + it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  return s;
}

Json run_point(const std::string& grid, const SweepPoint& p) {
  Scenario s = scenario_from_json(p.scenario, grid);
  try {
    return Json::parse(run_isolated([&] { return run_scenario(s, p.sets).dump(); }));
  } catch (const InputError& e) {
    if (e.file() == "--set") throw InputError(grid, "axes." + e.key(), e.reason());  // an unknown parameter axis
    throw;
  }
}

void run_points(const std::string& grid, const std::vector<const SweepPoint*>& mine, const std::string& out) {
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const SweepPoint& p = *mine[i];
    const std::string f = point_file(out, p);
    if (fs::exists(f)) continue;
    progress::points(i, mine.size(), label(p));
    Json r = run_point(grid, p);
    r["sweep"] = {{"point", p.values}, {"hash", p.hash}, {"sets", p.sets}};
    write_file_atomic(f, r.dump(2) + "\n");
  }
  progress::clear();
}

}  // namespace

std::vector<SweepPoint> load_sweep(const std::string& grid_file) {
  Json g = load_json_file(grid_file);
  ObjectReader r(g, grid_file, "");
  Json base;
  const Json& b = r.raw("base");
  if (b.is_string()) {
    fs::path p = b.get<std::string>();
    fs::path beside = fs::path(grid_file).parent_path() / p;
    std::error_code ec;
    std::string file = fs::exists(beside, ec) ? beside.string() : (fs::path(data_dir()) / p).string();
    if (!fs::exists(file, ec)) r.fail("base", fmt::format("no scenario '{}' (beside the grid or in the project)", p.string()));
    base = load_json_file(file);
  } else if (b.is_object()) {
    base = b;
  } else {
    r.fail("base", "expected a scenario file name or a scenario object");
  }
  const Json& axes = r.raw("axes");
  if (!axes.is_object() || axes.empty()) r.fail("axes", "expected an object {key: [values]} with at least one axis");
  const std::string mode = r.opt_str("mode").value_or("product");
  if (mode != "product" && mode != "list") r.fail("mode", "expected \"product\" or \"list\"");
  r.finish();
  std::vector<std::pair<std::string, std::vector<Json>>> ax;
  for (auto it = axes.begin(); it != axes.end(); ++it) {
    if (!it.value().is_array() || it.value().empty())
      throw InputError(grid_file, "axes." + it.key(), "expected a non-empty list of values");
    ax.emplace_back(it.key(), std::vector<Json>(it.value().begin(), it.value().end()));
  }
  std::size_t n = 1;
  if (mode == "list") {
    n = ax.front().second.size();
    for (auto& [k, v] : ax)
      if (v.size() != n)
        throw InputError(grid_file, "axes." + k, fmt::format("{} values, but mode \"list\" needs {} (as the first axis)", v.size(), n));
  } else {
    for (auto& [k, v] : ax) {
      n *= v.size();
      if (n > 100000) throw InputError(grid_file, "axes", "more than 100,000 points");
    }
  }
  std::vector<SweepPoint> points;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < n; ++i) {
    SweepPoint p;
    p.scenario = base;
    p.values = Json::object();
    std::size_t rest = i;
    for (std::size_t a = ax.size(); a-- > 0;) {  // the last axis varies fastest
      const auto& [k, v] = ax[a];
      std::size_t idx = mode == "list" ? i : rest % v.size();
      rest /= v.size();
      apply_axis(p, k, v[idx], grid_file);
    }
    try {
      (void)scenario_from_json(p.scenario, grid_file);  // every point is a valid scenario, checked before any runs
    } catch (const InputError& e) {
      throw InputError(grid_file, e.key(), fmt::format("point {} ({}): {}", i, label(p), e.reason()));
    }
    std::string sets;
    for (auto& [k, v] : p.sets) sets += k + "=" + v + "\n";
    p.hash = fnv1a_hex(p.scenario.dump() + "\n" + sets);
    if (!seen.insert(p.hash).second) throw InputError(grid_file, "axes", fmt::format("point {} ({}) repeats another", i, label(p)));
    points.push_back(std::move(p));
  }
  return points;
}

std::pair<int, int> parse_shard(const std::string& text, const std::string& option) {
  auto slash = text.find('/');
  auto num = [&](const std::string& s) {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(option, text, "expected I/N with 0 <= I < N (e.g. 0/4)");
    return std::stoi(s);
  };
  if (slash == std::string::npos) throw InputError(option, text, "expected I/N with 0 <= I < N (e.g. 0/4)");
  int i = num(text.substr(0, slash)), n = num(text.substr(slash + 1));
  if (n < 1 || i >= n) throw InputError(option, text, fmt::format("shard index {} out of range 0..{}", i, n - 1));
  return {i, n};
}

// Temporaries of a process that no longer runs (a sweep killed while writing a point): removed before a rerun.
static void remove_stale_temporaries(const std::string& dir) {
  for (auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    auto at = name.find(".tmp.");
    if (at == std::string::npos) continue;
    long pid = std::strtol(name.c_str() + at + 5, nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove(e.path());
  }
}

SweepRun run_sweep(const std::string& grid, const std::vector<SweepPoint>& points, const SweepOptions& o) {
  fs::create_directories(o.out + "/points");
  remove_stale_temporaries(o.out + "/points");
  SweepRun res;
  res.total = points.size();
  std::vector<const SweepPoint*> mine;
  for (std::size_t k = 0; k < points.size(); ++k)
    if (static_cast<int>(k % static_cast<std::size_t>(o.shard_count)) == o.shard) mine.push_back(&points[k]);
  res.mine = mine.size();
  for (auto* p : mine)
    if (fs::exists(point_file(o.out, *p))) ++res.skipped;
  if (o.jobs <= 1 || mine.size() <= 1) {
    run_points(grid, mine, o.out);
  } else {
    // Workers: worker w runs the points w, w + jobs, ... of this shard, one at a time (each in its own process).
    std::vector<pid_t> workers;
    std::fflush(nullptr);
    for (int w = 0; w < o.jobs && w < static_cast<int>(mine.size()); ++w) {
      pid_t pid = fork();
      if (pid < 0) throw std::runtime_error("fork failed");
      if (pid == 0) {
        int code = 0;
        try {
          std::vector<const SweepPoint*> part;
          for (std::size_t k = static_cast<std::size_t>(w); k < mine.size(); k += static_cast<std::size_t>(o.jobs)) part.push_back(mine[k]);
          progress::set_enabled(false);  // several workers share the terminal
          run_points(grid, part, o.out);
        } catch (const Interrupted& e) {
          code = e.exit_status();
        } catch (const InputError& e) {
          std::cerr << "ompisim: error: " << e.what() << "\n";
          code = 2;
        } catch (const std::exception& e) {
          std::cerr << "ompisim: error: " << e.what() << "\n";
          code = 3;
        }
        std::fflush(nullptr);
        _exit(code);
      }
      workers.push_back(pid);
    }
    int worst = 0;
    std::size_t left = workers.size();
    while (left > 0) {
      int status = 0;
      pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) {
          if (interrupt_signal())
            for (pid_t w : workers) kill(w, SIGTERM);
          continue;
        }
        break;
      }
      --left;
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
      if (code == 2 && worst != 2) worst = 2;
      else if (code != 0 && worst == 0) worst = code;
      if (code != 0)
        for (pid_t w : workers) kill(w, SIGTERM);  // stop the others: the sweep failed (finished points stay)
    }
    throw_if_interrupted();
    if (worst == 2) throw InputError(grid, "", "a point was refused (see above)");
    if (worst != 0) throw std::runtime_error(fmt::format("a sweep worker failed (exit status {})", worst));
  }
  std::size_t done = 0;
  for (auto* p : mine)
    if (fs::exists(point_file(o.out, *p))) ++done;
  res.ran = done - res.skipped;
  return res;
}

long long merge_sweep(const std::string& out, const std::vector<SweepPoint>& points) {
  std::vector<std::string> cols;
  std::set<std::string> have;
  auto col = [&](const std::string& c) {
    if (have.insert(c).second) cols.push_back(c);
  };
  Json rows = Json::array(), missing = Json::array();
  for (auto& p : points) {
    const std::string f = point_file(out, p);
    if (!fs::exists(f)) {
      missing.push_back(p.values);
      continue;
    }
    Json r = load_json_file(f);
    for (auto& pt : r["points"]) {
      Json row = Json::object();
      for (auto it = p.values.begin(); it != p.values.end(); ++it) {
        col(it.key());
        row[it.key()] = it.value();
      }
      for (auto it = pt.begin(); it != pt.end(); ++it) {
        const std::string k = p.values.contains(it.key()) ? "point." + it.key() : it.key();
        col(k);
        row[k] = it.value();
      }
      row["hash"] = p.hash;
      rows.push_back(row);
    }
  }
  col("hash");
  std::string csv = fmt::format("{}\n", fmt::join(cols, ","));
  for (auto& row : rows) {
    std::vector<std::string> cells;
    for (auto& c : cols) {
      if (!row.contains(c)) cells.emplace_back();
      else if (row[c].is_string()) cells.push_back(row[c].get<std::string>());
      else cells.push_back(row[c].dump());
    }
    for (auto& cell : cells)
      if (cell.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char ch : cell) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        cell = q + "\"";
      }
    csv += fmt::format("{}\n", fmt::join(cells, ","));
  }
  write_file_atomic(out + "/sweep.csv", csv);
  write_file_atomic(out + "/sweep.json", Json{{"columns", cols}, {"rows", rows}, {"missing", missing}}.dump(2) + "\n");
  for (auto& m : missing) std::cerr << "ompisim: sweep: point not run yet: " << m.dump() << "\n";
  return missing.empty() ? static_cast<long long>(rows.size()) : -static_cast<long long>(missing.size());
}

}  // namespace ompisim
