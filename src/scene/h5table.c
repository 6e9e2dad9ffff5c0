/* h5table: a command's samples from an HDF5 dataset (commands.c).
 *
 * The dataset is 2-D of shape (n, 2), numeric (float or integer, read as
 * doubles): column 0 the times, column 1 the values.  The scene module's
 * only use of HDF5 and the only file outside src/io_h5 that includes
 * <hdf5.h> (tools/dev/check_includes.sh allows exactly this file): the
 * loader sits below io_h5 in the layering, so it cannot use io_h5's reader.
 * Only regular files are opened (a FIFO would block H5Fopen), HDF5's own
 * error printing is off, and every refusal is a sentence for the loader to
 * locate at the scene's `file` or `dataset` value. */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scene/scene_internal.h"

int sc_rd_h5_table(const char* path, const char* dataset, long max_rows, double** tv, long* n,
                   char* why, size_t whysz) {
  *tv = NULL;
  *n = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    snprintf(why, whysz, "cannot open '%s': %s", path, strerror(errno));
    return SC_H5T_FILE;
  }
  struct stat sb;
  int serr = fstat(fd, &sb) != 0 ? errno : 0;
  close(fd);
  if (serr || !S_ISREG(sb.st_mode)) {
    snprintf(why, whysz, "cannot read '%s': %s", path,
             serr ? strerror(serr) : S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file");
    return SC_H5T_FILE;
  }
  /* HDF5 reads it, not sc_read_file: its bytes join the load's digest here */
  if (!sc_inputs_add_file(path)) {
    snprintf(why, whysz, "cannot read '%s'", path);
    return SC_H5T_FILE;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    H5Eclear2(H5E_DEFAULT);
    snprintf(why, whysz, "cannot open '%s' as an HDF5 file", path);
    return SC_H5T_FILE;
  }
  int ret = SC_H5T_DATASET;
  hid_t d = -1, t = -1, s = -1;
  double* buf = NULL;
  /* H5Lexists fails on a path whose group is missing: either way, no dataset */
  if (dataset[0] == '\0' || H5Lexists(f, dataset, H5P_DEFAULT) <= 0 ||
      (d = H5Dopen2(f, dataset, H5P_DEFAULT)) < 0) {
    snprintf(why, whysz, "no dataset '%s' in '%s'", dataset, path);
    goto done;
  }
  t = H5Dget_type(d);
  H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) {
    snprintf(why, whysz, "'%s' in '%s' is not numeric (expected an (n, 2) float dataset: time, value)",
             dataset, path);
    goto done;
  }
  s = H5Dget_space(d);
  int rank = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
  hsize_t dims[2] = {0, 0};
  if (rank == 2) H5Sget_simple_extent_dims(s, dims, NULL);
  if (rank != 2 || dims[1] != 2) {
    char shape[80] = "a scalar";
    if (rank == 1 || rank == 2) {
      hsize_t dd[2] = {0, 0};
      H5Sget_simple_extent_dims(s, dd, NULL);
      if (rank == 1)
        snprintf(shape, sizeof shape, "shape (%llu)", (unsigned long long)dd[0]);
      else
        snprintf(shape, sizeof shape, "shape (%llu, %llu)", (unsigned long long)dd[0],
                 (unsigned long long)dd[1]);
    } else if (rank > 2) {
      snprintf(shape, sizeof shape, "rank %d", rank);
    }
    snprintf(why, whysz, "'%s' in '%s' has %s (expected shape (n, 2): time, value)", dataset, path,
             shape);
    goto done;
  }
  if (dims[0] < 1) {
    snprintf(why, whysz, "'%s' in '%s' has no rows (expected at least one)", dataset, path);
    goto done;
  }
  if (dims[0] > (hsize_t)max_rows) {
    snprintf(why, whysz, "'%s' in '%s' has %llu rows (the limit of a command table is %ld)", dataset,
             path, (unsigned long long)dims[0], max_rows);
    goto done;
  }
  buf = sc_malloc((size_t)dims[0] * 2 * sizeof *buf);
  if (!buf) {
    ret = SC_H5T_NOMEM;
    goto done;
  }
  if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
    snprintf(why, whysz, "cannot read '%s' in '%s'", dataset, path);
    sc_free(buf);
    buf = NULL;
    goto done;
  }
  *tv = buf;
  *n = (long)dims[0];
  ret = SC_H5T_OK;
done:
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  if (d >= 0) H5Dclose(d);
  H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
  return ret;
}
