// One interface for every benchmark driver (point-to-point and collective), and the registry they sign into.
// Each family registers its drivers in its own file (osu.cpp: the OSU point-to-point set and NetPIPE; smb.cpp;
// barrier.cpp; app_skeleton.cpp), collected by benchmarks/register.cpp. An entry declares the benchmark's name, a
// description, every key its scenario "benchmark" block accepts (with type, default and meaning: `ompisim describe
// NAME` prints them) and a parser that reads the block into a configured Driver. The runner looks a benchmark up by
// name and asks the Driver to run; it never tests a benchmark name itself.
#pragma once
#include "core/json_input.hpp"
#include "core/registry.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::bench {

struct DriverParam;

// What a driver's parser may read of the scenario besides its own block. Errors about these keys name the scenario's
// own key ("ranks"), not a key of the block.
struct DriverContext {
  std::string file;              // the scenario file (every error names it)
  std::vector<long long> ranks;  // the scenario's rank counts (one, or a sweep)
  std::string stack;             // the stack's name: a preset or the label of a composed stack
  Json stack_json;               // "stack" as the scenario gives it (preset name or object of components)
  // Whether a BTL of the stack does atomics on peers over the network (runner/stacks.hpp stack_has_network_atomics:
  // MCA_BTL_FLAGS_ATOMIC_OPS with network reach, btl/ugni), as Cheetah's uGNI BCOL needs.
  bool network_atomics = false;
  // The keys the benchmark declares (its registry entry's params; parse_benchmark sets them): the parser reads the
  // defaults of its text and quantity keys from here (block_keys), so the declared default is the one used.
  const std::vector<DriverParam>* keys = nullptr;
  // The machine the stack was resolved on: empty when the scenario is parsed (network_atomics then asks whether the
  // stack has them on any NIC kind it is defined for), its name when the run checks the driver again (runner/run.cpp).
  std::string machine;
  // The collective library of the stack's preset (runner/stacks.hpp StackInfo::collectives: "tuned", "mpich",
  // "tuned-v1.3", ...): a block that names no algorithm or library uses it where the benchmark offers it. Empty: none,
  // or not known yet (a preset such as "native" whose library depends on the machine, when the scenario is parsed;
  // the run then gives it to Driver::with_stack_collectives).
  std::string stack_collectives{};
};

// An input of a configured benchmark that is an estimate with a range (app_skeleton: a skeleton's guessed message
// sizes, benchmarks/apps/*.json "estimates"): validate's prediction intervals sample it. `name` is unique over the
// benchmarks ("S3D.halo_bytes"): the scenarios of one application share it, so one sample sets it in all of them.
struct DriverEstimate {
  std::string name;
  Dim dim = Dim::Bytes;
  double value = 0, lo = 0, hi = 0;
  std::string source, range_source;
};
using EstimateSet = std::vector<std::pair<std::string, std::string>>;  // (DriverEstimate::name, value as text)

// The largest message of a benchmark's input and the scenario key that sets it (Driver::largest_message).
struct MessageBound {
  std::uint64_t bytes = 0;
  std::string key;  // "benchmark.sizes"
};

class Driver;
// Runs the scenario once more, in its own process, with driver `d` and stack `stack` ("" = the scenario's own stack),
// at the scenario's (single) rank count; returns that run's result JSON.
using Rerun = std::function<Json(const Driver& d, const std::string& stack)>;

