// The MPI envelope in Portals match bits (Open MPI 1.3 mtl/portals layout).
#include "protocols/mtl/portals/mpi_bits.hpp"

#include <catch2/catch.hpp>

using namespace ompisim::portals;
namespace bits = ompisim::portals::mpi;

namespace {
bool hit(std::pair<MatchBits, MatchBits> recv, MatchBits sent) { return ((recv.first ^ sent) & ~recv.second) == 0; }
}  // namespace

// Configuration: send bits for (type, context, source, tag) and receive bits with and without wildcards.
// Expected: the field masks are Open MPI's (protocol 0xF000..., context 0x0FFF..., source 0x0000FFFF..., tag the low
// 32 bits); a receive takes either protocol type; the context never matches across communicators; ANY_SOURCE ignores
// the source; ANY_TAG ignores tag bits 30..0 only, so it does not take a negative tag; fields decode back; a rank or
// context that does not fit its field throws. How validated: the Portals match rule ((bits ^ match) & ~ignore) == 0.
TEST_CASE("mtl/portals match bits: Open MPI 1.3 layout, contexts, wildcards", "[unit][mtl][portals]") {
  CHECK(bits::kTypeMask == 0xF000000000000000ull);
  CHECK(bits::kContextMask == 0x0FFF000000000000ull);
  CHECK(bits::kSrcMask == 0x0000FFFF00000000ull);
  CHECK(bits::kTagMask == 0x00000000FFFFFFFFull);
  CHECK((bits::kTypeMask | bits::kContextMask | bits::kSrcMask | bits::kTagMask) == ~MatchBits{0});
  const MatchBits s = bits::send_bits(bits::MsgType::Long, 5, 1234, 77);
  CHECK(s == 0x2005'04D2'0000'004Dull);
  CHECK(bits::type_of(s) == bits::MsgType::Long);
  CHECK(bits::context_of(s) == 5);
  CHECK(bits::src_of(s) == 1234);
  CHECK(bits::tag_of(s) == 77);
  CHECK(hit(bits::recv_bits(5, 1234, 77), s));
  CHECK(hit(bits::recv_bits(5, 1234, 77), bits::send_bits(bits::MsgType::Short, 5, 1234, 77)));
  CHECK_FALSE(hit(bits::recv_bits(6, 1234, 77), s));  // another communicator
  CHECK_FALSE(hit(bits::recv_bits(5, 1235, 77), s));
  CHECK(hit(bits::recv_bits(5, -1, 77), s));
  CHECK(hit(bits::recv_bits(5, -1, -1), s));
  CHECK_FALSE(hit(bits::recv_bits(4, -1, -1), s));
  const MatchBits internal = bits::send_bits(bits::MsgType::Short, 5, 1, -16);
  CHECK_FALSE(hit(bits::recv_bits(5, -1, -1), internal));
  CHECK(hit(bits::recv_bits(5, 1, -16), internal));
  CHECK(bits::tag_of(internal) == -16);
  CHECK(hit(bits::type_only(bits::MsgType::Short), internal));
  CHECK_FALSE(hit(bits::type_only(bits::MsgType::Long), internal));
  CHECK(bits::src_of(bits::send_bits(bits::MsgType::Short, 4095, 65535, 0)) == 65535);
  CHECK_THROWS_AS(bits::send_bits(bits::MsgType::Short, 0, 65536, 0), std::invalid_argument);
  CHECK_THROWS_AS(bits::recv_bits(4096, 0, 0), std::invalid_argument);
}
