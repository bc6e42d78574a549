// Curve labels of reproduce's plots: curves of one figure that would share a label say what tells them apart.
#pragma once
#include "runner/scenario.hpp"

#include <string>
#include <vector>

namespace ompisim::validation {

// Which node types a scenario's ranks run on, in rank order, for a label: "" on a machine of one node type;
// "homogeneous g5"; for up to 4 ranks the types in rank order ("g5-opteron, heterogeneous"); else "heterogeneous,
// block 8 opteron + 8 g5" (one run per type), "heterogeneous, round robin opteron/g5" (the type changes at every
// rank) or "heterogeneous, <n> runs of opteron/g5".
std::string placement_phrase(const Scenario& s);

// Curves of one figure that share a label say what tells them apart, each qualifier given to every curve of the
// group: the scalar benchmark inputs that differ among them (a datatype, an algorithm; "default" where one leaves it
// out), then the node types their ranks run on when those differ (placement_phrase), and, if labels still clash, the
// scenario id.
// `labels[i]` is the label of `scenarios[i]`'s curve; labels are changed in place.
void distinguish_labels(std::vector<std::string>& labels, const std::vector<const Scenario*>& scenarios);

}  // namespace ompisim::validation
