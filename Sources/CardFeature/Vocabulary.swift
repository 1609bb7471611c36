// The types the card's use cases speak in (a symbology, the barcode's content, the stored card, a scan's
// report, an image): the CLI names them through CardFeature alone (ARCHITECTURE §3, "Layers").
@_exported import CardVault
@_exported import Catima
@_exported import Codabar
@_exported import GymcardCore
@_exported import Imaging
@_exported import Scanner
@_exported import Symbologies
@_exported import Symbols
