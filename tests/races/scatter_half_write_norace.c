// VERDICT: norace
// scatter_half_write_race.c with the fourth thread ordered after the reader
// too: its writes of the high keys follow every entry the granules hold
// there, and the third thread's writes are on the low keys.
#define SCATTER_FOURTH
#include "scatter.h"

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_low(0);
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&after_read);      /* after the reader (and the third thread's pass, not its writes) */
  write_high(1);
  return NULL;
}

int main(void) { return scatter_run(); }
