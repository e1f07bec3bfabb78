#ifndef COUNTER_H
#define COUNTER_H
void counter_add(long n);
long counter_get(void);
#endif
