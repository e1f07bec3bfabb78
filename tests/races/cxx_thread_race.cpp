// VERDICT: race
// C++: two std::threads update the same global without synchronisation.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'hits'
#include <cstdio>
#include <thread>
#include "invisible_barrier.h"

long hits;
ib_flag first_done, second_done;

int main()
{
  std::thread a([] { hits++; ib_set(&first_done); ib_wait(&second_done); });
  std::thread b([] { ib_wait(&first_done); hits++; ib_set(&second_done); });
  a.join();
  b.join();
  std::printf("%ld\n", hits);
  return 0;
}
