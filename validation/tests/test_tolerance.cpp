#include "core/errors.hpp"
#include "validation/compare.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ompisim::validation;

// Configuration: compare's --tolerance texts: fractions, percentages with and without a blank, 0, and the slips a
//                user makes (a percentage without its '%', a negative value, a word).
// Expected:      fractions as given, percentages / 100; a bare number above 1 refused with the percentage it would
//                be and the spelling to use; a negative or unreadable text refused.
// How validated: parse_tolerance's values and the InputError's text.
TEST_CASE("compare --tolerance: a fraction or a percentage; a bare number above 1 is refused as a lost '%'") {
  CHECK(parse_tolerance("0") == 0.0);
  CHECK(parse_tolerance("0.02") == Approx(0.02));
  CHECK(parse_tolerance("1") == Approx(1.0));
  CHECK(parse_tolerance("2%") == Approx(0.02));
  CHECK(parse_tolerance("5 %") == Approx(0.05));
  CHECK(parse_tolerance("150%") == Approx(1.5));
  CHECK(parse_tolerance("1e-6") == Approx(1e-6));
  try {
    (void)parse_tolerance("5");
    FAIL("a bare 5 was accepted");
  } catch (const ompisim::InputError& e) {
    const std::string w = e.what();
    CHECK(w.find("500 %") != std::string::npos);
    CHECK(w.find("'5%'") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_tolerance("-1%"), ompisim::InputError);
  CHECK_THROWS_AS(parse_tolerance("1pct"), ompisim::InputError);
  CHECK_THROWS_AS(parse_tolerance(""), ompisim::InputError);
}
