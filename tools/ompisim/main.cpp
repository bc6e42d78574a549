// ompisim: the command-line tool. Subcommands: run, validate, calibrate, reproduce, list, describe.
// Exit status: 0 success; 1 validation failure (a calibration point outside its tolerance); 2 bad input.
#include "benchmarks/benchmarks.hpp"
#include "runner/scenario.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"
#include "validation/validate.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

using namespace ompisim;

static std::string table(const Json& res) {
  std::string out = fmt::format("# ompisim {} on {} ({}), {} ranks\n", res.value("benchmark", ""), res.value("machine", ""),
                                res.value("stack", ""), res["ranks"].dump());
  const Json& pts = res["points"];
  if (pts.empty()) return out;
  if (pts[0].contains("app")) {  // app_skeleton
    auto num = [](const Json& v) { return v.is_null() ? std::string("n/a") : fmt::format("{}", v.get<long long>()); };
    out += fmt::format("# {:<6}{:>12}{:>10}{:>10}{:>12}{:>12}{:>16}\n", "App", "Runtime (s)", "MPI %", "Paper %", "Short",
                       "Long", "Unexpected long");
    for (auto& p : pts)
      out += fmt::format("{:<8}{:>12.6f}{:>10.2f}{:>10.1f}{:>12}{:>12}{:>16}\n", p["app"].get<std::string>(),
                         p["runtime_s"].get<double>(), p["mpi_time_pct"].get<double>(),
                         p["paper_mpi_time_pct"].get<double>(), num(p["short_msgs"]), num(p["long_msgs"]),
                         num(p["unexpected_long"]));
  } else if (pts[0].contains("ranks") && res.contains("radix")) {  // a barrier radix sweep
    out += fmt::format("# {:<10}{:>8}{:>16}\n", "Ranks", "Radix", "Latency (us)");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>8}{:>16.2f}\n", p["ranks"].get<long long>(), p["radix"].get<int>(), p["latency_us"].get<double>());
  } else if (pts[0].contains("ranks")) {
    out += fmt::format("# {:<10}{:>16}\n", "Ranks", "Latency (us)");
    for (auto& p : pts) out += fmt::format("{:<12}{:>16.2f}\n", p["ranks"].get<long long>(), p["latency_us"].get<double>());
  } else if (pts[0].contains("availability_pct")) {  // SMB overhead
    out += fmt::format("# {:<10}{:>16}{:>16}\n", "Size", "Availability %", "Overhead (us)");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>16.1f}{:>16.2f}\n", p["bytes"].get<long long>(), p["availability_pct"].get<double>(),
                         p["overhead_us"].get<double>());
  } else if (pts[0].contains("latency_us") && pts[0].contains("bandwidth_GBps")) {  // NetPIPE
    out += fmt::format("# {:<10}{:>16}{:>18}\n", "Size", "Latency (us)", "Bandwidth (GB/s)");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>16.2f}{:>18.4f}\n", p["bytes"].get<long long>(), p["latency_us"].get<double>(),
                         p["bandwidth_GBps"].get<double>());
  } else if (pts[0].contains("latency_us")) {
    out += fmt::format("# {:<10}{:>16}\n", "Size", "Latency (us)");
    for (auto& p : pts) out += fmt::format("{:<12}{:>16.2f}\n", p["bytes"].get<long long>(), p["latency_us"].get<double>());
  } else if (pts[0].contains("messages_per_s")) {
    out += fmt::format("# {:<10}{:>16}{:>18}\n", "Size", "MB/s", "Messages/s");
    for (auto& p : pts)
      out += fmt::format("{:<12}{:>16.2f}{:>18.0f}\n", p["bytes"].get<long long>(), p["bandwidth_GBps"].get<double>() * 1e3,
                         p["messages_per_s"].get<double>());
  } else {
    out += fmt::format("# {:<10}{:>16}\n", "Size", "Bandwidth (GB/s)");
    for (auto& p : pts) out += fmt::format("{:<12}{:>16.3f}\n", p["bytes"].get<long long>(), p["bandwidth_GBps"].get<double>());
  }
  return out;
}

static Overrides parse_sets(const std::vector<std::string>& sets) {
  Overrides o;
  for (auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set", s, "expected key=value");
    o.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return o;
}

// jemalloc's start-up options (read only when the tool is linked with jemalloc, see CMakeLists.txt): transparent huge
// pages for the heap. A whole-machine run touches about 1 GB of small objects; 2 MiB pages cut the page faults and
// TLB misses (Titan p2p barrier at 65,536 ranks: 4.3-4.8 s -> 3.8-4.1 s, peak RSS +5 %). MALLOC_CONF overrides it.
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:always";
}

