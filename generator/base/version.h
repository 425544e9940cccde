/* version.h — odegen's version, written into every generated model (the
 * runner's HDF5 attributes say which odegen made the file). */
#ifndef ODEGEN_VERSION_H
#define ODEGEN_VERSION_H

#define ODEGEN_VERSION "0.2.0"

#endif
