#pragma once
// The files one run writes into its output directory. Each is written under a temporary
// name and renamed into place by commit(), summary.json last: a directory holding
// summary.json holds the complete set of the run it describes, and nothing older.
#include <memory>
#include <string>
#include <vector>

#include "output/checked_file.h"

namespace mmusim {

class OutputDir {
 public:
  static constexpr const char* kMarker = "summary.json";  // renamed last: the run is complete

  // Checks `dir` (named `option` in errors) before anything is simulated: not empty,
  // created if missing, a directory, writable. Then removes what earlier runs left: their
  // temporary files (unless their process still runs) and their outputs, summary.json
  // first. Throws OutputError.
  OutputDir(std::string dir, const std::string& option);
  // Without commit() (a failed or interrupted run) the temporary files are removed.
  ~OutputDir();

  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::string& dir() const { return m_dir; }
  // A checked file to become `name` at commit().
  CheckedFile& open(const std::string& name);
  // The temporary path of `name`, written by a library (pcap, VCD), which its writer
  // closes and checks before commit(); commit() syncs it and renames it into place.
  std::string external(const std::string& name);
  std::string external_path(const std::string& name) const { return temp_path(name); }
  // Closes every open file; OutputError names the first one whose write failed.
  void close();
  // close(), then syncs the external files,
  // renames all into place, summary.json last, and syncs the directory.
  void commit();

  // Whether `name` is an output of an mmusim run (removed when a new run starts).
  static bool is_output(const std::string& name);
  // The checks of the constructor, without removing anything.
  static void prepare(const std::string& dir, const std::string& option);

 private:
  struct File {
    std::string name, temp;
    std::unique_ptr<CheckedFile> file;  // null for an external file
  };
  std::string temp_path(const std::string& name) const;
  void remove_stale(const std::string& option);

  std::string m_dir;
  std::vector<File> m_files;
  bool m_committed = false;
};

}  // namespace mmusim
