/* simc command-line interface (placeholder until the step lands). */
#include <stdio.h>

int main(void) {
  printf("simc %s\n", SC_VERSION);
  return 0;
}
