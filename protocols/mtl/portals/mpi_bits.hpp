// MPI envelope <-> Portals match bits, as the Portals MTL, btl/portals and Cray MPI encode them: a protocol type in the
// top bits, the sender's rank and the tag below (one communicator: the context id is 0). A receive with
// MPI_ANY_SOURCE / MPI_ANY_TAG ignores those fields; a receive matches either protocol type.
#pragma once
#include "models/portals/portals.hpp"

namespace ompisim::portals::mpi {

enum class MsgType : std::uint64_t { Short = 1, Long = 2, Ready = 3 };
inline constexpr MatchBits kTypeMask = MatchBits{3} << 62;
inline constexpr MatchBits kSrcMask = MatchBits{0x3FFFFFFF} << 32;
inline constexpr MatchBits kTagMask = 0xFFFFFFFFull;

inline MatchBits send_bits(MsgType t, int src, int tag) {
  return (static_cast<MatchBits>(t) << 62) | (static_cast<MatchBits>(src) << 32) | static_cast<std::uint32_t>(tag);
}
// Receive bits and ignore bits for (src, tag), either possibly a wildcard (< 0).
inline std::pair<MatchBits, MatchBits> recv_bits(int src, int tag) {
  MatchBits bits = 0, ignore = kTypeMask;
  if (src < 0) ignore |= kSrcMask;
  else bits |= static_cast<MatchBits>(src) << 32;
  if (tag < 0) ignore |= kTagMask;
  else bits |= static_cast<std::uint32_t>(tag);
  return {bits, ignore};
}
inline MsgType type_of(MatchBits b) { return static_cast<MsgType>(b >> 62); }
inline int src_of(MatchBits b) { return static_cast<int>((b & kSrcMask) >> 32); }
inline int tag_of(MatchBits b) { return static_cast<int>(b & kTagMask); }
// A catch-all entry for one protocol type (unexpected messages).
inline std::pair<MatchBits, MatchBits> type_only(MsgType t) { return {static_cast<MatchBits>(t) << 62, ~kTypeMask}; }

}  // namespace ompisim::portals::mpi
