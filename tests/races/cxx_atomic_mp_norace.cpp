// VERDICT: norace
// C++: std::atomic<int> release/acquire message passing of a std::string payload.
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

static std::string *payload;
std::atomic<int> ready{0};

int main()
{
  std::thread consumer([] {
    while (ready.load(std::memory_order_acquire) != 1) { }
    std::printf("%s\n", payload->c_str());
    payload->append("!");
  });
  std::thread producer([] {
    payload = new std::string("hello from the producer");
    ready.store(1, std::memory_order_release);
  });
  producer.join();
  consumer.join();
  bool ok = payload->size() == 24;
  delete payload;
  return ok ? 0 : 1;
}
