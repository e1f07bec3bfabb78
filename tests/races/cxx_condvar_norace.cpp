// VERDICT: norace
// C++: std::condition_variable + std::unique_lock hand-off queue between a producer and a consumer.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

struct job { int id; long data[4]; };
static std::mutex mu;
static std::condition_variable cv;
static std::deque<job *> jobs;
static bool finished;

int main()
{
  long sum = 0;
  std::thread consumer([&sum] {
    for (;;) {
      std::unique_lock<std::mutex> lk(mu);
      cv.wait(lk, [] { return !jobs.empty() || finished; });
      if (jobs.empty()) return;
      job *j = jobs.front();
      jobs.pop_front();
      lk.unlock();
      sum += j->data[3];               /* written by the producer before it queued the job */
      delete j;
    }
  });
  std::thread producer([] {
    for (int i = 0; i < 100; i++) {
      job *j = new job{i, {i, i, i, i}};
      {
        std::lock_guard<std::mutex> g(mu);
        jobs.push_back(j);
      }
      cv.notify_one();
    }
    std::lock_guard<std::mutex> g(mu);
    finished = true;
    cv.notify_all();
  });
  producer.join();
  consumer.join();
  std::printf("%ld\n", sum);
  return sum == 4950 ? 0 : 1;
}