int main(int argc, char** argv) {
  CLI::App app{"ompisim: a discrete-event simulator of the Open MPI communication stack"};
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "run one scenario");
  std::string scen_file, out_dir;
  std::vector<std::string> sets;
  bool as_json = false;
  run->add_option("scenario", scen_file, "scenario JSON file")->required();
  run->add_option("--set", sets, "override a machine or MCA parameter (key=value), repeatable");
  run->add_option("--out", out_dir, "directory for the result files (default results/<scenario>/)");
  run->add_flag("--json", as_json, "print the result as JSON on stdout");

  auto* val = app.add_subcommand("validate", "run the scenarios with reference data and print the validation table");
  std::string paper;
  bool val_json = false;
  val->add_option("--paper", paper, "only this paper (e.g. gemini-xe-xk)");
  val->add_flag("--json", val_json, "print JSON");
  std::vector<std::string> val_sets;
  val->add_option("--set", val_sets,
                  "override a machine or MCA parameter in every scenario (key=value), repeatable: the table for a "
                  "what-if parameter set (calibration points may then leave their tolerance)");

  auto* cal = app.add_subcommand("calibrate", "fit the free parameters (least squares) on the calibration points");
  std::string cal_machine = "cielo";
  bool cal_write = false;
  cal->add_option("--paper", paper, "paper whose calibration points are used");
  cal->add_option("--machine", cal_machine, "machine file whose fitted parameters are updated");
  cal->add_flag("--write", cal_write, "write the fitted values into the machine file");

  auto* rep = app.add_subcommand("reproduce", "run every scenario into results/ (JSON, CSV, SVG) and write validation.md");
  std::string rep_out = data_dir() + "/results";
  rep->add_option("--out", rep_out, "results directory");

  auto* lst = app.add_subcommand("list", "list machines, stacks, benchmarks, algorithms and scenarios");
  auto* desc = app.add_subcommand("describe", "print every parameter of a machine with unit, value and source");
  std::string desc_machine;
  desc->add_option("machine", desc_machine, "machine name")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  try {
    if (*run) {
      Scenario s = load_scenario(scen_file);
      Json res = run_scenario(s, parse_sets(sets));
      std::string dir = out_dir.empty() ? data_dir() + "/results/" + s.id : out_dir;
      write_atomic(dir + "/" + s.id + ".json", res.dump(2) + "\n");
      write_atomic(dir + "/" + s.id + ".csv", result_csv(res));
      if (as_json) std::cout << res.dump(2) << "\n";
      else std::cout << table(res);
      return 0;
    }
    if (*lst) {
      std::cout << "machines:\n";
      for (auto& [n, f] : list_machines()) std::cout << "  " << n << "  (" << f << ")\n";
      std::cout << "stacks:\n";
      for (auto& s : stack_registry().all()) std::cout << "  " << s.name << " [" << s.nic_kind << "]  " << s.description << "\n";
      std::cout << "NIC kinds:\n";
      for (auto& k : nic_kinds().all()) std::cout << "  " << k.name << "  " << k.description << "\n";
      std::cout << "benchmarks:\n";
      for (auto& b : bench::benchmark_names()) std::cout << "  " << b << "\n";
      std::cout << "barrier algorithms (barrier_loop):\n";
      for (auto& a : bench::barrier_algorithm_names()) std::cout << "  " << a << "\n";
      std::cout << "application skeletons (app_skeleton, benchmarks/apps/):\n";
      for (auto& a : bench::app_names()) std::cout << "  " << a << "\n";
      std::cout << "scenarios:\n";
      for (auto& f : validation::scenario_files()) std::cout << "  " << f << "\n";
      return 0;
    }
    if (*desc) {
      auto m = load_machine(desc_machine);
      std::cout << fmt::format("# {} ({}), NIC kind {}: {}\n", m->name, m->file, m->nic_kind(), m->description);
      std::cout << fmt::format("# topology: {}, {} compute nodes x {} cores\n", m->topology_json.dump(), m->nodes,
                               m->cores_per_node);
      auto print = [](const ParamList& l) {
        for (auto& row : describe(l))
          std::cout << fmt::format("{:<40} {:>16}  {}{}\n    {}\n", row["name"].get<std::string>(),
                                   row["value"].get<std::string>(), row["fitted"].get<bool>() ? "[fitted] " : "",
                                   row["description"].get<std::string>(), row["source"].get<std::string>());
      };
      std::cout << "## physical parameters\n";
      print(m->physical_params());
      std::cout << "## software (MCA) defaults\n";
      {
        McaParams mca = machine_mca(*m);
        print(param_list(mca));
      }
      std::cout << "## barrier algorithms\n";
      for (auto& a : bench::barrier_algorithm_names()) std::cout << "  " << a << "\n";
      std::cout << "## stacks on this machine\n";
      for (auto& s : stack_registry().all())
        if (s.nic_kind == m->nic_kind()) std::cout << "  " << s.name << "  " << s.description << "\n";
      std::cout << "## application skeletons (app_skeleton; seastar-portals paper Table 1)\n";
      for (auto& a : bench::app_names()) std::cout << "  " << a << "\n";
      return 0;
    }
    if (*val) {
      Json v = validation::validate(paper, parse_sets(val_sets));
      if (val_json) std::cout << v.dump(2) << "\n";
      else std::cout << validation::render_table(v);
      return validation::all_calibration_pass(v) ? 0 : 1;
    }
    if (*cal) return validation::calibrate(paper.empty() ? "gemini-xe-xk" : paper, cal_machine, cal_write);
    if (*rep) return validation::reproduce(rep_out);
  } catch (const InputError& e) {
    std::cerr << "ompisim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ompisim: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
