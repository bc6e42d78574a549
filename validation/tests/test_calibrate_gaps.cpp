// Calibration comparisons (calibrate.hpp): the residual of a gap and the checks on a reference file's "fit_gaps".
// Configuration: gaps of the Gemini paper (on-node 1 KiB, Open MPI 82 % better; inter-node 1 KiB, 47 % worse) and
// hand-made fit_gaps entries. Expected: a residual of 0 at the paper's gap, +-tolerance at the factor 1.5 either way,
// larger for a gap of the other sign; each bad entry is an InputError naming the file and the key.
#include "validation/calibrate.hpp"

#include "core/errors.hpp"
#include "validation/validate.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace ompisim;
using namespace ompisim::validation;

TEST_CASE("calibrate: a comparison's residual is 0 at the paper's gap and the tolerance at the factor 1.5") {
  CHECK(gap_residual(82.0, 82.0, 10) == Approx(0.0).margin(1e-12));
  CHECK(gap_residual(82.0 * 1.5, 82.0, 10) == Approx(0.10));
  CHECK(gap_residual(82.0 / 1.5, 82.0, 10) == Approx(-0.10));
  CHECK(gap_residual(-47.0 * 1.5, -47.0, 10) == Approx(0.10));  // the sign is the paper's: the ratio is positive
  // Gemini on-node 1 KiB before Cray MPT's per-path costs: the right sign, 2.6 % for 82 %: far outside
  CHECK(gap_residual(2.6, 82.0, 10) < -0.10);
  // The other sign is worse than any gap of the right sign, and the residual keeps falling with it (a gradient).
  CHECK(gap_residual(-2.0, 5.0, 10) < gap_residual(0.1, 5.0, 10));
  CHECK(gap_residual(-4.0, 5.0, 10) < gap_residual(-2.0, 5.0, 10));
  // continuous at half the paper's gap
  CHECK(gap_residual(2.5 + 1e-9, 5.0, 10) == Approx(gap_residual(2.5 - 1e-9, 5.0, 10)));
}

// Configuration: the Gemini on-node 1 B pair (Open MPI and native both 0.52 us in the paper, a gap of 0) as a fit_gaps
// entry, and model gaps around it (0.548 against 0.472 us is -16.1 %). Expected: the entry is read and fitted (not an
// input error); its residual is 0 at equal values, the tolerance at a gap of the tolerance either way, and grows with
// the gap, so the fit keeps equal paper values together; it holds within the tolerance only.
TEST_CASE("calibrate: a pair with equal paper values enters the fit as a gap of 0") {
  Json side{{"scenario", "scenarios/gemini/fig3_latency_2p_intra_openmpi.json"}, {"select", {{"bytes", 1}}},
            {"metric", "latency_us"}};
  Json eq{{"id", "same"}, {"a", side}, {"b", side}, {"gap_pct", 0}, {"role", "calibration"}};
  auto gaps = load_fit_gaps(Json{{"fit_gaps", Json::array({eq})}}, "ref.json");
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].paper_pct == 0.0);
  CHECK(gap_residual(0.0, 0.0, 10) == Approx(0.0).margin(1e-12));
  CHECK(gap_residual(10.0, 0.0, 10) == Approx(0.10));
  CHECK(gap_residual(-10.0, 0.0, 10) == Approx(-0.10));
  const double model = gap_pct(0.548, 0.472, Better::Lower);
  CHECK(std::isfinite(gap_residual(model, 0.0, 10)));
  CHECK(gap_residual(model, 0.0, 10) < -0.10);
  CHECK(gap_residual(-20.0, 0.0, 10) < gap_residual(model, 0.0, 10));
  CHECK_FALSE(gap_fit_holds(model, 0.0, 10));
  CHECK(gap_fit_holds(-3.0, 0.0, 10));
  CHECK(gap_fit_holds(82.0 * 1.2, 82.0, 10));
  CHECK_FALSE(gap_fit_holds(82.0 * 1.6, 82.0, 10));
}

