#pragma once
// Reads an FST waveform back through the reader half of fstapi (gtkwave's, shipped and
// compiled in with Verilator's FST tracing): the header, the top scope's signals, and the
// value changes of chosen signals. For tests of the RTL unit's waveform.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtkwave/fstapi.h>

namespace test {

struct FstChange {
  uint64_t time;
  std::string signal;
  std::string bits;  // MSB first
};

struct FstFile {
  bool ok = false;  // fstReaderOpen read it
  uint64_t end_time = 0;
  int timescale = 0;  // exponent of 10 (s): -12 is ps
  std::string date;
  std::map<std::string, fstHandle> top;  // the signals of the first scope (the unit's ports)
  std::vector<FstChange> changes;        // of `watch`, in time order
};

// `watch`: names in the first scope whose changes to collect.
inline FstFile read_fst(const std::string& path, const std::vector<std::string>& watch = {}) {
  FstFile f;
  void* r = fstReaderOpen(path.c_str());
  if (!r) return f;
  f.ok = true;
  f.end_time = fstReaderGetEndTime(r);
  f.timescale = fstReaderGetTimescale(r);
  f.date = fstReaderGetDateString(r);
  int depth = 0;
  while (const fstHier* h = fstReaderIterateHier(r)) {
    if (h->htyp == FST_HT_SCOPE) ++depth;
    if (h->htyp == FST_HT_UPSCOPE) --depth;
    // The first scope's ports: its name without a bit range ("req_cells_i [15:0]").
    if (h->htyp == FST_HT_VAR && depth == 1) {
      const std::string name(h->u.var.name, h->u.var.name_length);
      f.top.emplace(name.substr(0, name.find(' ')), h->u.var.handle);
    }
  }
  std::map<fstHandle, std::vector<std::string>> names;  // a handle may stand for several signals
  for (const auto& w : watch)
    if (f.top.count(w)) {
      names[f.top[w]].push_back(w);
      fstReaderSetFacProcessMask(r, f.top[w]);
    }
  struct Sink {
    std::map<fstHandle, std::vector<std::string>>* names;
    std::vector<FstChange>* out;
  } sink{&names, &f.changes};
  if (!names.empty())
    fstReaderIterBlocks(
        r,
        [](void* u, uint64_t t, fstHandle h, const unsigned char* v) {
          auto* s = static_cast<Sink*>(u);
          for (const auto& n : s->names->at(h)) s->out->push_back({t, n, reinterpret_cast<const char*>(v)});
        },
        &sink, nullptr);
  fstReaderClose(r);
  return f;
}

}  // namespace test
