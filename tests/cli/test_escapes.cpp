// Every message that echoes user input reaches the terminal through one
// escaping (cli/folder/printable.h): a terminal never receives a raw ESC or BEL
// from a pasted conf, a pgbench command, a JSON key, a file name or a path.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

// An OSC sequence that sets the terminal's title: ESC ] 0 ; ... BEL.
const std::string kTitle = "\x1b]0;PWNED\x07";

void check_escaped(const CommandResult& result) {
  CHECK(result.exit_code == 2);
  CHECK(result.err.find('\x1b') == std::string::npos);
  CHECK(result.err.find('\x07') == std::string::npos);
  CHECK(result.err.find("\\x1b]0;PWNED\\x07") != std::string::npos);
}

}  // namespace

TEST_CASE("scenario errors echo a pasted conf, a pgbench command and a JSON key escaped") {
  TempDir tmp("escapes-scenario");
  const std::string json_title = "\\u001b]0;PWNED\\u0007";  // as JSON writes it
  for (const std::string& doc : {R"({"postgres": {"conf": ")" + json_title + R"( x = 1"}})",
                                 R"({"pgbench": {"command": "pgbench -c ')" + json_title + R"('"}})",
                                 R"({"postgres": {"shared)" + json_title + R"(": 1}})"}) {
    CAPTURE(doc);
    write_text(tmp / "s.json", doc);
    check_escaped(run_ckptsim("check " + quoted(tmp / "s.json"), tmp));
  }
}

TEST_CASE("a scenario file name, an --out path, a foreign file's name and a command-line word are echoed escaped") {
  TempDir tmp("escapes-names");
  check_escaped(run_ckptsim("check " + quoted(tmp / ("no" + kTitle + ".json")), tmp));

  write_text(tmp / "s.json", R"({"pgbench": {"duration": "2s"}})");
  write_text(tmp / ("file" + kTitle), "");
  check_escaped(run_ckptsim("run " + quoted(tmp / "s.json") + " -q --out " + quoted(tmp / ("file" + kTitle)), tmp));

  fs::create_directories(tmp / "foreign");
  write_text(tmp / "foreign" / ("notes" + kTitle), "");
  check_escaped(run_ckptsim("run " + quoted(tmp / "s.json") + " -q --out " + quoted(tmp / "foreign"), tmp));

  check_escaped(run_ckptsim("run " + quoted(tmp / "s.json") + " " + quoted(fs::path("--bogus" + kTitle)), tmp));
  check_escaped(run_ckptsim(quoted(fs::path("x" + kTitle)), tmp));
  check_escaped(run_ckptsim("index " + quoted(tmp / ("none" + kTitle)), tmp));
}