// Configuration: a prior of 0.2 us with the range 0.1 .. 0.4 us (Cielo's fma_issue_overhead estimate), tolerance 10 %.
// Expected: the residual is 0 at the prior, +-kPriorWeight of the tolerance at the range's edges, and grows with the log
// distance beyond them, so a fit direction the points leave free settles at the prior.
TEST_CASE("calibrate: a prior's residual is 0 at its value and grows with the log distance from it") {
  const Json entry = Json::parse(R"({"value": "0.37 us", "fit": "f",
                                     "prior": {"value": "0.2 us", "range": ["0.1 us", "0.4 us"], "source": "s"}})");
  REQUIRE(read_prior(entry, Dim::Time, "m.json"));
  const Prior p = *read_prior(entry, Dim::Time, "m.json");
  CHECK_FALSE(read_prior(Json::parse(R"({"value": "0.37 us", "fit": "f"})"), Dim::Time, "m.json"));
  CHECK(prior_residual(p, 0.2e-6, 10) == Approx(0.0).margin(1e-12));
  CHECK(prior_residual(p, 0.4e-6, 10) == Approx(kPriorWeight * 0.10));
  CHECK(prior_residual(p, 0.1e-6, 10) == Approx(-kPriorWeight * 0.10));
  CHECK(prior_residual(p, 0.8e-6, 10) == Approx(kPriorWeight * 0.20));
  CHECK(prior_residual(p, 0.37e-6, 10) > kPriorWeight * 0.08);
}

namespace {
Json entry() {
  Json side{{"scenario", "scenarios/gemini/fig3_latency_2p_intra_openmpi.json"}, {"select", {{"bytes", 1024}}},
            {"metric", "latency_us"}};
  return Json{{"id", "g"}, {"a", side}, {"b", side}, {"gap_pct", 82}, {"role", "calibration"}};
}
void bad(const Json& e, const std::string& key) {
  Json doc{{"fit_gaps", Json::array({e})}};
  CHECK_THROWS_WITH(load_fit_gaps(doc, "ref.json"), Catch::Contains("ref.json") && Catch::Contains(key));
  CHECK_THROWS_AS(load_fit_gaps(doc, "ref.json"), InputError);
}
}  // namespace

TEST_CASE("calibrate: fit_gaps entries are read with their direction, bad ones name the file and key") {
  Json check = entry();
  check["role"] = "check";
  check["id"] = "g-check";
  auto gaps = load_fit_gaps(Json{{"fit_gaps", Json::array({entry(), check})}}, "ref.json");
  REQUIRE(gaps.size() == 1);  // the check is read, not fitted
  CHECK(gaps[0].paper_pct == 82);
  CHECK(gaps[0].better == Better::Lower);
  CHECK(load_fit_gaps(Json::object(), "ref.json").empty());
  SECTION("a gap that is not a number") { Json e = entry(); e["gap_pct"] = "equal"; bad(e, "fit_gaps[0].gap_pct"); }
  SECTION("a missing side") { Json e = entry(); e.erase("b"); bad(e, "fit_gaps[0].b"); }
  SECTION("a side without its metric") { Json e = entry(); e["a"].erase("metric"); bad(e, "fit_gaps[0].a.metric"); }
  SECTION("two metrics") { Json e = entry(); e["b"]["metric"] = "bandwidth_GBps"; bad(e, "fit_gaps[0].b.metric"); }
  SECTION("a metric without a direction") {
    Json e = entry();
    e["a"]["metric"] = e["b"]["metric"] = "colour";
    bad(e, "fit_gaps[0].a.metric");
  }
  SECTION("an unknown role") { Json e = entry(); e["role"] = "maybe"; bad(e, "fit_gaps[0].role"); }
  SECTION("an id given twice") {
    CHECK_THROWS_WITH(load_fit_gaps(Json{{"fit_gaps", Json::array({entry(), entry()})}}, "ref.json"),
                      Catch::Contains("ref.json") && Catch::Contains("fit_gaps[1].id") &&
                          Catch::Contains("'g' is the id of an earlier calibration comparison"));
  }
  SECTION("a side outside the data folder") {
    Json e = entry();
    e["b"]["scenario"] = "../scenarios/gemini/fig3_latency_2p_intra_openmpi.json";
    bad(e, "fit_gaps[0].b.scenario");
  }
  SECTION("a side naming no scenario file") {
    Json e = entry();
    e["b"]["scenario"] = "scenarios/gemini/nope.json";
    bad(e, "fit_gaps[0].b.scenario");
  }
  SECTION("an unknown key") { Json e = entry(); e["gap"] = 82; bad(e, "fit_gaps[0].gap"); }
  SECTION("an unknown key in a side") { Json e = entry(); e["a"]["bytes"] = 1024; bad(e, "fit_gaps[0].a.bytes"); }
}

