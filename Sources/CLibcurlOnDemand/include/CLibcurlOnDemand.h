#ifndef GYMCARD_LIBCURL_ON_DEMAND_H
#define GYMCARD_LIBCURL_ON_DEMAND_H

// This target has no API of its own. It defines the libcurl functions FoundationNetworking calls and
// loads libcurl.so.4 the first time one of them runs; see LibcurlOnDemand.c for why.

/// Whether libcurl.so.4 could be loaded (loads it if needed): 1 when it can, 0 when not.
int gymcard_libcurl_available(void);

#endif
