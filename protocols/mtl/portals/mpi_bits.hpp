// MPI envelope <-> Portals match bits, as Open MPI's mtl/portals of the v1.3 era lays them out (ompi/mca/mtl/portals/
// mtl_portals.h, PTL_SET_SEND_BITS / PTL_SET_RECV_BITS; restated, not copied), also used by the Cray MPI Portals model:
//
//   bits 63..60  protocol, one bit per type: SHORT 0x1, LONG 0x2, READY 0x4     (PTL_PROTOCOL_MASK 0xF000000000000000)
//   bits 59..48  communicator context id, 12 bits                            (PTL_CONTEXT_MASK  0x0FFF000000000000)
//   bits 47..32  source rank in the communicator, 16 bits                    (PTL_SOURCE_MASK   0x0000FFFF00000000)
//   bits 31..0   tag, 32 bits                                                (PTL_TAG_MASK      0x00000000FFFFFFFF)
//
// A receive ignores the protocol bits (it takes either type), never the context; MPI_ANY_SOURCE ignores the source
// bits; MPI_ANY_TAG ignores tag bits 30..0 only (PTL_TAG_IGNR 0x7FFFFFFF), so a wildcard receive never matches a
// negative (internal) tag. 16 source bits limit a job to 65,536 ranks (kMaxRanks) and 12 context bits to 4,096
// communicators, as in Open MPI of that era; Cray MPI's own layout is not public.
#pragma once
#include "models/portals/portals.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::portals::mpi {

enum class MsgType : std::uint64_t { Short = 1, Long = 2, Ready = 4 };
inline constexpr MatchBits kTypeMask = 0xF000000000000000ull;
inline constexpr MatchBits kContextMask = 0x0FFF000000000000ull;
inline constexpr MatchBits kSrcMask = 0x0000FFFF00000000ull;
inline constexpr MatchBits kTagMask = 0x00000000FFFFFFFFull;
inline constexpr MatchBits kTagIgnore = 0x000000007FFFFFFFull;
inline constexpr long long kMaxRanks = 1ll << 16;
inline constexpr std::uint32_t kMaxContexts = 1u << 12;

inline MatchBits context_bits(std::uint32_t ctx) {
  if (ctx >= kMaxContexts)
    throw std::invalid_argument("mtl/portals: context id " + std::to_string(ctx) + " does not fit 12 match bits");
  return static_cast<MatchBits>(ctx) << 48;
}
inline MatchBits source_bits(int src) {
  if (src < 0 || src >= kMaxRanks)
    throw std::invalid_argument("mtl/portals: rank " + std::to_string(src) + " does not fit 16 match bits");
  return static_cast<MatchBits>(src) << 32;
}

inline MatchBits send_bits(MsgType t, std::uint32_t ctx, int src, int tag) {
  return (static_cast<MatchBits>(t) << 60) | context_bits(ctx) | source_bits(src) | static_cast<std::uint32_t>(tag);
}
inline constexpr int kAnySource = -1, kAnyTag = -1;  // MPI_ANY_SOURCE, MPI_ANY_TAG
// Receive bits and ignore bits for (ctx, src, tag), src and tag possibly wildcards.
inline std::pair<MatchBits, MatchBits> recv_bits(std::uint32_t ctx, int src, int tag) {
  MatchBits bits = context_bits(ctx), ignore = kTypeMask;
  if (src == kAnySource) ignore |= kSrcMask;
  else bits |= source_bits(src);
  if (tag == kAnyTag) ignore |= kTagIgnore;
  else bits |= static_cast<std::uint32_t>(tag);
  return {bits, ignore};
}
inline MsgType type_of(MatchBits b) { return static_cast<MsgType>(b >> 60); }
inline std::uint32_t context_of(MatchBits b) { return static_cast<std::uint32_t>((b & kContextMask) >> 48); }
inline int src_of(MatchBits b) { return static_cast<int>((b & kSrcMask) >> 32); }
inline int tag_of(MatchBits b) { return static_cast<int>(b & kTagMask); }
// A catch-all entry for one protocol type (unexpected messages): every context, source and tag.
inline std::pair<MatchBits, MatchBits> type_only(MsgType t) { return {static_cast<MatchBits>(t) << 60, ~kTypeMask}; }

}  // namespace ompisim::portals::mpi
