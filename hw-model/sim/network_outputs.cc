#include "sim/network.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "bfc/bfc_frame.h"
#include "common/sim_time.h"
#include "pfc/pfc_frame.h"

namespace mmusim {
namespace {

// SystemC's VCD writer drops failed writes silently, but it ends the file with the time
// stamp of the close (or has printed it already, with the last changes): a file whose
// last "#time" line is not `now_ps` lost its end to a full disk or a file size limit.
void check_vcd_complete(const std::string& path, const std::string& name, uint64_t now_ps) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamoff size = in ? std::streamoff(in.tellg()) : -1;
  if (size < 0) throw OutputError(name + ": cannot read back");
  const std::streamoff tail = std::min<std::streamoff>(size, 16 << 20);
  std::string buf(size_t(tail), '\0');
  in.seekg(size - tail);
  in.read(buf.data(), tail);
  const size_t hash = buf.rfind("\n#");
  const size_t end = hash == std::string::npos ? hash : buf.find('\n', hash + 1);
  if (!in || buf.empty() || buf.back() != '\n' || end == std::string::npos ||
      buf.compare(hash + 2, end - hash - 2, std::to_string(now_ps)) != 0)
    throw OutputError(name + ": write failed: SystemC's VCD writer lost the end of the file (disk full or file size "
                      "limit?)");
}

}  // namespace

void Network::open_outputs() {
  const NetworkCfg& net = m_sc.net;
  m_out = std::make_unique<OutputDir>(m_opt.out_dir, "--out");
  // A failed write stops the simulation at once: the run has failed, and the rest of the
  // output would be lost as well.
  auto stop = [this] {
    m_write_failed = true;
    Calendar::get().set_horizon(0);  // stop at the kernel's time
    if (sc_core::sc_is_running()) sc_core::sc_pause();
  };
  for (auto& sw : m_switches) {
    const std::string sfx = net.graph ? "_" + std::string(sw->basename()) : std::string();
    CheckedFile& ts = m_out->open("timeseries" + sfx + ".csv");
    ts.on_error(stop);
    sw->mmu.enable_timeseries(&ts);
    if (sw->bfc && m_sc.output.bfc_queues) {
      CheckedFile& q = m_out->open("bfc_queues" + sfx + ".csv");
      q.on_error(stop);
      sw->bfc->enable_queue_series(&q);
    }
  }
  if (m_opt.pcap) {
    m_pcap = std::make_unique<PcapWriter>(m_out->external("pfc.pcap"), m_out->dir() + "/pfc.pcap");
    m_pcap->on_error(stop);
    for (auto& sw : m_switches)
      for (auto& e : sw->egress)
        e->set_tx_hook([this](const Packet& p, uint64_t now) {
          if (p.kind == Packet::Kind::kPfc) {
            const auto bytes = encode_pfc(p.pfc);
            m_pcap->write(now, bytes.data(), bytes.size());
          } else if (p.kind == Packet::Kind::kBfc) {
            const auto bytes = encode_bfc(p.bfc);
            m_pcap->write(now, bytes.data(), bytes.size());
          }
        });
  }
  if (m_opt.vcd) {
    // SystemC opens the file only when the simulation starts, and a failure there leaves a
    // trace file whose close divides by zero (SIGFPE). Create it here, where a failure is
    // an ordinary error; SystemC then reopens it by name (adding ".vcd").
    const std::string path = m_out->external("counters.vcd");
    CheckedFile(path, m_out->dir() + "/counters.vcd").close();
    // SystemC announces the trace timescale as an info report on stdout; keep stdout to the table.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    m_vcd = sc_core::sc_create_vcd_trace_file(path.substr(0, path.size() - 4).c_str());
    m_vcd->set_time_unit(1, sc_core::SC_PS);  // the model's resolution: no truncation
    for (auto& sw : m_switches) {
      sw->mmu.trace(m_vcd, m_opt.vcd_signals);
      if (m_opt.vcd_signals.pfc)
        for (auto& e : sw->egress) e->trace(m_vcd);
    }
    // The co-simulated unit's own waveform, from its first cycle (docs/outputs.md).
    for (auto& sw : m_switches)
      if (RtlEngine* rtl = sw->mmu.rtl()) {
        const std::string name = rtl_wave_name(*sw);
        const std::string path = m_out->external(name);
        CheckedFile(path, m_out->dir() + "/" + name).close();  // an error now, not at the first operation
        rtl->trace(path);
      }
  }
}

std::string Network::rtl_wave_name(const Switch& sw) const {
  return m_sc.net.graph ? "rtl_unit_" + std::string(sw.basename()) + ".fst" : "rtl_unit.fst";
}

void Network::commit_outputs(const nlohmann::json& summary) {
  if (m_vcd) {
    sc_core::sc_close_vcd_trace_file(m_vcd);  // flushes; OutputDir::commit syncs the file
    m_vcd = nullptr;
    check_vcd_complete(m_out->external_path("counters.vcd"), m_out->dir() + "/counters.vcd",
                       uint64_t(sc_core::sc_time_stamp().value()));
  }
  if (m_pcap) m_pcap->close();
  if (m_opt.vcd)
    for (auto& sw : m_switches)
      if (RtlEngine* rtl = sw->mmu.rtl()) {
        try {
          rtl->close_trace();
        } catch (const std::runtime_error& e) {
          throw OutputError(m_out->dir() + "/" + rtl_wave_name(*sw) + ": " + e.what());
        }
      }
  write_flows(m_out->open("flows.csv"));
  m_out->open(OutputDir::kMarker) << summary.dump(2) << "\n";
  m_out->commit();
}

void Network::write_flows(std::ostream& out) const {
  out << "id,generator,src,dst,src_ip,dst_ip,src_port,dst_port,proto,prio,bytes,start_ns,finish_ns,fct_ns,"
         "received_bytes,packets,ideal_fct_ns,slowdown";
  if (m_sc.host.acks) out << ",acks,last_owd_ns";
  out << '\n';
  auto ip = [](uint32_t a) {
    return std::to_string(a >> 24) + "." + std::to_string(a >> 16 & 255) + "." + std::to_string(a >> 8 & 255) +
           "." + std::to_string(a & 255);
  };
  auto ns = [](uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", (unsigned long long)(v / 1000), (unsigned long long)(v % 1000));
    return std::string(buf);
  };
  for (const Flow& f : m_flows) {
    out << f.id << ',' << m_sc.traffic[f.generator].name << ",h" << f.src << ",h" << f.dst << ','
        << ip(f.tuple.src_ip) << ',' << ip(f.tuple.dst_ip) << ',' << f.tuple.src_port << ',' << f.tuple.dst_port
        << ',' << int(f.tuple.proto) << ',' << int(f.prio) << ',' << f.bytes << ',' << ns(f.start_ps) << ',';
    if (f.finish_ps) out << ns(f.finish_ps) << ',' << ns(f.finish_ps - f.start_ps);
    else out << ',';
    const uint64_t ideal = ideal_fct(f);
    out << ',' << f.received_bytes << ',' << f.packets_sent << ',' << ns(ideal) << ',';
    if (f.finish_ps) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4f", double(f.finish_ps - f.start_ps) / double(ideal));
      out << buf;
    }
    if (m_sc.host.acks) out << ',' << f.acks << ',' << (f.acks ? ns(f.last_owd_ps) : std::string());
    out << '\n';
  }
}

}  // namespace mmusim
