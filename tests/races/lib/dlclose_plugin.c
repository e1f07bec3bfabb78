/* The library of the dlclose tests (dlclose_*.c name it in their // LIB:
 * line; run_race_test.sh builds it with `goldi cc -shared -fPIC`). It lives
 * here, not next to them, so the corpus does not take it for a program.
 * Plain C with nothing that pins it in memory (no RTLD_NODELETE, no C++
 * unique symbols): dlclose really unloads it. */
int plugin_counter;

void plugin_write(int v)
{
  plugin_counter = v;
}
