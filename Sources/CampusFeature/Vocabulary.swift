// The types the campus's use cases speak in (a campus, a reading, hours, the history, trends): the CLI
// names them through CampusFeature alone (ARCHITECTURE §3, "Layers").
@_exported import Collector
@_exported import GymcardCore
@_exported import History
@_exported import Occupancy
@_exported import OccupancyViews
@_exported import OpeningHours
@_exported import Trends
