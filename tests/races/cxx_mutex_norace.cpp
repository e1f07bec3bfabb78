// VERDICT: norace
// C++: std::thread workers update a std::vector and a counter under std::mutex / std::lock_guard.
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

static std::mutex mu;
static std::vector<int> items;
long total;

int main()
{
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; w++)
    workers.emplace_back([w] {
      for (int i = 0; i < 100; i++) {
        std::lock_guard<std::mutex> g(mu);
        items.push_back(w * 100 + i);
        total += i;
      }
    });
  for (auto &t : workers) t.join();
  std::printf("%zu %ld\n", items.size(), total);
  return items.size() == 400 && total == 4 * 4950 ? 0 : 1;
}
