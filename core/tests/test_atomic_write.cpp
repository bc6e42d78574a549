#include "core/atomic_write.hpp"
#include "core/errors.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <thread>
#include <vector>
#include <unistd.h>

using namespace ompisim;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
struct TempDir {
  fs::path dir = fs::temp_directory_path() / fmt::format("ompisim_atomic_{}", ::getpid());
  TempDir() { fs::create_directories(dir); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};
}  // namespace

// Configuration: a result written below a path whose "folder" is a regular file (the file system refuses it, as it
//                refuses a full disk or a read-only folder).
// Expected:      InputError (exit 2: the output place, not a bug) naming the result file; the file in the way is
//                left as it was.
// How validated: the exception's type and text, the file's content.
TEST_CASE("atomic_write: a result the file system refuses is an input error naming the file", "[core]") {
  TempDir t;
  const fs::path blocker = t.dir / "f";
  std::ofstream(blocker) << "keep";
  const std::string target = (blocker / "r.json").string();
  try {
    write_file_atomic(target, "{}");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == target);
    CHECK_THAT(e.reason(), Catch::Contains("cannot create its folder") && Catch::Contains("nothing already there was replaced"));
  }
  CHECK_THROWS_AS(publish_pair(target, "{}", (blocker / "r.csv").string(), "a\n"), InputError);
  CHECK(slurp(blocker) == "keep");
}

// Configuration: two processes publish the same result's pair at once: the first (a child) stops for 300 ms between
//                its CSV and its JSON (publish_pair's test hook); the second starts its own pair once the first has
//                said (through a pipe) that it is there.
// Expected:      the folder ends with one writer's CSV and JSON, never one of each: the second waits for the first's
//                pair (an exclusive lock on the folder) and then replaces both.
// How validated: the JSON's and the CSV's writer tags agree (the second's, which published last).
TEST_CASE("atomic_write: two runs publishing one result leave one run's pair", "[core]") {
  TempDir t;
  const std::string json = (t.dir / "r.json").string(), csv = (t.dir / "r.csv").string();
  publish_pair(json, "old", csv, "old");
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(ready[0]);
    try {
      publish_pair(json, "first", csv, "first", [&] {
        (void)!::write(ready[1], "x", 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      });
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  ::close(ready[1]);
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);  // the first is between its CSV and its JSON
  ::close(ready[0]);
  publish_pair(json, "second", csv, "second");
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(slurp(json) == slurp(csv));
  CHECK(slurp(json) == "second");
}

// Configuration: a folder holding what killed runs left for r.json (a result's temporary and a trace's, their pid
//                exited) and for other.csv, a temporary of r.json by a process that runs (pid 1), and files and a
//                folder whose names only look like temporaries.
// Expected:      writing r.json removes r.json's two dead temporaries and nothing else; writing other.csv then
//                removes its own.
// How validated: the folder's entries after each write_file_atomic.
TEST_CASE("atomic_write: a killed run's temporaries are removed when their file is written again", "[core]") {
  TempDir t;
  const fs::path d = t.dir / "stale";
  fs::create_directories(d);
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);  // reaped: its pid names no process now
  const std::string dead = std::to_string(child);
  const std::vector<std::string> kept{"r.json.tmp.1.3", "notes.tmp.x.1", "r.json.tmp." + dead + ".x", "r.json"};
  for (const auto& n : {"r.json.tmp." + dead + ".0", "r.json.tmp." + dead, "other.csv.tmp." + dead + ".12"})
    std::ofstream(d / n) << "half";
  for (const auto& n : kept) std::ofstream(d / n) << "keep";
  fs::create_directories(d / ("r.json.tmp." + dead + ".2"));
  write_file_atomic((d / "r.json").string(), "{}");
  CHECK_FALSE(fs::exists(d / ("r.json.tmp." + dead + ".0")));
  CHECK_FALSE(fs::exists(d / ("r.json.tmp." + dead)));
  CHECK(fs::exists(d / ("other.csv.tmp." + dead + ".12")));
  for (const auto& n : kept) CHECK(fs::exists(d / n));
  CHECK(fs::is_directory(d / ("r.json.tmp." + dead + ".2")));
  CHECK(slurp(d / "r.json") == "{}");
  write_file_atomic((d / "other.csv").string(), "x\n");
  CHECK_FALSE(fs::exists(d / ("other.csv.tmp." + dead + ".12")));
}
