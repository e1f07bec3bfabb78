// VERDICT: norace
// scatter_two_halves_race.c with the fourth thread ordered after the third
// thread's writes: its reads of the high keys follow them.
#define SCATTER_FOURTH
#include "scatter.h"

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_low(0);
  write_high(0);
  pass(&after_read);      /* releases the writes */
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&after_read);      /* after the third thread's writes */
  read_high(1);
  return NULL;
}

int main(void) { return scatter_run(); }
