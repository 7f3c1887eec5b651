// Forwards to the printer's home in lib/Target; remove once nothing includes this.
#include "TensorIR/Target/TVMScript.h"
