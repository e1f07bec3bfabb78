#include <stdio.h>
int main(void) { puts("probe ok"); return 0; }
