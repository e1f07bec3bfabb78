// VERDICT: race
// C++: std::atomic<int> flag with relaxed store/load publishes nothing; the payload races.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'payload'
#include <atomic>
#include <cstdio>
#include <thread>
#include "invisible_barrier.h"

int payload;
std::atomic<int> ready{0};
ib_flag consumed;

int main()
{
  std::thread consumer([] {
    while (ready.load(std::memory_order_relaxed) != 1) { }
    int v = payload;
    ib_set(&consumed);
    std::printf("%d\n", v);
  });
  std::thread producer([] {
    payload = 42;
    ready.store(1, std::memory_order_relaxed);
    ib_wait(&consumed);
  });
  producer.join();
  consumer.join();
  return 0;
}
