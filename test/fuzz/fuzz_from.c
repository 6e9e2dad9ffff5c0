/* libFuzzer driver: see targets.h (fuzz_from_one).  Built by make fuzz. */
#include "fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return fuzz_from_one(data, size); }
