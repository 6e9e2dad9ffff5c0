/* io_internal: what the writer and the reader of io_h5 share (internal). */
#ifndef SC_IO_INTERNAL_H
#define SC_IO_INTERNAL_H

#include "core/core.h"

/* SC_ERR_IO naming the file, what failed on which object, and the innermost
 * HDF5 error description (for a system error, its quoted message); clears
 * the HDF5 error stack. */
sc_status sc_h5_io_fail(const char* path, sc_error* err, const char* what, const char* obj);

#endif
