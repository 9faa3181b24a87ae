// SwiftPM needs a source file in a C target; the symbol itself comes from libclang_rt.fuzzer, which
// `-sanitize=fuzzer` links.
#include "CLibFuzzer.h"