// A benchmark configured from one scenario block. Immutable once parsed, except through the narrowing calls below,
// which the runner and the calibration make on a clone().
class Driver {
public:
  virtual ~Driver() = default;
  virtual std::unique_ptr<Driver> clone() const = 0;
  // Runs the ranks' programs on `w` and `s` until they finish; returns the result points (a JSON array).
  virtual Json run(World& w, Stack& s, const std::string& file) const = 0;
  // Checks against the rest of the scenario once the block's keys are known to be good (rank counts the benchmark
  // cannot run on). InputError(ctx.file, "ranks", reason).
  virtual void check(const DriverContext& ctx) const { (void)ctx; }
  // The curve's label in plots: the benchmark's name, or what distinguishes runs of it (barrier_loop: its algorithm).
  virtual std::string label() const = 0;
  // The driver's own sweep axis (barrier_loop's "radix" list): the runner runs every rank count x every value, each
  // in its own process, and reports the values under `axis()` when there are several. Empty: no axis.
  virtual std::string axis() const { return {}; }
  virtual std::vector<Json> axis_values() const { return {}; }
  virtual void select(std::size_t k) { (void)k; }  // configure this driver for axis value k
  // The largest message the block makes the benchmark send, when its input says so (a point-to-point benchmark sends
  // each of its "sizes" as one message), with the scenario key that sets it; nothing when it does not (a collective's
  // algorithm splits and combines blocks; a trace replay). The runner hands it to the stack's components before
  // anything is simulated (ComponentInfo::check, protocols/register.hpp: a message over a one-packet limit).
  virtual std::optional<MessageBound> largest_message() const { return std::nullopt; }
  // The calls the run makes over all its sizes, warm-up included (each size's iterations plus skip, at most
  // `cutoff` where a steady-state cutoff stops a size), when they differ from size to size (OSU's defaults: 10,000
  // up to 8 KiB, 1,000 above), with how they were counted; nullopt: the same count at every size (the estimate's
  // iterations x sizes).
  struct CallCount {
    double calls;
    std::string how;
  };
  virtual std::optional<CallCount> calls_over_sizes(double cutoff) const {
    (void)cutoff;
    return std::nullopt;
  }
  // Messages per rank and call where the input sets them (a streaming OSU benchmark's window), in the registered
  // count's unit (MessageCount: a ping-pong counts 2, a message each way), with how they were counted; nullopt: the
  // registered count.
  struct MessagesPerCall {
    double messages;
    std::string how;
  };
  virtual std::optional<MessagesPerCall> messages_per_call() const { return std::nullopt; }
  // Why counting messages underestimates this run's CPU time at `ranks` ranks ("" when nothing says so): printed
  // with its estimate (runner/estimate.hpp estimate_caveat).
  virtual std::string estimate_caveat(long long ranks) const {
    (void)ranks;
    return {};
  }
  // A calibration evaluation that needs only the point `sel` ({"bytes": ...}, {"ranks": ...}): do less work for the
  // same value where the driver can (OSU: only that size, fewer steady-state iterations). Default: unchanged.
  // It may read sel's "bytes" only: validation's runner shares one narrowed run among the points whose "bytes" (and
  // "ranks", which the runner applies itself) agree (validation/validate.cpp, Runner::narrowing). Returns whether the
  // configuration changed: when it did not, the narrowed run is the full run and the runner reuses that one.
  virtual bool narrow_for_calibration(const Json& sel) {
    (void)sel;
    return false;
  }
  // A copy that uses the stack's collective library `lib` (DriverContext::stack_collectives, as the run's machine
  // resolves the preset) where the block names none, when that changes the configuration; null when it does not (the
  // block names its algorithm, the benchmark does not offer `lib`, or the parse already used it).
  virtual std::unique_ptr<Driver> with_stack_collectives(const std::string& lib) const {
    (void)lib;
    return nullptr;
  }
  // When the benchmark decides its collectives' algorithms by another library than the stack's (a trace replay: only
  // the tables that cover every collective it replays), the sentence that says so, which the run's header, its
  // result's provenance ("collectives") and `describe` of the scenario print; empty otherwise.
  virtual std::string collectives_note() const { return {}; }
  // Whether the run whose points these are ran a collective (a trace replay whose trace holds none did not): the
  // run's note is kept only then.
  virtual bool ran_collectives(const Json& points) const {
    (void)points;
    return true;
  }
  // The input key that gives the benchmark MPI_Alloc_mem buffers ("benchmark.alloc"), when it does; empty when its
  // buffers are malloc'ed. The runner warns when the stack's paths do not depend on it (Stack::reads_buffer_allocation).
  virtual std::string alloc_mem_key() const { return {}; }
  // The benchmark's inputs that are estimates with a range (none by default).
  virtual std::vector<DriverEstimate> estimates() const { return {}; }
  // A copy with these estimates set (names as estimates() gives them); names this driver does not have are ignored,
  // since one sample sets the estimates of every benchmark it runs. InputError for a value out of the input's limits.
  virtual std::unique_ptr<Driver> with_estimates(const EstimateSet& set) const {
    (void)set;
    return clone();
  }
  // Input derived from runs of the same scenario before the real run (app_skeleton's compute per step, fitted with
  // openmpi-cm when the block asks for it): returns the finished result, or nothing when no derivation is needed.
  virtual std::optional<Json> run_derived(const Rerun& rerun) const {
    (void)rerun;
    return std::nullopt;
  }
};

