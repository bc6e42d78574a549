// name_of (core/enum_names.hpp) and the enumerator names of the layers below protocols/: units, node types, mapping
// policies, link classes, memory kinds, the Gemini endpoint states, Portals 3.3's constants and the collective
// schedules' operation kinds and stages. These names appear in results, traces, error messages and `describe`, so each
// is checked letter for letter, with "?" for a value outside its enum.
#include "collectives/schedule.hpp"
#include "core/enum_names.hpp"
#include "core/units.hpp"
#include "models/gemini/gni.hpp"
#include "models/portals/portals.hpp"
#include "platform/buffer.hpp"
#include "platform/node/mapping.hpp"
#include "platform/node/node_type.hpp"
#include "platform/topology/topology.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

using namespace ompisim;

namespace {
enum class Colour : unsigned char { Red, Green, Blue };
constexpr std::array<const char*, 3> kColourNames{"RED", "GREEN", "BLUE"};

// to_string of enumerators 0, 1, ... of E, then of the value one past the last (expected "?").
template <class E>
std::vector<std::string> names_of(std::size_t count) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i <= count; ++i) v.emplace_back(to_string(static_cast<E>(i)));
  return v;
}
}  // namespace

// Configuration: a three-enumerator enum and its names. Expected: each enumerator's name in order, "?" past the last
// (a value cast from outside the enum). How validated: exact strings, at compile time and at run time.
TEST_CASE("name_of gives the name of an enumerator from the array in the enum order and ? outside it",
          "[unit][names]") {
  static_assert(std::string_view(name_of<Colour::Blue>(Colour::Green, kColourNames)) == "GREEN");
  CHECK(std::string(name_of<Colour::Blue>(Colour::Red, kColourNames)) == "RED");
  CHECK(std::string(name_of<Colour::Blue>(Colour::Blue, kColourNames)) == "BLUE");
  CHECK(std::string(name_of<Colour::Blue>(static_cast<Colour>(3), kColourNames)) == "?");
  CHECK(std::string(name_of<Colour::Blue>(static_cast<Colour>(200), kColourNames)) == "?");
}

// Configuration: every enum below protocols/ that has a to_string. Expected: the names the results, traces and error
// messages print, in the enum's order, and "?" one past the last enumerator. How validated: the whole list compared
// string for string.
TEST_CASE("the enums of core, platform, models and collectives keep their printed names", "[unit][names]") {
  using V = std::vector<std::string>;
  CHECK(names_of<Dim>(5) == V{"time", "size", "rate", "count", "ratio", "?"});
  CHECK(names_of<MemKind>(2) == V{"host", "device", "?"});
  CHECK(names_of<platform::Distance>(3) == V{"same NUMA node", "other NUMA node", "other package", "?"});
  CHECK(names_of<platform::ResourceKind>(8) == V{"CoreCopy", "NumaMemory", "InterDie", "InterSocket", "GpuMemory",
                                                 "GpuPeer", "Bus", "GpuLink", "?"});
  CHECK(names_of<platform::MapBy>(5) == V{"slot", "core", "socket", "numa", "node", "?"});
  CHECK(names_of<platform::BindTo>(4) == V{"none", "core", "numa", "socket", "?"});
  CHECK(names_of<platform::RankBy>(5) == V{"slot", "core", "numa", "socket", "node", "?"});
  CHECK(names_of<topology::LinkClass>(topology::kLinkClassCount) ==
        V{"X", "Y", "Z", "up", "down", "local", "global", "?"});
  CHECK(names_of<gemini::EpState>(3) == V{"INIT", "CONNECTING", "CONNECTED", "?"});
  CHECK(names_of<portals::UnlinkOp>(2) == V{"PTL_RETAIN", "PTL_UNLINK", "?"});
  CHECK(names_of<portals::InsertPos>(2) == V{"PTL_INS_BEFORE", "PTL_INS_AFTER", "?"});
  CHECK(names_of<portals::AckReq>(2) == V{"PTL_NOACK_REQ", "PTL_ACK_REQ", "?"});
  CHECK(names_of<portals::EventKind>(10) ==
        V{"PTL_EVENT_GET_START", "PTL_EVENT_GET_END", "PTL_EVENT_PUT_START", "PTL_EVENT_PUT_END",
          "PTL_EVENT_REPLY_START", "PTL_EVENT_REPLY_END", "PTL_EVENT_SEND_START", "PTL_EVENT_SEND_END",
          "PTL_EVENT_ACK", "PTL_EVENT_UNLINK", "?"});
  CHECK(names_of<portals::DropReason>(3) == V{"none", "no matching entry", "invalid portal index", "?"});
  CHECK(names_of<coll::OpKind>(7) == V{"Send", "Recv", "Amo", "WaitCounter", "Reduce", "PostRecv", "Wait", "?"});
  CHECK(names_of<coll::Stage>(5) == V{"roots", "node", "node_after", "comm", "comm_after", "?"});
}

// Configuration: every link-class name. Expected: link_class_from_string reads back each name to_string gives, and
// nothing else. How validated: the round trip over the seven classes, and two spellings that are not names.
TEST_CASE("link class names read back to their classes", "[unit][names]") {
  for (std::size_t i = 0; i < topology::kLinkClassCount; ++i) {
    const auto c = static_cast<topology::LinkClass>(i);
    CHECK(topology::link_class_from_string(to_string(c)) == c);
  }
  CHECK_FALSE(topology::link_class_from_string("x").has_value());
  CHECK_FALSE(topology::link_class_from_string("?").has_value());
}
