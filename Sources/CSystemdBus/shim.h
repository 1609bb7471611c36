#ifndef GYMCARD_CSYSTEMDBUS_SHIM_H
#define GYMCARD_CSYSTEMDBUS_SHIM_H
// libsystemd's sd-bus (or elogind's copy, the same API), loaded with dlopen by the backlight guardian
// alone (Sources/Backlight/SystemBusLibrary.swift): its functions are listed once, here; the table's members
// take their types from sd-bus.h (docs/ARCHITECTURE.md §17).
#include <systemd/sd-bus.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_SYSTEMD_BUS_FUNCTIONS(X) \
    X(sd_bus_open_system) X(sd_bus_flush_close_unref) X(sd_bus_message_new_method_call) \
    X(sd_bus_message_append_basic) X(sd_bus_message_set_auto_start) X(sd_bus_call) X(sd_bus_message_unref) \
    X(sd_bus_error_free)

GYMCARD_FUNCTION_TABLE(systemd_bus, GYMCARD_SYSTEMD_BUS_FUNCTIONS)

#endif
