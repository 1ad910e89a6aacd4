// tests/analysis/test_atomic_file.cpp: an output appears under its final name only once complete.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "analysis/atomic_file.h"
#include "scratch_dir.h"

using ckptsim::analysis::AtomicFile;
using ckptsim::analysis::write_file_atomically;
using ckptsim::analysis::testing::read_text;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

TEST_CASE("nothing exists under the final name before commit; the temporary sits beside it") {
  ScratchDir dir;
  AtomicFile file(dir / "summary.json");
  file.out() << "{}\n";
  file.out().flush();
  CHECK_FALSE(std::filesystem::exists(dir / "summary.json"));
  CHECK(file.temp_path().parent_path() == dir.path());
  CHECK(file.temp_path().filename().string().rfind("summary.json.tmp.", 0) == 0);
  CHECK(std::filesystem::exists(file.temp_path()));
  file.commit();
  CHECK(read_text(dir / "summary.json") == "{}\n");
  CHECK(dir.entries() == 1);  // the temporary became the file
}

TEST_CASE("a writer destroyed without commit leaves no file and no temporary") {
  ScratchDir dir;
  {
    AtomicFile file(dir / "progress.csv");
    file.out() << "time_s,tps\n1.0,";  // half a row, then the run fails
  }
  CHECK(dir.entries() == 0);
}

TEST_CASE("a failed run keeps the previous complete file under the final name") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "old\n");
  {
    AtomicFile file(dir / "progress.csv");
    file.out() << "new but unfinished";
  }
  CHECK(read_text(dir / "progress.csv") == "old\n");
  CHECK(dir.entries() == 1);
}

TEST_CASE("commit replaces an existing file") {
  ScratchDir dir;
  write_text(dir / "out.txt", "old content, longer than the new\n");
  AtomicFile file(dir / "out.txt", /*fsync=*/true);
  file.out() << "new\n";
  file.commit();
  CHECK(read_text(dir / "out.txt") == "new\n");
  CHECK(dir.entries() == 1);
}

TEST_CASE("two writers of one path get distinct temporaries; the last commit wins") {
  ScratchDir dir;
  AtomicFile a(dir / "x");
  AtomicFile b(dir / "x");
  CHECK(a.temp_path() != b.temp_path());
  a.out() << "a";
  b.out() << "b";
  a.commit();
  b.commit();
  CHECK(read_text(dir / "x") == "b");
}

TEST_CASE("failures name the path and errno's reason") {
  ScratchDir dir;
  // The folder does not exist: the temporary cannot be created.
  try {
    AtomicFile file(dir / "missing" / "out.csv");
    FAIL("expected an exception");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK(what.find((dir / "missing" / "out.csv").string()) != std::string::npos);
    CHECK(what.find("No such file or directory") != std::string::npos);
  }
  // The final name is a non-empty folder: rename(2) refuses, the temporary goes.
  std::filesystem::create_directories(dir / "taken" / "inside");
  {
    AtomicFile file(dir / "taken");
    file.out() << "x";
    const std::string taken = (dir / "taken").string();
    CHECK_THROWS_WITH_AS(file.commit(), doctest::Contains(taken.c_str()), std::runtime_error);
  }
  CHECK(dir.entries() == 1);  // only the folder "taken"
}

TEST_CASE("write_file_atomically writes exactly the given bytes") {
  ScratchDir dir;
  const std::string content("a\0b\n", 4);
  write_file_atomically(dir / "bytes", content);
  CHECK(read_text(dir / "bytes") == content);
}
