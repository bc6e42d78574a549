// pml/ob1 headers as opaque BTL header segments.
#include "platform/machine.hpp"
#include "protocols/pml/ob1/hdr.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ompisim;
using pml::Hdr;

// Configuration: every header type with the fields it carries set to values that fill their widths (context id,
// negative tag, 2^32-1 sequence, 64-bit ids, offsets and lengths, RNDV/RGET flags, PUT's ACK flag, the 32-bit segment length of PUT and
// FIN). Expected: unpack(pack(h)) == h; the segment's length is kHdrBytes = 32
// for every type (today's bytes on the wire); the type is byte 0; the tag ob1 registers is MCA_BTL_TAG_PML + 1 + type.
// How validated: field-by-field equality; an unknown type byte and a short segment throw ProtocolError.
TEST_CASE("ob1 headers: serialisation round-trips for every type", "[unit][protocol][ob1]") {
  for (int t = 0; t < pml::kHdrTypes; ++t) {
    pml::HdrFields h;
    h.type = static_cast<Hdr>(t);
    switch (h.type) {
      case Hdr::Match: h.ctx = 0xfffe, h.tag = -7, h.seq = 0xffffffffu, h.msg_bytes = 0x0123456789abcdefULL; break;
      case Hdr::Rndv:
      case Hdr::Rget:
        h.ctx = 1, h.tag = 1 << 30, h.seq = 3, h.msg_bytes = 1ULL << 40, h.send_req = 0xfedcba9876543210ULL;
        h.flags = 0xff;
        break;
      case Hdr::Ack:
      case Hdr::Nack: h.send_req = 11, h.recv_req = ~0ULL, h.offset = 1ULL << 45; break;
      case Hdr::Fin: h.send_req = 11, h.recv_req = ~0ULL, h.offset = 1ULL << 45, h.msg_bytes = 0xffffffffu; break;
      case Hdr::Frag: h.offset = 1ULL << 50, h.send_req = 5, h.recv_req = 6; break;
      case Hdr::Put: h.offset = 1ULL << 50, h.send_req = 5, h.recv_req = 6, h.msg_bytes = 0xfffffffeu;
        h.flags = pml::hdr_flag::Ack;
        break;
    }
    btl::HdrSegment s = pml::pack(h);
    CHECK(s.len == pml::kHdrBytes);
    CHECK(s.len == pml::hdr_len(h.type));
    CHECK(s.bytes[0] == t);
    CHECK(pml::unpack(s) == h);
    CHECK(pml::tag_of(h.type) == btl::kTagPml + 1 + t);
  }
  btl::HdrSegment bad;
  bad.len = pml::kHdrBytes;
  bad.bytes[0] = pml::kHdrTypes;
  CHECK_THROWS_AS(pml::unpack(bad), ProtocolError);
  btl::HdrSegment shorty = pml::pack(pml::HdrFields{Hdr::Rndv, 1, 2, 3, 4, 0, 0});
  shorty.len = 20;
  CHECK_THROWS_AS(pml::unpack(shorty), ProtocolError);
}

// Configuration: the sources of protocols/btl/ (btl.hpp and every component, tests excluded). Expected: none includes
// anything from protocols/pml/ (a BTL never sees an ob1 type: with btl.hpp free of pml/, the compiler rejects any use
// of one). How validated: a scan of every #include line; btl.hpp itself must be among the files scanned.
TEST_CASE("btl interface: no BTL source includes pml/", "[unit][protocol][btl]") {
  namespace fs = std::filesystem;
  int files = 0;
  bool saw_btl_hpp = false;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ompisim::data_dir()) / "protocols" / "btl")) {
    if (!e.is_regular_file() || e.path().string().find("/tests/") != std::string::npos) continue;
    if (e.path().extension() != ".hpp" && e.path().extension() != ".cpp") continue;
    ++files;
    saw_btl_hpp = saw_btl_hpp || e.path().filename() == "btl.hpp";
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("#include", 0) == 0) CHECK_FALSE(line.find("pml/") != std::string::npos);
  }
  CHECK(saw_btl_hpp);
  CHECK(files >= 8);
}
