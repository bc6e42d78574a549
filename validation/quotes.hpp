// The figures a claim's recorded reason quotes ("Cray MPI is 4.60 % ahead", "the costs add 10.21 points"), measured
// again on every validation: a reason that says why a claim fails quotes the model's own numbers, at the parameters of
// the day or under a named what-if (--set), and a model change moves them. Each quoted figure may be declared beside
// the reason, in `not_holding.quotes`, with the measure it quotes:
//
//   {"text": "-4.40 %", "measure": {"gap": [A, B], "set": {"software.craympi_unex_cost": "0us"}}}
//
// `text` must stand in the reason as written; its first number (not a name's digits: OB1, VH-1) is the quoted value, read to the digits written
// (5.81 means 5.805 to 5.815; 1,300 is one thousand three hundred; 2.389e5 has three decimals in its mantissa). A
// measure is an object with one of
//   "value": A                  the value of A (a reference {scenario, select, metric}, as a claim check's a and b)
//   "number": x                 x itself (a bound the paper's number sets: what a gap needs to reach 8 %)
//   "gap": [A, B]               gap_pct(A, B) (gap.hpp: + when A is the better, by A's metric's direction)
//   "ratio": [A, B]             A / B
//   "difference_pct": [A, B]    (A - B) / B x 100
//   "minus": [M, N]             measure M minus measure N (e.g. what a cost adds to a gap: the gap with it minus the
//                               gap without)
//   "over": [M, N]              measure M divided by measure N (e.g. how many times more a cost adds to one gap)
// A reference's metric may name a field of a field ("routine_pct.Allreduce"), as Table 1's checks do.
// and optionally "set" (an object of --set overrides, key to value, for the runs of this measure and of the measures
// and references inside it unless they set their own; a reference may carry one too, beside scenario, select and
// metric, for a what-if on one side only: an MCA parameter of one stack is no parameter of the other's), "scale" (a number the measured value is multiplied by before it is compared:
// 1e6 for seconds quoted in us) and "abs" (true: the magnitude, for a figure quoted without its sign).
// The same "quotes" may stand beside a point's or held-out value's "note" and a table1 or mechanism check's "reason"
// (their text must stand in that note or reason).
// A quote agrees when the measured value, rounded to the digits the text writes, is the quoted number. `validate`
// measures every declared quote at the nominal parameters (not under its own --set: the quotes describe the committed
// model), lists them on the claim or row (`quotes` in --json: text, measured, agrees) and names each one that no longer
// agrees in `validation.md`; the exit status does not count them (a stale quote is a text to read again, not a model
// out of tolerance): e2e.validation_table* fail on one.
#pragma once
#include "core/json_input.hpp"
#include "runner/scenario.hpp"

#include <functional>
#include <optional>
#include <string>

namespace ompisim::validation {

// The number a quote's text gives, and the half-unit of its last written digit.
struct QuotedNumber {
  double value = 0;
  double half_unit = 0;
};
// The first number in `text` ("-4.40 %" -> -4.40 +- 0.005, "1,300 of" -> 1300 +- 0.5, "2.389e5 /s" -> 238900 +- 50,
// "OB1 0.33 %" -> 0.33: digits right after a letter, or after a hyphen after a letter, are part of a name (OB1, S3D,
// VH-1)); a minus sign or U+2212 directly before the digits is the number's. nullopt when there is none.
std::optional<QuotedNumber> quoted_number(const std::string& text);
// The measured value, rounded to the digits the text writes, is its number (within a relative 1e-9 of the half unit).
bool quote_agrees(const std::string& text, double measured);

// The input check of a claim's not_holding.quotes: an array of at most 64 objects {text, measure}, each text a
// non-empty string standing in `reason`, each measure of the grammar above, nested at most 4 deep, its references
// checked as a claim check's (scenarios inside the data folder that exist), its "set" at most 16 string or number
// values under keys of 1 to 128 characters. InputError naming `file` and the key (claims[id].not_holding.quotes[i]...).
void check_quotes_input(const Json& quotes, const std::string& reason, const std::string& file, const std::string& key,
                        bool (*scenario_exists)(const std::string&));

// A reference's value at a set of overrides (the caller's runner: one per set, each scenario run once).
using QuoteValue = std::function<double(const Json& ref, const Overrides& sets)>;
// Each quote measured: [{text, measured, agrees, what_if}] (what_if: a "set" somewhere in its measure).
Json eval_quotes(const Json& quotes, const QuoteValue& value);

}  // namespace ompisim::validation
