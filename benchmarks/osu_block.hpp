// The parts of the OSU drivers' block reading that the other size-sweeping drivers (smb.cpp) share.
#pragma once
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"

namespace ompisim::bench {

// "sizes": a non-empty list of whole byte counts (at most limits::kMaxSizes), or `defaults`.
std::vector<std::uint64_t> read_sizes(ObjectReader& b, const std::vector<std::uint64_t>& defaults);
// The OSU block (sizes, iterations, skip, window, buffer_offset, prepost); refuses the keys that do not apply to a
// ping-pong (window) or a stream (prepost), and SMB's own keys. The text keys' defaults (buffer, datatype) are the ones
// `declared` declares (the driver's keys: block_keys).
OsuConfig read_osu_block(ObjectReader& b, const OsuKind& kind, const std::vector<DriverParam>& declared);
// The OSU block's keys as `kind` declares them (the defaults of its loop counts and sizes); `with_window`: also the
// window, which only the streaming benchmarks take (a ping-pong's block reads it as its default).
std::vector<DriverParam> osu_params(const OsuKind& kind, bool with_window);
// An even number of ranks >= 2 at every count (pairs), and exactly 2 when `two_ranks`: InputError(file, "ranks").
void check_pair_ranks(const DriverContext& ctx, const std::string& name, bool two_ranks);
// A collective's calibration evaluation of point `sel`: only its "bytes", when it selects one; whether that changed
// `sizes` (its iterations stay as the block gives them).
bool narrow_sizes(std::vector<std::uint64_t>& sizes, const Json& sel);
// A calibration evaluation of point `sel`: only its size (or 4 KiB .. 4 MiB and 100 KB for a peak), 30 iterations.
// Returns whether that changed the configuration.
bool narrow_osu(OsuConfig& c, const Json& sel);
// The largest of the block's sizes: each is sent as one message (the acknowledgement of a window is 4 bytes).
MessageBound osu_largest_message(const OsuConfig& c);

}  // namespace ompisim::bench
