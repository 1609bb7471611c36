#ifndef GYMCARD_CQRENCODE_SHIM_H
#define GYMCARD_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