// The base of a driver whose configuration is one `Config` value parsed from its block (`c_`): clone() copies the
// driver `Self` with it.
template <class Self, class Config>
class ConfiguredDriver : public Driver {
public:
  explicit ConfiguredDriver(Config c) : c_(std::move(c)) {}
  std::unique_ptr<Driver> clone() const override { return std::make_unique<Self>(static_cast<const Self&>(*this)); }

protected:
  Config c_;
};

// One key of a benchmark block, as `ompisim describe`, `--help` and the JSON Schema (runner/schema.cpp, from `type`)
// print it. An integer key made by integer_key() also carries the range and default its parser reads it with
// (read_integer), so that the documented range and default are the ones checked and used.
struct DriverParam {
  std::string name, type, default_value, description;
  std::function<std::vector<std::string>()> choices = {};  // the values it may take, when they are a list of names
  struct IntegerRange {
    long long min = 0, max = 0;
    std::optional<long long> value;  // the default; none: the benchmark computes it (default_value says how)
  };
  std::optional<IntegerRange> integer = {};
  bool declared = false;  // made by text_key(): default_value is the value the parser uses (declared_default)
};
// An integer key in [min, max]: its type reads "integer MIN .. MAX", its default `value`, or, without one, the
// benchmark's own rule described by `computed`.
DriverParam integer_key(std::string name, long long min, long long max, std::optional<long long> value,
                        std::string description, std::string computed = "");
// Integer key `name` of block `b` as `keys` declare it: the block's value within the declared range (else an input
// error naming the key), or the declared default when the block has none (none when the benchmark computes it). A name
// not declared by integer_key() is a bug (std::logic_error).
std::optional<long long> read_integer(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name);
// The declared range and default of integer key `name` (std::logic_error when it is not one).
const DriverParam::IntegerRange& integer_range(const std::vector<DriverParam>& keys, const std::string& name);
// A text, choice or quantity key whose default is the literal `value` (a quantity's with its unit, "0 us"), which its
// parser reads with declared_default / read_text; `choices`: the names it may take, when they are a list.
DriverParam text_key(std::string name, std::string type, std::string value, std::string description,
                     std::function<std::vector<std::string>()> choices = {});
// The declared default of key `name` (std::logic_error when it is not declared with text_key()).
const std::string& declared_default(const std::vector<DriverParam>& keys, const std::string& name);
// Text key `name` of block `b`: the block's string, or the declared default when the block has none (which must be one
// of the key's declared choices, when it has them: std::logic_error otherwise).
std::string read_text(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name);
// Boolean key `name` of block `b`: the block's value, or the declared default ("true" or "false"; anything else is a
// std::logic_error).
bool read_boolean(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name);
// The keys parse_benchmark gave the parser (std::logic_error when none: a parser called outside parse_benchmark).
const std::vector<DriverParam>& block_keys(const DriverContext& ctx);

// A run's messages counted from the configured benchmark's own input (replay: its trace's communication actions), and
// where they were counted from, for the estimate's text ("4059136 communication actions in the trace (...)").
struct InputMessages {
  double messages = 0;  // every rank's, the whole run
  std::string source;
};

