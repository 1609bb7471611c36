#ifndef GYMCARD_CSYSTEMDBUS_SHIM_H
#define GYMCARD_CSYSTEMDBUS_SHIM_H
// The types of libsystemd's sd-bus that the backlight guardian uses, as <systemd/sd-bus.h> declares them
// (sd-bus(3); public and ABI-stable since systemd 221, and the same in elogind's libelogind). Declared here
// rather than included so that building gymcard needs no libsystemd-dev: the functions are looked up with
// dlsym (Sources/Backlight/SystemBusLibrary.swift), and only the error structure's layout matters.
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_error {
    const char *name;
    const char *message;
    int _need_free;
} sd_bus_error;
#endif
