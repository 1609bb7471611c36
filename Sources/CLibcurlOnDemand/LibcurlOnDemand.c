// libcurl on demand.
//
// FoundationNetworking (URLSession) is built on libcurl. Linked normally, libcurl.so.4 and the 35 shared
// libraries it needs (GnuTLS, Kerberos, LDAP, SSH, ...) are loaded and relocated when *any* gymcard
// command starts: measured on this project, a statically linked gymcard went from 2.2 ms to 7.0 ms per
// run, which every `show`, `render` and `occupancy --cached` would pay for a library they never use.
//
// So the executable defines the 23 libcurl functions FoundationNetworking calls (the list is
// `nm -u lib_CFURLSessionInterface.a | grep curl_` for Swift 6.3) and each of them loads libcurl.so.4
// with dlopen the first time it is called, then forwards to the real function. The link sees no
// libcurl at all: the empty `link/libcurl.a` satisfies the `-lcurl` that FoundationNetworking's
// autolink entries ask for (Package.swift adds that folder to the library search path).
//
// The three variadic functions (curl_easy_setopt, curl_multi_setopt, curl_easy_getinfo) take exactly
// one argument after the option: a long, a pointer, a function pointer or a curl_off_t. On the 64-bit
// Linux ABIs (x86-64 System V, AArch64 AAPCS64) all of them travel in the same 64-bit integer slot, so
// reading it as a pointer and passing it on is exact; libcurl itself reads it back with va_arg by type.

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "CLibcurlOnDemand.h"

_Static_assert(sizeof(void *) == 8 && sizeof(long) == 8, "the variadic forwarding below assumes LP64");

static void *open_libcurl(void) {
    // Loaded once; dlopen itself is thread-safe and returns the same handle if two threads race here.
    static void *handle;
    if (handle == NULL) handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    return handle;
}

int gymcard_libcurl_available(void) { return open_libcurl() != NULL; }

static void *libcurl_function(const char *name) {
    void *library = open_libcurl();
    if (library == NULL) {
        // URLSession has no way to report this, and continuing would crash: say it and stop (EX_UNAVAILABLE).
        fprintf(stderr, "gymcard: the network needs libcurl.so.4, which could not be loaded (%s); "
                        "install Debian's libcurl4 package\n", dlerror());
        exit(69);
    }
    void *function = dlsym(library, name);
    if (function == NULL) {
        fprintf(stderr, "gymcard: libcurl.so.4 has no %s; install a current libcurl4 package\n", name);
        exit(69);
    }
    return function;
}

int curl_global_init(long flags) {
    static int (*function)(long flags);
    if (function == NULL) function = libcurl_function("curl_global_init");
    return function(flags);
}

void *curl_easy_init(void) {
    static void * (*function)(void);
    if (function == NULL) function = libcurl_function("curl_easy_init");
    return function();
}

void curl_easy_cleanup(void *handle) {
    static void (*function)(void *handle);
    if (function == NULL) function = libcurl_function("curl_easy_cleanup");
    function(handle);
}

int curl_easy_pause(void *handle, int bitmask) {
    static int (*function)(void *handle, int bitmask);
    if (function == NULL) function = libcurl_function("curl_easy_pause");
    return function(handle, bitmask);
}

const char *curl_easy_strerror(int code) {
    static const char * (*function)(int code);
    if (function == NULL) function = libcurl_function("curl_easy_strerror");
    return function(code);
}

void curl_free(void *pointer) {
    static void (*function)(void *pointer);
    if (function == NULL) function = libcurl_function("curl_free");
    function(pointer);
}

int curl_multi_add_handle(void *multi, void *easy) {
    static int (*function)(void *multi, void *easy);
    if (function == NULL) function = libcurl_function("curl_multi_add_handle");
    return function(multi, easy);
}

int curl_multi_assign(void *multi, int socket, void *pointer) {
    static int (*function)(void *multi, int socket, void *pointer);
    if (function == NULL) function = libcurl_function("curl_multi_assign");
    return function(multi, socket, pointer);
}

int curl_multi_cleanup(void *multi) {
    static int (*function)(void *multi);
    if (function == NULL) function = libcurl_function("curl_multi_cleanup");
    return function(multi);
}

void *curl_multi_info_read(void *multi, int *remaining) {
    static void * (*function)(void *multi, int *remaining);
    if (function == NULL) function = libcurl_function("curl_multi_info_read");
    return function(multi, remaining);
}

void *curl_multi_init(void) {
    static void * (*function)(void);
    if (function == NULL) function = libcurl_function("curl_multi_init");
    return function();
}

int curl_multi_remove_handle(void *multi, void *easy) {
    static int (*function)(void *multi, void *easy);
    if (function == NULL) function = libcurl_function("curl_multi_remove_handle");
    return function(multi, easy);
}

int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    static int (*function)(void *multi, int socket, int events, int *running);
    if (function == NULL) function = libcurl_function("curl_multi_socket_action");
    return function(multi, socket, events, running);
}

void *curl_slist_append(void *list, const char *string) {
    static void * (*function)(void *list, const char *string);
    if (function == NULL) function = libcurl_function("curl_slist_append");
    return function(list, string);
}

void curl_slist_free_all(void *list) {
    static void (*function)(void *list);
    if (function == NULL) function = libcurl_function("curl_slist_free_all");
    function(list);
}

void *curl_url(void) {
    static void * (*function)(void);
    if (function == NULL) function = libcurl_function("curl_url");
    return function();
}

int curl_url_get(void *url, int part, char **value, unsigned int flags) {
    static int (*function)(void *url, int part, char **value, unsigned int flags);
    if (function == NULL) function = libcurl_function("curl_url_get");
    return function(url, part, value, flags);
}

int curl_url_set(void *url, int part, const char *value, unsigned int flags) {
    static int (*function)(void *url, int part, const char *value, unsigned int flags);
    if (function == NULL) function = libcurl_function("curl_url_set");
    return function(url, part, value, flags);
}

char *curl_version(void) {
    static char * (*function)(void);
    if (function == NULL) function = libcurl_function("curl_version");
    return function();
}

void *curl_version_info(int age) {
    static void * (*function)(int age);
    if (function == NULL) function = libcurl_function("curl_version_info");
    return function(age);
}

int curl_easy_setopt(void *handle, int option, ...) {
    static int (*function)(void *handle, int option, ...);
    if (function == NULL) function = libcurl_function("curl_easy_setopt");
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return function(handle, option, value);
}

int curl_multi_setopt(void *handle, int option, ...) {
    static int (*function)(void *handle, int option, ...);
    if (function == NULL) function = libcurl_function("curl_multi_setopt");
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return function(handle, option, value);
}

int curl_easy_getinfo(void *handle, int info, ...) {
    static int (*function)(void *handle, int info, ...);
    if (function == NULL) function = libcurl_function("curl_easy_getinfo");
    va_list arguments;
    va_start(arguments, info);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return function(handle, info, value);
}
