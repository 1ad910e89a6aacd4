// tests/analysis/test_atomic_file.cpp: an output appears under its final name only once complete.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>

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

TEST_CASE("a write that fails long before commit is reported by its errno, and nothing takes the final name") {
  ScratchDir dir;
  write_text(dir / "out.csv", "the previous, complete file\n");
  // A 16 kB file size limit with SIGXFSZ ignored: write(2) fails with EFBIG, as
  // it fails with ENOSPC on a full disk, at the first buffer past the limit.
  rlimit saved{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 16 * 1024;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string what;
  {
    AtomicFile file(dir / "out.csv");
    for (int i = 0; i < 20000; ++i) file.out() << "1.000,612.000,6.5\n";  // 360 kB
    file.out() << "last line\n";  // written after the failure: the errno must survive it
    try {
      file.commit();
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, old_handler);
  CHECK(what.find("write failed: File too large") != std::string::npos);
  CHECK(what.find((dir / "out.csv").string()) != std::string::npos);
  CHECK(read_text(dir / "out.csv") == "the previous, complete file\n");
  CHECK(dir.entries() == 1);  // the temporary went
}

TEST_CASE("write_file_atomically writes exactly the given bytes") {
  ScratchDir dir;
  const std::string content("a\0b\n", 4);
  write_file_atomically(dir / "bytes", content);
  CHECK(read_text(dir / "bytes") == content);
}