// Configuration: a comparison with "free": "software.craympi_" (a closed comparator's own costs), one without, and
// bad "free" values. Expected: the one with it enters only a fit whose every free parameter contains it (Cray MPI's
// costs alone), never a fit of the hardware or Open MPI parameters, nor a mixed one; the one without enters every
// fit; a "free" that is not a non-empty string names the file and key.
TEST_CASE("calibrate: a comparison with 'free' calibrates only the parameters it names") {
  Json own = entry();
  own["free"] = "software.craympi_";
  Json plain = entry();
  plain["id"] = "g-plain";  // ids are unique in a reference file
  auto gaps = load_fit_gaps(Json{{"fit_gaps", Json::array({own, plain})}}, "ref.json");
  REQUIRE(gaps.size() == 2);
  const std::vector<std::string> cray{"software.craympi_eager_rate", "software.craympi_unex_cost"};
  const std::vector<std::string> hw{"nic.host_interrupt_cost", "software.pml_cm_overhead"};
  std::vector<std::string> mixed = cray;
  mixed.push_back("software.pml_cm_overhead");
  CHECK(gap_enters_fit(gaps[0], cray));
  CHECK_FALSE(gap_enters_fit(gaps[0], hw));
  CHECK_FALSE(gap_enters_fit(gaps[0], mixed));
  CHECK(gap_enters_fit(gaps[1], hw));
  SECTION("free not a string") { Json e = own; e["free"] = 3; bad(e, "fit_gaps[0].free"); }
  SECTION("free empty") { Json e = own; e["free"] = ""; bad(e, "fit_gaps[0].free"); }
}

// Configuration: the shipped reference files of the Gemini and SeaStar papers, and hand-made ones whose calibration
// points run on two machines or on none. Expected: the machine their calibration points run on (cielo; red-storm,
// the SeaStar application points with "fits" left out as calibrate leaves them out); several or none is an InputError
// naming the file. How validated: exact names and the error texts.
TEST_CASE("calibrate: the machine fitted is the one the paper's calibration points run on") {
  for (auto [paper, machine] : {std::pair{"gemini-xe-xk", "cielo"}, std::pair{"seastar-portals", "red-storm"}}) {
    const std::string f = reference_files(paper).at(0);
    CHECK(calibration_machine(load_json_file(f), f) == machine);
  }
  auto point = [](const char* scenario) {
    return Json{{"id", scenario}, {"role", "calibration"}, {"scenario", scenario}};
  };
  Json two{{"points", Json::array({point("scenarios/gemini/fig5_latency_2p_inter_openmpi.json"),
                                   point("scenarios/seastar/fig2_netpipe_native.json")})}};
  CHECK_THROWS_WITH(calibration_machine(two, "ref.json"),
                    Catch::Contains("ref.json") && Catch::Contains("several machines (cielo, red-storm)"));
  Json none{{"points", Json::array({Json{{"id", "p"}, {"role", "prediction"}, {"scenario", "x.json"}}})}};
  CHECK_THROWS_WITH(calibration_machine(none, "ref.json"), Catch::Contains("no calibration point names a machine"));
}

// Configuration: the shipped reference files. Expected: the machines of the scenarios each names anywhere (points,
// claims, comparisons): Gemini's are cielo alone, SeaStar's include red-storm and jaguar-xt4, and every paper's
// together include Crusher and the QsNet machine. How validated: set membership (what validate --machine-file checks).
TEST_CASE("validate: the machines a paper's scenarios run on") {
  CHECK(reference_machines("gemini-xe-xk") == std::set<std::string>{"cielo"});
  const auto seastar = reference_machines("seastar-portals");
  CHECK(seastar.count("red-storm") == 1);
  CHECK(seastar.count("jaguar-xt4") == 1);
  CHECK(seastar.count("cielo") == 0);
  const auto all = reference_machines("");
  CHECK(all.count("crusher") == 1);
  CHECK(all.count("osu-elan4") == 1);
  CHECK(all.count("my-cielo") == 0);
}

// Configuration: a straight-line fit (residuals r = X theta - y over five points x = 0..4, parameters intercept and
// slope), where the least-squares covariance is s^2 (X^T X)^-1 in closed form; a Jacobian with a column of zeros (a
// parameter no residual sees); as many parameters as residuals. Expected: s^2 = |r|^2 / 3, t = 3.182 (Student, 3
// degrees of freedom, 97.5 %), and along each reported direction v the half-width is t sqrt(v^T C v); the zero column's
// direction is undetermined and carries no width; a residual no parameter moves changes nothing; an axis
// wider than a factor e either way is flagged wide; with no degree of freedom nothing is estimated.
// A straight line over x = 0..4 (columns: intercept, slope) and residuals of the given scale.
static Eigen::MatrixXd line_design() {
  Eigen::MatrixXd X(5, 2);
  for (int i = 0; i < 5; ++i) X(i, 0) = 1, X(i, 1) = i;
  return X;
}
static Eigen::VectorXd line_residuals(double scale) {
  Eigen::VectorXd r(5);
  r << 0.1, -0.2, 0.05, 0.15, -0.1;
  return r * scale;
}

