// The types the context speaks in (its clock zone, fetcher, folders, config problems, the feeds hook):
// a module that imports GymcardCore can name them without importing the libraries beneath it
// (ARCHITECTURE §3, "Layers").
@_exported import CivilTime
@_exported import Configuration
@_exported import Events
@_exported import Fetching
@_exported import Storage
