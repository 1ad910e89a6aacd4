// cli/folder/staged_folder.h
//
// A run folder is replaced as a whole, never file by file: a run writes into
// a sibling temporary folder, DIR.tmp.<pid> (run_files::temporary_name), and
// only once its summary.json is written (the run went to its end, or was
// stopped and says so) is that folder exchanged with DIR in one step
// (renameat2 with RENAME_EXCHANGE), after which the previous set, now under
// the temporary name, is removed. A run that fails or is killed (SIGKILL, a
// power loss) leaves DIR as it was: the previous set, never a mix of two.
// What a killed run leaves under the temporary name is removed by the next
// run into DIR, since the pid in its name is no longer alive (run_folder.h).
//
// The temporary folder needs DIR's parent to be writable: a run into a DIR
// whose parent is not is refused before it starts (FolderRefused, exit 2),
// naming the folder, rather than writing into DIR file by file, which would
// lose the guarantee above.
//
// Left out: file systems without RENAME_EXCHANGE get two renames, with a
// moment between them where DIR is missing and the old set is under the
// temporary name (still whole).
#pragma once

#include <filesystem>
#include <string>

namespace ckptsim::cli {

// DIR.stopped: where a stopped rerun goes when DIR holds a complete run.
std::filesystem::path stopped_name(const std::filesystem::path& final);

class StagedFolder {
 public:
  // Creates DIR.tmp.<pid>, empty, beside `final`; throws FolderRefused when
  // `final`'s parent is not writable.
  explicit StagedFolder(std::filesystem::path final);
  ~StagedFolder();  // not committed: the temporary folder goes, DIR stays as it was
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Puts the temporary folder in DIR's place (DIR's output lock, if it holds
  // one, goes with it) and removes the previous set. Returns a warning when
  // the previous set could not be removed (a file made immutable): the new set
  // is in place all the same.
  std::string commit();
  // A stopped run over a complete one: the complete set stays in DIR and the
  // stopped one goes to `aside` (DIR.stopped, stopped_name), replacing an
  // earlier set of ckptsim's there. An `aside` holding anything else is left
  // alone and the stopped run is dropped. Returns what happened, for stderr.
  std::string set_aside(const std::filesystem::path& aside);

 private:
  std::filesystem::path final_, path_;
  bool committed_ = false;
};

}  // namespace ckptsim::cli
