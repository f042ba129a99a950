#pragma once
// Min-queue of timed items with FIFO order among equal times (determinism). Items mostly
// arrive in time order (one link's frames, one pipeline's decision slots), so those go to
// a FIFO and only the out-of-order rest to a heap; the smaller head of the two, by
// (time, insertion order), is the queue's head: the same order as one heap, cheaper.
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

namespace mmusim {

template <class T>
class TimedQueue {
 public:
  void push(uint64_t t_ps, const T& v) {
    const Item it{t_ps, m_seq++, v};
    if (m_fifo.empty() || t_ps >= m_fifo.back().t) m_fifo.push_back(it);
    else m_heap.push(it);
    ++m_n;
  }
  // From a count before the containers: a NIC asks at every send, mostly of an empty queue.
  bool empty() const { return m_n == 0; }
  size_t size() const { return m_n; }
  uint64_t next_time() const { return head().t; }
  const T& top() const { return head().v; }
  void pop() {
    if (from_fifo()) m_fifo.pop_front();
    else m_heap.pop();
    --m_n;
  }

 private:
  struct Item {
    uint64_t t;
    uint64_t seq;
    T v;
    bool operator>(const Item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  bool from_fifo() const { return m_heap.empty() || (!m_fifo.empty() && m_heap.top() > m_fifo.front()); }
  const Item& head() const { return from_fifo() ? m_fifo.front() : m_heap.top(); }

  size_t m_n = 0;           // items in both
  std::deque<Item> m_fifo;  // non-decreasing t, increasing seq
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> m_heap;
  uint64_t m_seq = 0;
};

}  // namespace mmusim
