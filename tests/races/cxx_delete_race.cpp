// VERDICT: race
// C++: main deletes an object while a worker's earlier access to it is unordered (delete acts as a write of the block).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
#include <cstdio>
#include <thread>
#include "invisible_barrier.h"

struct widget { long id; long counts[6]; };
ib_flag touched, deleted;

int main()
{
  widget *w = new widget{7, {0}};
  std::thread worker([w] { w->counts[5]++; ib_set(&touched); ib_wait(&deleted); });
  ib_wait(&touched);
  delete w;
  ib_set(&deleted);
  worker.join();
  std::puts("done");
  return 0;
}