TEST_CASE("calibrate: the fit's confidence directions are the least-squares covariance's axes", "[unit][validation]") {
  const Eigen::MatrixXd X = line_design();
  const Eigen::VectorXd r = line_residuals(1.0);
  const FitUncertainty u = fit_uncertainty(X, r);
  REQUIRE(u.dof == 3);
  CHECK(u.s == Approx(std::sqrt(r.squaredNorm() / 3)));
  CHECK(u.t == Approx(3.182).epsilon(1e-3));
  const Eigen::MatrixXd C = u.s * u.s * (X.transpose() * X).inverse();
  REQUIRE(u.directions.size() == 2);
  for (const auto& d : u.directions) {
    REQUIRE(d.coef.size() == 2);
    Eigen::Vector2d v(d.coef[0], d.coef[1]);
    CHECK(v.norm() == Approx(1.0));
    CHECK_FALSE(d.undetermined);
    CHECK(d.half_width == Approx(u.t * std::sqrt(v.dot(C * v))));
  }
  Eigen::MatrixXd Z(5, 2);
  Z.col(0) = X.col(1);
  Z.col(1).setZero();
  const FitUncertainty z = fit_uncertainty(Z, r);
  REQUIRE(z.directions.size() == 2);
  CHECK_FALSE(z.directions[0].undetermined);
  CHECK(z.directions[1].undetermined);
  CHECK(z.directions[1].half_width == 0.0);
  CHECK(std::abs(z.directions[1].coef[1]) == Approx(1.0));
  // A residual no parameter moves (a zero row) is not counted: the same fit with such a row appended is unchanged.
  Eigen::MatrixXd X6(6, 2);
  X6.topRows(5) = X;
  X6.row(5).setZero();
  Eigen::VectorXd r6(6);
  r6.head(5) = r;
  r6[5] = 0.7;
  const FitUncertainty u6 = fit_uncertainty(X6, r6);
  CHECK(u6.dof == 3);
  CHECK(u6.s == Approx(u.s));
  for (const auto& d : u.directions) CHECK_FALSE(d.wide);  // half-widths of a few tenths
  // Residuals ten times larger: the slope's axis passes a factor e either way and is flagged wide (calibrate lists it at the limit).
  const FitUncertainty big = fit_uncertainty(X, r * 10.0);
  CHECK(big.directions[0].half_width == Approx(10 * u.directions[0].half_width));
  CHECK(std::any_of(big.directions.begin(), big.directions.end(), [](const FitDirection& d) { return d.wide; }));
  CHECK(fit_uncertainty(X.topRows(2), r.head(2)).dof == 0);
  CHECK(fit_uncertainty(X.topRows(2), r.head(2)).directions.empty());
}

// Configuration: the straight-line fit above with its residuals ten times larger (one axis wider than a factor e,
// one not), and the fit with a parameter no residual sees. Expected: the reference file's entries list a wide axis
// at the linearization's limit (range +-1, its own half-width in the label) and the narrow one at its half-width;
// an undetermined axis is left out. How validated: the ranges against the half-widths.
TEST_CASE("calibrate: calibration_directions lists a wide axis at the linearization's limit", "[unit][validation]") {
  const Eigen::MatrixXd X = line_design();
  const Eigen::VectorXd r = line_residuals(10.0);
  const FitUncertainty u = fit_uncertainty(X, r);
  REQUIRE(u.directions.size() == 2);
  REQUIRE(u.directions[0].wide != u.directions[1].wide);
  const Json dirs = calibration_directions(u, {"a", "b"}, "m", "src");
  REQUIRE(dirs.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    const FitDirection& d = u.directions[k];
    const double h = dirs[k]["range"][1].get<double>();
    CHECK(dirs[k]["range"][0].get<double>() == -h);
    CHECK(dirs[k]["machine"] == "m");
    const bool limit_named = dirs[k]["label"].get<std::string>().find("linearization's limit") != std::string::npos;
    if (d.wide) {
      CHECK(h == kLinearLimit);
      CHECK(d.half_width > kLinearLimit);
      CHECK(limit_named);
    } else {
      CHECK(h == Approx(d.half_width).margin(1e-4));
      CHECK_FALSE(limit_named);
    }
  }
  Eigen::MatrixXd Z(5, 2);
  Z.col(0) = X.col(1);
  Z.col(1).setZero();
  const Json some = calibration_directions(fit_uncertainty(Z, r), {"a", "b"}, "m", "src");
  REQUIRE(some.size() == 1);
  CHECK(some[0]["direction"].contains("a"));
  CHECK_FALSE(some[0]["direction"].contains("b"));
}
