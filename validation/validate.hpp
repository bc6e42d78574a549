// The comparator: runs the scenarios that carry reference data (validation/reference/*.json), compares every point
// (calibration points within their tolerance, predictions within theirs (15 % by default, not in the exit status),
// held-out values reported as predictions without a reference) and checks the papers' comparisons with their
// magnitudes (claims.hpp, gap.hpp). Also the reproduce job (results/, plots, validation.md). Calibration is
// validation/calibrate.hpp; the files it reads, validation/discovery.hpp.
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"
#include "validation/calibrate.hpp"
#include "validation/discovery.hpp"
#include "validation/intervals.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ompisim::validation {

// {"points": [...], "held_out": [...], "claims": [...], "pairs": [...], "untested": [...], "sampling": [...]}; every
// entry names its "paper" (the reference file's stem). Predictions carry "pass" against their tolerance (the point's
// tolerance_pct, else the file's prediction_tolerance_pct, else 15 %); the exit status counts calibration points only. `done`: results already computed without overrides, by scenario
// path (reproduce passes the ones it has just run, so validation does not simulate them again; same values). `jobs`:
// interval samples evaluated at once, each in a process of its own (the same table as one at a time).
Json validate(const std::string& paper, const Overrides& sets = {}, const std::map<std::string, Json>* done = nullptr,
              int jobs = 1);
// reproduce --paper: the rows (points, held-out values, claims, table1, mechanism checks) of every reference file whose
// scenarios are all results of `done` (by scenario path; nothing runs again but the prediction intervals' samples), as
// validate() tables them; the others left out and counted in `left_out` (only in the files with a row evaluated: a
// paper none of whose scenarios ran is not evaluated at all).
Json validate_ran(const std::map<std::string, Json>& done, std::size_t& left_out, int jobs = 1);
// One reference document (its "points", "held_out", "claims", optional "calibration_directions"); `f` names it in
// messages and seeds its samples. validate() runs this for every reference file of the paper.
Json validate_reference(const Json& doc, const std::string& f, const Overrides& sets = {},
                        const std::map<std::string, Json>* done = nullptr, int jobs = 1);
// The calibration comparisons (`doc`'s "fit_gaps" of role "calibration") whose pair (a, b, in either order) a claim's
// check compares again, by id: a claim that holds on them holds because a closed comparator's free costs were fitted
// to that gap, not as an independent test (the table counts them apart).
Json claim_fitted_by(const Json& check, const Json& doc);
// A claim's "not_holding" record ({"reason", "see"}), checked: InputError naming file and key otherwise.
Json check_not_holding(const Json& n, const std::string& file);
std::string render_not_holding(const Json& claims);  // Markdown: claims not holding, with their reasons
// Markdown. Opens with render_summary: one row per paper (quantified statements, checked with magnitude, holding,
// failing, untested, the largest gap between model and paper), the counts of calibration points, predictions,
// comparisons and calibration pairs (each holding / failing), and the pairs' orders.
std::string render_table(const Json& v);
std::string render_summary(const Json& v);
// The per-paper table of render_summary and the summary counts, without the reasons: what reproduce prints.
std::string render_brief(const Json& v);
// "calibration points 3 (3 within tolerance, 0 outside); predictions ...; comparisons ...; calibration pairs ..."
std::string summary_counts(const Json& v);
// Markdown: the figures the reasons quote (not_holding.quotes), how many agree with this run, each stale one named.
std::string render_quotes(const Json& v);
bool all_calibration_pass(const Json& v);  // calibration points within tolerance and pairs in the paper's order
// The values of reference entries ({"scenario", "select", "metric"}), each scenario run once, the fast way (only the
// sizes and ranks the entries select), under `sets`: calibrate's evaluations.
std::vector<double> fast_values(const std::vector<Json>& refs, const Overrides& sets);
// Every scenario into out_dir (JSON, CSV, a plot per figure) and validation.md. With `from_dir` (a results folder
// that reproduce wrote), nothing runs: the results and validation.json are read from there and the plots redrawn.
// Plot files (.svg, .gp, .ref.dat, .interval.dat) in the folders plotted into that this run did not write (a figure
// renamed or removed) are deleted; other files stay.
// With `paper` (reproduce --paper), only that paper's scenarios run (paper_scenarios: its figures whole) and only its
// figures are drawn, as the full run draws them; the validation rows whose scenarios all ran are evaluated
// (validate_ran) and written as validation-<paper>.md and .json: validation.md and validation.json, the tables of every
// paper, are never written by a partial run, and no stale plot is removed (a partial run cannot tell another paper's
// figure from a stale one). The exit status comes from the rows evaluated.
int reproduce(const std::string& out_dir, const std::string& from_dir = "", const std::string& paper = "",
              int jobs = 1);

}  // namespace ompisim::validation
