#ifndef GYMCARD_CSYSTEMDBUS_SHIM_H
#define GYMCARD_CSYSTEMDBUS_SHIM_H
// libsystemd's sd-bus (or elogind's copy), loaded with dlopen by the backlight guardian alone
// (Sources/Backlight/SystemBusLibrary.swift); its functions are listed once, here (docs/ARCHITECTURE.md
// §17). Building gymcard needs no libsystemd-dev: the declarations below are <systemd/sd-bus.h>'s (sd-bus(3);
// public and ABI-stable since systemd 221, the same in libelogind). Where that header is installed it is
// included first, so the compiler checks each declaration here against it.
#include <stdint.h>
#include "../DynamicLoading/include/FunctionTable.h"

#if __has_include(<systemd/sd-bus.h>)
#include <systemd/sd-bus.h>
#else
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_error {
    const char *name;
    const char *message;
    int _need_free;
} sd_bus_error;
#endif

int sd_bus_open_system(sd_bus **ret);
sd_bus *sd_bus_flush_close_unref(sd_bus *bus);
int sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                   const char *interface, const char *member);
int sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p);
int sd_bus_message_set_auto_start(sd_bus_message *m, int b);
int sd_bus_call(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply);
sd_bus_message *sd_bus_message_unref(sd_bus_message *m);
void sd_bus_error_free(sd_bus_error *e);

#define GYMCARD_SYSTEMD_BUS_FUNCTIONS(X) \
    X(sd_bus_open_system) X(sd_bus_flush_close_unref) X(sd_bus_message_new_method_call) \
    X(sd_bus_message_append_basic) X(sd_bus_message_set_auto_start) X(sd_bus_call) X(sd_bus_message_unref) \
    X(sd_bus_error_free)

GYMCARD_FUNCTION_TABLE(systemd_bus, GYMCARD_SYSTEMD_BUS_FUNCTIONS)

#endif
