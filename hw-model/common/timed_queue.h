#pragma once
// Min-heap of timed items with FIFO order among equal times (determinism).
#include <cstdint>
#include <queue>
#include <vector>

namespace mmusim {

template <class T>
class TimedQueue {
 public:
  void push(uint64_t t_ps, const T& v) { m_heap.push(Item{t_ps, m_seq++, v}); }
  bool empty() const { return m_heap.empty(); }
  size_t size() const { return m_heap.size(); }
  uint64_t next_time() const { return m_heap.top().t; }
  const T& top() const { return m_heap.top().v; }
  void pop() { m_heap.pop(); }

 private:
  struct Item {
    uint64_t t;
    uint64_t seq;
    T v;
    bool operator>(const Item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> m_heap;
  uint64_t m_seq = 0;
};

}  // namespace mmusim