// Messages a rank sends in one iteration of a benchmark's loop, as a function of the rank count P: `constant` +
// `per_round` x ceil(log2 P) + `per_peer` x (P - 1). What runner/estimate.hpp counts a run's cost with, an order of
// magnitude: a ping-pong's 2 (constant), a tree or dissemination collective's 1 + ceil(log2 P) rounds (the default),
// an alltoall's P - 1 blocks (per_peer). A count with per_peer moves bulk data among all the ranks.
struct MessageCount {
  double constant = 1, per_round = 1, per_peer = 0;
  // Optional, for a benchmark whose loop keys do not give its length (replay): the whole run's messages read from its
  // configured driver `parsed` (the block as its parser read it) at `ranks` ranks, in place of the count above.
  // Cheap and bounded (no second parse of the input); nothing when the input cannot be read: the driver's own parse
  // and run report that, and the count above applies.
  std::function<std::optional<InputMessages>(const Driver& parsed, double ranks)> from_input = {};
  // Optional: what the fluid engine measured against the lmm engine on runs of this benchmark where it was faster
  // ("took 0.36 of its CPU time on ..."), quoted by the terminal notice of a long run on an engine that re-solves
  // whole connected sets of flows (runner/estimate.hpp engine_hint). Empty: the notice names the fluid engine only for a count with per_peer.
  std::string fluid_measured = {};
  double at(double ranks) const;
  bool all_pairs() const { return per_peer > 0; }
  std::string formula() const;  // "P - 1", "1 + ceil(log2 P)", "2"
};

struct DriverInfo {
  std::string name, family, description;
  std::vector<DriverParam> params;  // every key the block accepts besides "name"; any other key is refused
  // Reads the block (its keys are checked against `params` afterwards; a parser may refuse a key of the family that
  // does not apply to this benchmark with a reason of its own first).
  std::function<std::unique_ptr<Driver>(ObjectReader& block, const DriverContext& ctx)> parse;
  // The body of `ompisim run`'s table for a result of this benchmark (OSU's own output format for the OSU drivers).
  std::function<std::string(const Json& result)> table = {};
  bool curve = true;  // the result is a curve over bytes / ranks / the axis (false: one bar per scenario)
  // A result that is not a curve may still name a plot of its rows (`run --plot`): the points whose "row" is `row`,
  // column `x` against each of `ys` (column, label) on linear axes. Example: replay, per rank, compute and MPI time.
  struct RowPlot {
    std::string row, x;
    std::vector<std::pair<std::string, std::string>> ys;
  };
  std::optional<RowPlot> row_plot = {};
  MessageCount messages = {};  // messages per rank and iteration (runner/estimate.hpp)
  // A steady-state cutoff (the OSU collectives'): unless the block's key `key` is 0 (its declared default otherwise),
  // a size's loop stops once `calls` consecutive calls agree, so runner/estimate.hpp counts that many calls per size
  // (the fewest: a series that does not settle is simulated in full).
  struct SteadyStateCutoff {
    std::string key;
    double calls = 0;
  };
  std::optional<SteadyStateCutoff> steady_state = {};

  std::vector<std::string> keys() const;  // "name" and every parameter
};

using DriverRegistry = NamedRegistry<DriverInfo, &DriverInfo::parse>;

void register_osu_drivers(DriverRegistry& reg);
void register_smb_driver(DriverRegistry& reg);
void register_barrier_driver(DriverRegistry& reg);
void register_osu_coll_drivers(DriverRegistry& reg);  // osu_alltoall, osu_bcast, osu_allgather, osu_gather, osu_scatter,
                                                        // osu_allreduce
void register_app_driver(DriverRegistry& reg);
void register_layers_driver(DriverRegistry& reg);  // pingpong_layers.cpp
void register_storm_driver(DriverRegistry& reg);   // unexpected_storm (storm.cpp)
void register_imb_drivers(DriverRegistry& reg);    // imb.cpp: imb_reduce
void register_replay_driver(DriverRegistry& reg);  // replay/replay_driver.cpp: SMPI time-independent traces
void register_drivers(DriverRegistry& reg);  // all of the above (benchmarks/register.cpp)
const DriverRegistry& driver_registry();

// The driver named `name`; InputError(file, key, "unknown benchmark ... (did you mean ...) (known: ...)") otherwise.
const DriverInfo& find_driver(const std::string& name, const std::string& file, const std::string& key);
// Reads a scenario's "benchmark" block: looks the name up, lets the driver parse its keys, refuses keys it does not
// declare, then runs the driver's check against the scenario.
std::unique_ptr<Driver> parse_benchmark(ObjectReader& block, const DriverContext& ctx);

}  // namespace ompisim::bench
