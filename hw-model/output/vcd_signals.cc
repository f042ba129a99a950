#include "output/vcd_signals.h"

#include <sstream>
#include <stdexcept>

namespace mmusim {

VcdSignals VcdSignals::parse(const std::string& list) {
  VcdSignals s;
  s.mmu = false;
  std::stringstream in(list);
  bool any = false;
  for (std::string g; std::getline(in, g, ',');) {
    any = true;
    if (g == "mmu") s.mmu = true;
    else if (g == "queues") s.queues = true;
    else if (g == "ports") s.ports = true;
    else if (g == "pfc") s.pfc = true;
    else if (g == "all") s.mmu = s.queues = s.ports = s.pfc = true;
    else throw std::invalid_argument("unknown signal group '" + g + "' (mmu, queues, ports, pfc, all)");
  }
  if (!any) throw std::invalid_argument("names no signal group (mmu, queues, ports, pfc, all)");
  return s;
}

}  // namespace mmusim
