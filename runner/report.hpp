// A run's result (the runner's "report" concern): the result JSON of one run (points, counters, provenance), the
// merge of a sweep's runs into one result, and the result as CSV and as the table `ompisim run` prints.
#pragma once
#include "core/json_input.hpp"
#include "core/sim.hpp"
#include "platform/machine.hpp"
#include "platform/world.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

#include <string>

namespace ompisim {

// Everything one run produced, as run_one hands it to the report.
struct RunRecord {
  const Scenario& scenario;
  long long ranks;
  const Overrides& sets;
  Machine& machine;  // non-const: its parameter list is built from references
  const Simulator& sim;
  const World& world;
  const Placement& placement;
  McaParams& mca;
  const StackSpec& spec;
  const StackStats& stats;
  Json points;
};
// The result of one run (the `--json` schema): scenario, machine, stack, benchmark, ranks, points, stats, provenance,
// and what the stack's components add (stack_report).
Json result_json(const RunRecord& r);

// The runs of a sweep (each rank count x each value of the driver's axis, in that order) merged into one result: the
// points of every run; the first run's other fields; "ranks" (and the axis' values when there are several); the
// stack's per-count reports (mailbox what-if, derived parameters) once per rank count; no "stats".
class SweepReport {
public:
  explicit SweepReport(const Scenario& s);
  void add(long long ranks, std::size_t axis_index, Json one);
  Json finish();

private:
  const Scenario& s_;
  std::string axis_;
  std::vector<Json> values_;
  Json merged_, points_ = Json::array(), mailbox_ = Json::array(), derived_ = Json::array();
  Json unread_;  // the --set machine parameters no run read (null: no run added yet)
  Json idle_;    // the --set MCA parameters of components that carried no message in any run (null: as unread_)
  Json unread_mca_;  // the scenario's "mca" keys no run read (null: as unread_)
  Json idle_mca_;  // the scenario's "mca" keys of components that carried no message in any run (null: as unread_)
};
// The MCA defaults the result's stack preset sets (StackInfo::mca, not its components' code defaults) and the run
// still used, as the table's header line says them; empty when none.
std::string preset_mca_note(const Json& res);

std::string git_describe();  // the build's (core/build_info.hpp), "unknown" outside a git checkout
// A scenario file as a result's provenance names it: relative to the data folder inside it, else absolute.
std::string provenance_path(const std::string& file);
// repo_relative (platform/machine.hpp): paths in results are relative to the project root.
// Writes `text` to `path` atomically (temporary file in the same directory, then rename).
void write_atomic(const std::string& path, const std::string& text);
// The result's points as CSV (one column per point field; a cell with a comma, quote or line break is quoted, RFC 4180).
std::string csv_cell(const std::string& s);
std::string result_csv(const Json& res);  // the points of points_with_ranks
// The fields that name a point (what it ran), in the order a result's or a sweep's table puts them first.
const std::vector<std::string>& naming_columns();
// The result's points, each with its rank count where the points do not carry one: a sweep over rank counts lists
// them in the result's top-level "ranks" and its points in that order, the same number per count (run_scenario), so
// each point takes the count of its block. The points as they are when they carry "ranks", when "ranks" is one count,
// or when the points do not divide evenly among the counts.
Json points_with_ranks(const Json& res);
// A result read back from a file (compare, reproduce --from, a sweep's point file): its "points" a non-empty list of
// objects. InputError(file, `key` ("points", or the path to them), the reason + `why_suffix`) otherwise.
void check_result_points(const Json& res, const std::string& file, const std::string& key,
                         const std::string& why_suffix = "");
// A result's "ranks" for a title: "2 ranks", "512, 4096, 32768 ranks" (up to four counts), "2 .. 1024 ranks (10
// counts)" above four.
std::string ranks_text(const Json& ranks);
// The table `ompisim run` prints: a line naming the run, then the benchmark driver's own table (OSU's output format
// for the OSU drivers).
// The header lists the scenario's mca block, every --set override and every effective value that differs from the
// parameter's value (effective_notes).
std::string result_table(const Json& res, const Json& scenario_mca = Json());
// The collective algorithm every point ran, with its tree radix where every point gives the same one ("cheetah-atomic,
// radix 8"); empty when the points give none or differ (a library's choice per size, a radix sweep: the table's
// columns say it then). The table prints it above its rows, a run's plot in its title.
std::string points_algorithm(const Json& points);
// Where they differ: consecutive sizes of one algorithm, "8 B recursive_doubling; 64 KiB .. 1 MiB ring" (the table's
// "# algorithm by size" line); empty where points_algorithm gives one or a point gives no size or algorithm.
std::string points_algorithms_by_size(const Json& points);
// The protocol each size took, from its points' "counters" (the OSU point-to-point drivers'): consecutive sizes whose
// moving counters (each at least 1 % of that size's largest) have the same names form one range, named with those
// counters; the names that move at every size are said once, after. "" when the points carry no counters or their
// sizes do not rise (a list of rank counts). E.g. "0 B .. 512 B ob1_MATCH, ugni_short_sends; 1 .. 4 KiB ob1_MATCH,
// ugni_eager_gets; ... (at every size: ugni_smsg, ugni_smsg_local_events)".
std::string points_protocols(const Json& points);
// Every --set override of a result: "key=value (resolved value)".
std::vector<std::string> override_notes(const Json& res);
// Every value a component reports as effective (provenance.derived "<key> (effective)") that differs from the
// parameter's resolved value, with the limit that caps it when the component names one ("<key> (capped by)").
std::vector<std::string> effective_notes(const Json& res);
// The header lines that qualify a result by its engine (provenance.engine, provenance.engine_window): an engine whose
// flows share no bandwidth (a bandwidth may exceed a link's capacity), and a solve window with the flow starts it
// delayed. Empty on the default engine without a window.
std::vector<std::string> engine_notes(const Json& res);
// The header line that says how many calls each point simulated (its "calls_simulated": the steady-state cutoff's
// count, warm-up included), when every point has one: "12 at every point", "2 to 3 by point"; "" otherwise.
std::string calls_note(const Json& res);
// Each MCA parameter (in bytes) whose effective value the run recorded (provenance.derived "<key> (effective)"; of a
// result of several runs, a list of rank counts or radices, the keys all its runs used one value of): the value given
// (its text, and in bytes, -1 when not a size) and the value used; effective_notes names those that differ.
struct EffectiveValue {
  std::string key, text;
  double given = -1, used = 0;
  Dim dim = Dim::Bytes;  // the parameter's, as its component declares it
};
std::vector<EffectiveValue> effective_values(const Json& res);
// One warning per --set override whose effective value (provenance.derived) differs from the value given.
std::vector<std::string> override_warnings(const Json& res);

}  // namespace ompisim
