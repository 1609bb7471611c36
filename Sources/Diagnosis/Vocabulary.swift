// The library registry doctor reports on (ARCHITECTURE §3, "Layers").
@_exported import DynamicLoading
